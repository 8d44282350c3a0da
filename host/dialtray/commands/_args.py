"""Shared argparse pieces: typed, ranged argument types and the one-line error parser.

Every command validates its arguments at parse time with these types, so a bad value is
refused before anything starts (no tray opened, no process spawned) with one line that names
the argument and what it accepts, and exit status 2.
"""

from __future__ import annotations

import argparse
import difflib
import itertools
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from dialtray.table.seeds import DEFAULT_SEED


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: `dialtray sim: argument --docks: ...`."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise SystemExit(status)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: Any = None) -> argparse.Namespace:
        """As argparse's, but an unknown option is refused by the command it was given to
        (`dialtray calibrate: unrecognized arguments: --port …`), not by `dialtray`, with the
        option it is likely a slip for."""
        ns: argparse.Namespace
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            chain = chosen_parsers(self, ns)
            chain[-1].error(f"unrecognized arguments: {' '.join(extras)}"
                            f"{slip_hint(chain, extras)}")
        return ns


def chosen_parsers(parser: argparse.ArgumentParser,
                   ns: argparse.Namespace) -> list[argparse.ArgumentParser]:
    """The parsers the words on the command line chose: ``dialtray``, its command, its verb."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(ns, action.dest or "", None)
            if isinstance(name, str) and name in action.choices:
                return [parser, *chosen_parsers(action.choices[name], ns)]
    return [parser]


def slip_hint(chain: Sequence[argparse.ArgumentParser], extras: Sequence[str]) -> str:
    """``(did you mean --seed?)`` for a mistyped option; for ``--port`` where the port is a
    positional argument, how to give it; for an option of the command given after its verb
    (``dialtray hub run --event x``), where it goes."""
    parser = chain[-1]
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    positionals = {a.dest for a in parser._actions if not a.option_strings}
    for word in extras:
        name = word.split("=", 1)[0]
        if not name.startswith("--"):
            continue
        for outer, inner in itertools.pairwise(chain[1:]):
            if any(name in a.option_strings for a in outer._actions):
                verb = inner.prog.rsplit(" ", 1)[-1]
                return f" (give {name} before {verb!r}: {outer.prog} {name} … {verb} …)"
        if name[2:].replace("-", "_") in positionals:
            return f" (give the {name[2:]} without {name}: {parser.prog} … {name[2:].upper()})"
        close = difflib.get_close_matches(name, options, n=1, cutoff=0.75)
        if close:
            return f" (did you mean {close[0]}?)"
    return ""


def lend_examples(parser: argparse.ArgumentParser) -> None:
    """A sub-command with no examples of its own (``dialtray judge vp --help``) shows its
    parent's example lines that run it, so every ``--help`` ends with a line to copy."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        lines = (parser.epilog or "").splitlines()
        for sub in action.choices.values():
            if not sub.epilog:
                mine = examples_of(lines, sub.prog)
                if mine:
                    sub.epilog = "examples:\n" + "\n".join(mine)
                    sub.formatter_class = argparse.RawDescriptionHelpFormatter
            lend_examples(sub)


def examples_of(lines: Sequence[str], prog: str) -> list[str]:
    """The lines that run ``prog`` (``dialtray hub run``, also ``dialtray hub --event x run``)
    and their indented continuation lines."""
    out: list[str] = []
    depth = -1  # the indent of the example being taken, -1 when none is
    parent, _, verb = prog.rpartition(" ")
    for line in lines:
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        words = text.split()
        if text == prog or text.startswith(prog + " ") or (
                text.startswith(parent + " --") and verb in words[:8]):
            out.append(line)
            depth = indent
        elif depth >= 0 and text and indent > depth and not text.startswith("dialtray"):
            out.append(line)
        else:
            depth = -1
    return out


def int_range(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """A whole number within lo..hi (either bound may be open)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"{value} is out of range: {_span(lo, hi)}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def float_range(lo: float | None = None, hi: float | None = None, *,
                lo_open: bool = False) -> Callable[[str], float]:
    """A finite number within lo..hi; ``lo_open`` excludes lo itself (e.g. seconds > 0)."""

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        low_bad = lo is not None and (value <= lo if lo_open else value < lo)
        if low_bad or (hi is not None and value > hi):
            bound = f"more than {lo:g}" if lo_open and hi is None else _span(lo, hi)
            raise argparse.ArgumentTypeError(f"{value:g} is out of range: {bound}")
        return value

    parse.__name__ = "number"
    return parse


def probability(text: str) -> float:
    """A probability, 0..1 (not a percentage)."""
    try:
        value = float(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a probability 0..1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        hint = f" (for {value:g} %, write {value / 100:g})" if 1 < value <= 100 else ""
        raise argparse.ArgumentTypeError(f"a probability is 0..1, got {text}{hint}")
    return value


def positive_seconds(text: str) -> float:
    """A duration in seconds, more than 0."""
    return float_range(0.0, lo_open=True)(text)


def _span(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"must be {lo:g}..{hi:g}"
    if lo is not None:
        return f"must be at least {lo:g}"
    return f"must be at most {hi:g}"


def seats_arg(text: str) -> list[str]:
    words = [w.strip() for w in text.split(",")]
    bad = [w for w in words if w not in ("human", "bot")]
    if bad or not words:
        raise argparse.ArgumentTypeError(f"expected human or bot per seat, e.g. human,bot; got "
                                         f"{text!r}")
    return words


def figures_arg(text: str) -> list[str]:
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        raise argparse.ArgumentTypeError("expected figure ids in dock order, e.g. A1,A2,B1")
    return words


def add_event_arguments(p: argparse.ArgumentParser) -> None:
    """``--event URL --creds FILE --wait S`` for ``play`` and ``serve``: the table plays as one
    table of a tournament (``dialtray.table.event`` opens it)."""
    g = p.add_argument_group("at a tournament (dialtray hub)")
    g.add_argument("--event", metavar="URL",
                   help="play as a table of this event: mqtt://HOST[:PORT][/EVENT] (the hub's "
                        "broker); every stored record is sent to the hub, the game is the "
                        "table's assignment and the round's timer ends it")
    g.add_argument("--creds", type=Path, metavar="FILE",
                   help="with --event: this table's credentials (`dialtray hub enroll TABLE`)")
    g.add_argument("--wait", type=float_range(0.0, 3600.0, lo_open=True), default=60.0,
                   metavar="S",
                   help="with --event: how long to wait for the table's assignment "
                        "(default %(default)s s)")


DICE = ("fair", "tray", "seeded", "typed")
DICE_HELP = ("fair: the tray's LED dice, committed at the start and checked at the end "
             "(default); tray: the tray's LED dice; seeded: pseudo-random from --seed; typed: "
             "roll your own dice and type the faces")


def add_game_arguments(p: argparse.ArgumentParser, *, dice_default: str = "fair",
                       turns_default: int = 4) -> None:
    """``--seed --turns --dice --log`` for ``play`` and ``demo`` (``dialtray.table.start`` sets
    the game up with them)."""
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help="the bots' seed (and seeded dice), default %(default)s; given, it also "
                   "seeds a virtual tray's dice so a demo repeats (else they are fresh)")
    p.add_argument("--turns", type=int_range(1, 99), default=turns_default,
                   help="the agreed time limit in turns, default %(default)s "
                   "(Air Action AA-M53(2); Aces: ten times as many)")
    p.add_argument("--dice", choices=DICE, default=dice_default, help=DICE_HELP)
    p.add_argument("--log", dest="game_log", type=Path, metavar="FILE",
                   help="write the game's notation log here (default: the data directory's "
                        "games/ folder; `dialtray replay FILE` re-runs it)")
