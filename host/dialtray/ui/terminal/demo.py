"""`dialtray demo` at the terminal: a whole game on the virtual tray, bots in every seat,
narrated as it is played (its arguments: ``commands.demo``).

The bots play through the same virtual dials a person would turn: every click travels through
the real firmware under MicroPython, the USB link and the click tracker, which confirms it
against the rules. On purpose, the bots make the mistakes people make, and the tracker catches
each and says how to put it right; the bots then do. It ends with the victory table, the fair
dice verdict and a log `dialtray replay` re-runs.
"""

from __future__ import annotations

import argparse
import time

from dialtray.errors import UserError
from dialtray.link.session import TraySession
from dialtray.table.games import TITLES
from dialtray.table.narrate import plain
from dialtray.table.seeds import tray_seed
from dialtray.table.start import (
    Table,
    log_path,
    make_dice,
    new_table,
    wait_for_tray,
    write_log,
)
from dialtray.table.stored import CommandTable, StorePlace, carry_on
from dialtray.tracker import PLAY, Timing, Tracker
from dialtray.tracker.dice import Roll
from dialtray.tracker.hands import Hands, Mistakes
from dialtray.tracker.runner import Stuck, play_out
from dialtray.ui.terminal.fit import fit


def say(line: str) -> None:
    """A line of the narration, fitted to the terminal between words (``fit``)."""
    print(fit(line), flush=True)


TIMING = Timing(judge_s=0.25, grace_s=0.5)  # bots pause briefly; a person gets the default
SETTLE_MS, SAMPLE_MS = 5, 2  # the tray's settle window for the bots' quick hands


class Narrator:
    """Prints what happens at the table as the tracker writes it down (its log lines)."""

    def __init__(self, tracker: Tracker, clicks: bool, pause: float) -> None:
        self.t = tracker
        self.clicks = clicks
        self.pause = pause
        self.done = 0

    def __call__(self, _tracker: Tracker) -> None:
        lines = self.t.lines
        while self.done < len(lines):
            line = lines[self.done]
            self.done += 1
            text = str(line)
            if text.startswith("# click") and not self.clicks:
                continue
            if text.startswith("# ("):
                continue  # who typed it: bots, all of them
            if not text.startswith("#"):  # an action and the reports of its events
                first, *reports = text.splitlines()
                say(f"  > {first}")
                for r in reports:
                    r = plain(r[1:].strip())
                    if not r.startswith("phase:") and not r.endswith((" to shoot", " to move")):
                        say(f"        {r}")
                continue
            if text.startswith("# flag") or text.startswith("# judge") or \
                    text.startswith("# refused"):
                say(f"  ! {text[2:]}")
                time.sleep(self.pause)
            else:
                say(f"    {text[2:]}")

    def say(self, text: str) -> None:
        say(f"    {text}")
        time.sleep(self.pause)


def run(args: argparse.Namespace) -> int:
    """The bots' game on the virtual tray, narrated; ``commands.demo`` has checked the
    arguments and that the virtual tray can run."""
    from dialtray.virtual.factory import encoders_text, tray_config, virtual_tray
    from dialtray.virtual.hands import VirtualHands

    started = time.monotonic()
    pause = 0.0 if args.fast else 0.4
    where = "on an emulated Pico" if args.rp2040 else "under MicroPython"
    say(f"dialtray demo: a game of {TITLES[args.game]} on the virtual tray (the real "
        f"firmware {where}), bots in every seat")
    cfg = tray_config(args.docks, getattr(args, "quadrature", False))
    if sensors := encoders_text(cfg):  # --quadrature: the bots confirm their encoder dials
        say(f"the tray: {sensors}")  # by eye
    with virtual_tray(cfg, rp2040=args.rp2040, seed=tray_seed(args.seed)) as vtray:
        vtray.turn(0, "combat", 2)  # a player left a dial two clicks on: the start check sees it
        session = TraySession(vtray.port, name="demo", ack_policy="manual")  # ack when stored
        with session:
            wait_for_tray(session, vtray.port, args.rp2040, "the virtual tray")
            session.set_timing(SETTLE_MS, SAMPLE_MS)
            source, fair = make_dice(args.dice, session, args.seed)
            if fair is not None and fair.commitment is not None:
                say(f"the tray committed to its dice seed: sha256 {fair.commitment.hex()}")
            table = new_table(args.game, source, args.seed, args.turns, args.docks,
                              timing=TIMING, on_roll=lambda r: show_roll(r, pause))
            table.fair = fair
            code = play(args, table, session, VirtualHands(vtray).turn, pause)
    print(f"(the demo took {time.monotonic() - started:.0f} s)")
    return code


def show_roll(r: Roll, pause: float) -> None:
    say(f"    dice on the tray's LEDs — {r.purpose}: {' '.join(map(str, r.faces))}")


def play(args: argparse.Namespace, table: Table, session: TraySession, turn: object,
         pause: float) -> int:
    t = table.tracker
    narrator = Narrator(t, args.clicks, pause)
    t.on_change = narrator
    tracked = CommandTable.open(StorePlace.of(args), t, session, "demo")
    bound = ", ".join(f"{s.text()}={d.figure}"
                      + ("" if d.kind in ("combat", "speed") else f" {d.kind}")
                      for s, d in t.binding.items() if s.dial == 0)
    say("binding: " + (bound or f"none ({TITLES[args.game]} has no dial on the tray's "
                                "docks; the tray rolls the dice)"))
    tracked.sync()
    if t.phase != PLAY:
        say("start check — the tray waits for: " + "; ".join(t.waiting_for()))
    hands = Hands(t, table.setup.brain, Mistakes(), say=narrator.say)
    try:
        play_out(tracked, hands, turn, timeout=300, step_timeout=30)  # type: ignore[arg-type]
        if table.fair is not None:
            table.fair.reveal()  # (kept for below) its seed's events are stored with the game
            tracked.pump(0.5)
    except Stuck as e:
        raise UserError(f"the demo got stuck: {e}") from e
    except KeyboardInterrupt:  # Ctrl-C: what becomes of the half-played game, said
        gid = tracked.recording.recorder.gid
        resume, close = carry_on(gid, sim=True)
        print(f"\ndemo stopped: its game stays stored as game {gid}, not over ({resume} "
              f"carries it on; {close} closes it)", flush=True)
        raise
    finally:
        tracked.close()
    narrator(t)
    print()
    print(t.game.report())
    caught = [f for f in t.flags if f.resolved is not None]
    if not t.slots:
        print(f"\n{TITLES[args.game]} has no dial on the tray's docks: nothing to track")
    else:
        say(f"\nthe tracker confirmed {len(t.confirmed)} dial changes and caught "
            f"{len(caught)} mistakes, every one put right: "
            + ", ".join(sorted({f.kind for f in caught})))
    code = 0
    if table.fair is not None:
        verdict = table.fair.reveal()
        print(str(verdict))
        t.lines.append(f"# fair dice: {verdict}")
        code = 0 if verdict.ok else 1
    path = write_log(log_path(args, t.game.kind, "demo"), t.log_text(
        f"dialtray demo --game {args.game} --seed {args.seed}: a bot game on the virtual tray"))
    print(f"game log: {path}  (re-run it: dialtray replay {path})")
    print(tracked.stored_as())
    return code
