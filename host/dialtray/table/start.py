"""What `demo` and `play` share when they start a game at a tray: the dice choice, the tracker
at a tray, the game log file (moved from ``commands/`` by issue 30: setting a game up is the
table's job; the arguments are parsed by ``commands._args.add_game_arguments``).

Kept in one place so both set a game up the same way: a ``TableDice`` around the chosen source,
a binding, a ``Tracker``, a ``TrackedTray`` subscribed before the session starts (it sees the
first snapshot: the start check reads it), and at the end the log written where
``dialtray replay`` can re-run it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from dialtray.link.session import TraySession
from dialtray.rules.core.dice import DiceSource, PromptDice, SeededDice, TrayDice
from dialtray.table.build import tracker_for
from dialtray.table.errors import TableError
from dialtray.table.games import DIALLED, GAMES, Setup, new_game
from dialtray.table.ownfiles import OwnFiles
from dialtray.tracker import TableDice, Timing, Tracker, auto_bind
from dialtray.tracker.binding import Binding, BindingError, read_binding
from dialtray.tracker.dice import Roll


@dataclass
class Table:
    """A game set up at a tray: its setup, tracker and dice (and the fair-dice commitment);
    what ``dialtray.table.Table`` or a front end then drives."""

    setup: Setup
    tracker: Tracker
    dice: TableDice
    fair: Any = None  # dialtray.link.fairdice.FairDice when --dice fair
    extra: dict[str, Any] | None = None  # more for the game's first record (an event's round)


def ask_console(count: int, purpose: str) -> list[int]:
    """Typed dice: the faces of ``count`` real dice, asked for on the console."""
    text = input(f"roll {count} d6 for {purpose} and type the faces: ")
    try:
        return [int(tok) for tok in text.replace(",", " ").split()]
    except ValueError:
        print("faces are numbers 1-6, separated by spaces")
        return []


def wait_for_tray(session: TraySession, port: str, rp2040: bool = False,
                  tray: str = "the tray") -> None:
    """Until the tray at ``port`` answers (its first snapshot in), as long as that kind of tray
    may take (``virtual.factory.sync_timeout``: the emulated Pico boots slowly); otherwise one
    line naming the port, and the game is not started."""
    from dialtray.virtual.factory import sync_timeout  # (no virtual tray imported by this)

    try:
        session.wait_synced(sync_timeout(rp2040))
    except TimeoutError as e:
        raise TableError(f"{tray} did not answer on {port}: {e}") from e


def make_dice(kind: str, session: TraySession | None, seed: int,
              ask: Callable[[int, str], Sequence[int]] = ask_console
              ) -> tuple[DiceSource, Any]:
    """(source, FairDice or None). ``fair`` needs the session to be live (it commits now)."""
    if kind == "seeded":
        return SeededDice(seed), None
    if kind == "typed":
        return PromptDice(ask), None
    if session is None:
        raise TableError(f"--dice {kind} needs a tray")
    if kind == "tray":
        return TrayDice(session), None
    from dialtray.link.fairdice import FairDice, FairDiceError

    fair = FairDice(session)
    try:
        fair.begin()
    except FairDiceError as e:
        raise TableError(f"the tray cannot commit to fair dice: {e} (use --dice tray)") from e
    return fair, fair


def new_table(kind: str, source: DiceSource, seed: int, turns: int, docks: int,
              binding_file: Path | None = None, figures: list[str] | None = None,
              timing: Timing | None = None, on_roll: Callable[[Roll], None] | None = None,
              make: Callable[[TableDice], Setup] | None = None,
              own: OwnFiles | None = None) -> Table:
    """``make``: the game another way than ``new_game`` (an event's table assignment);
    ``own``: the owner's files the new game is played with (``table.ownfiles``)."""
    if kind not in GAMES:
        raise TableError(f"unknown game {kind!r}: {' or '.join(GAMES)}", 2)
    dice = TableDice(source, on_roll)
    setup = make(dice) if make is not None else new_game(kind, dice, seed, turns, own)
    if setup.game.kind not in DIALLED:  # FASA, Sky Ace: no dial on the docks
        if binding_file is not None or figures:
            raise TableError(f"argument {'--docks-file' if binding_file else '--figures'}: "
                             f"{setup.game.kind} has no dials on the tray's docks", 2)
        return Table(setup, tracker_for(setup, Binding({}), dice, timing), dice)
    dials = setup.game.dials()
    try:
        binding: Binding
        if binding_file is not None:
            binding = read_binding(binding_file, docks, dials)
            missing = binding.missing(dials)
            if missing:
                raise BindingError(f"{binding_file}: no dock for "
                                   + ", ".join(d.text() for d in missing))
        else:
            order = figures or list(setup.order)
            unknown = sorted(set(order) - {d.figure for d in dials})
            if unknown:
                raise BindingError(f"argument --figures: {', '.join(unknown)} not in this game "
                                   f"(its figures: {', '.join(sorted({d.figure for d in dials}))})")
            try:
                binding = auto_bind(dials, docks, order)
            except BindingError as e:
                need = next((n for n in range(docks + 1, 17) if _fits(dials, n)), None)
                raise BindingError(f"argument --docks: {docks} docks are too few, this game "
                                   f"needs {need} ({e})") from e
    except BindingError as e:
        raise TableError(str(e), 2) from e
    tracker = Tracker(setup.game, binding, dice, header=setup.header, timing=timing)
    return Table(setup, tracker, dice)


def check_before_start(kind: str, docks: int, binding_file: Path | None = None,
                       figures: list[str] | None = None, own: OwnFiles | None = None,
                       given: Sequence[str] | None = None) -> None:
    """Refuse bad --seats (``given``) / --figures / --docks-file before any tray starts
    (exit 2)."""
    table = new_table(kind, SeededDice(0), 0, 1, docks, binding_file, figures, own=own)
    seats = table.setup.game.seats()
    if given is not None and len(given) != len(seats):
        raise TableError(f"argument --seats: this game has {len(seats)} seats "
                         f"({', '.join(seats)}), {len(given)} given", 2)


def _fits(dials: Any, docks: int) -> bool:
    try:
        auto_bind(dials, docks)
    except BindingError:
        return False
    return True


class GameLogPlace(Protocol):
    """What :func:`log_path` reads (``--log`` and the data directory): a command's parsed
    arguments, or any object with these two."""

    @property
    def game_log(self) -> str | Path | None: ...

    @property
    def data_dir(self) -> str | Path: ...


def log_path(args: GameLogPlace, kind: str, origin: str) -> Path:
    """Where the game's log goes: ``--log``, else ``games/`` in the data directory."""
    if args.game_log is not None:
        return Path(args.game_log).expanduser()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(args.data_dir) / "games" / f"{origin}-{kind}-{stamp}.log"


def write_log(path: Path, text: str) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise TableError(f"argument --log: cannot write {path}: {e.strerror or e}", 2) from e
    return path
