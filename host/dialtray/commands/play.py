"""`dialtray play airaction|aces`: a real game on the tray (or the virtual tray, ``--sim``), with
the click tracker confirming every dial and a live terminal view.

People type their decisions in the notation's words (``plan A1 "Tight Turn" left``,
``shoot A1 front B2``); the view shows the legal ones. Dials are turned on the tray; where the
rules let a player decide by turning a dial (Air Action's throttle and first-turn speed), turning
it *is* the decision. Bots take the seats named ``bot`` and turn their own dials (on the virtual
tray; on a real tray the view asks a person to turn them). The game log is written at the end
(or on ``quit``), and ``dialtray replay`` re-runs it.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any

from dialrig import config
from rich.console import Console
from rich.live import Live

from dialtray.builder.calibration_check import warn_if_different
from dialtray.commands import _camera_play as camera
from dialtray.commands import _common
from dialtray.commands import _playfasa as play_fasa
from dialtray.commands._args import figures_arg, float_range, int_range, seats_arg
from dialtray.commands._common import MAX_DOCKS, CommandError, require_sim, resolve_port
from dialtray.commands._event import (
    add_event_arguments,
    open_event,
    paired_setup,
    record_extra,
    stop_event,
    wait_assignment,
)
from dialtray.commands._playview import plain_lines, render, you_may_type
from dialtray.commands._store import (
    CommandTable,
    Resuming,
    add_db,
    game_number,
    pick_resume,
    resumed_table,
    resync,
    sim_tray_for,
)
from dialtray.commands._table import (
    Table,
    add_game_arguments,
    check_before_start,
    log_path,
    make_dice,
    new_table,
    write_log,
)
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.errors import DiceError, InvalidActionError
from dialtray.store.table import steady_gc
from dialtray.table import Over
from dialtray.table import Table as GameTable
from dialtray.table.games import GAMES, setup_of
from dialtray.table.narrate import plain
from dialtray.tracker import TableDice, Timing

EXAMPLES = """examples:
  dialtray play airaction --sim                      # you (P1) against a bot, virtual tray
  dialtray play aces --sim --seats bot,bot           # watch two bots
  dialtray play skyace --sim                         # Sky Ace: cards, LIFE on the LED dice
  dialtray play fasa --sim --plots open --pace 0     # FASA through the table, bots at once
  dialtray play aces --sim --seats human,human       # hot-seat
  dialtray play airaction --port /dev/ttyACM0 --seats human,human --docks-file docks.txt
  dialtray play airaction --sim --figures B1,B2,B3,A1,A2,A3 --dice seeded
  dialtray play airaction --sim --camera virtual   # the virtual camera confirms each click
  dialtray play aces --port /dev/ttyACM0 --camera 0  # a webcam over the tray confirms them
  dialtray play --resume --port /dev/ttyACM0         # the host died: carry the game on
  dialtray play --resume 12 --seats human,bot        # stored game 12 (see dialtray games)
  dialtray play airaction --event mqtt://hub.local/spring --creds t01.json --seats human,human
                                 # a table of an event: its assignment, the round's clock, the hub

at the prompt:
  deploy P1 / speed A1 5 / throttle A1 -1 / plan A1 "Tight Turn" left / shoot A1 front B2
  dispute B1 rear arc      settle an argument with one die (AA-M84: 1-3 no, 4-6 yes)
  legal / more             the decisions you may type now, a page at a time
  wait                     the table does not take the bookkeeping step it offers (moved A1)
  turn 0 speed -4          (--sim) turn dock 0's speed dial 4 clicks counter-clockwise
  press 3500               (--sim) hold the roll button 3.5 s: at an event, calls the judge
  judge NOTE               (--event) call the judge to this table, with a note
  quit                     stop; the log so far is written
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play a game on the tray with the click tracker",
                       description=__doc__, epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", choices=GAMES,
                   help="which rules (not with --resume: the stored game says)")
    p.add_argument("--resume", nargs="?", const=0, type=game_number, metavar="GAME",
                   help="carry on a stored game after a crash or a closed laptop (default: "
                        "the latest running one): rebuilt from the store, the tray asked for "
                        "its dials, every dial moved meanwhile flagged")
    p.add_argument("--sim", action="store_true", help="on the virtual tray (no hardware)")
    _common.add_rp2040_flag(p)  # with --sim: the firmware on an emulated Pico (issue 29)
    p.add_argument("--port", help="the tray's serial port (default: the one tray on USB)")
    p.add_argument("--seats", type=seats_arg, default=["human", "bot"],
                   help="human or bot for each seat, in seating order (default human,bot)")
    p.add_argument("--figures", type=figures_arg,
                   help="figure ids in dock order (default: seating order)")
    p.add_argument("--docks-file", type=Path, metavar="FILE",
                   help="a dock-to-figure file ('dock 0: A1' per line) instead of --figures")
    p.add_argument("--docks", type=int_range(2, MAX_DOCKS), default=config.DEFAULT_DOCKS,
                   help=f"docks on the tray, 2..{MAX_DOCKS} (default %(default)s)")
    p.add_argument("--pace", type=float_range(0.0, 30.0), metavar="S",
                   help="seconds a bot waits before each decision, so a person can follow "
                        "(0: at once; default 1 with a person at the table, 0.25 for bots "
                        "only)")
    p.add_argument("--plain", action="store_true",
                   help="print the view after each change instead of a live screen")
    add_game_arguments(p)
    add_db(p)  # the game is stored (issue 12)
    add_event_arguments(p)  # a table of a tournament (issue 17)
    play_fasa.add_arguments(p)  # `play fasa`: the FASA 1998 flow (issue 15)
    camera.add_arguments(p)  # a camera confirms every settled click (issue 33)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _common.rp2040_needs_sim(args)
    if args.game == play_fasa.KIND and (args.plots == "sealed" or args.resume is not None
                                        or not (args.sim or args.port)):
        # plots typed hidden, sealed, revealed together (FS-M33), or no tray: its own flow;
        # open plots at a tray go through the table like every other game
        return play_fasa.run(args)
    if args.sim and args.port:
        raise CommandError("argument --port: not with --sim (the virtual tray has its own)", 2)
    if args.docks_file is not None and args.figures:
        raise CommandError("argument --figures: not with --docks-file", 2)
    res: Resuming | None = None
    if args.resume is not None:
        if args.sim:
            require_sim(args.rp2040)
        if args.docks_file is not None or args.figures:
            raise CommandError("argument --resume: the stored game has its docks already (no "
                               "--figures or --docks-file)", 2)
        res = pick_resume(args, GAMES)
        if args.game is not None and args.game != res.kind:
            raise CommandError(f"argument game: game {res.gid} is {res.kind}, not "
                               f"{args.game}", 2)
        args.game = res.kind
        ev = open_event(args)  # at an event: the pairing and clock come again from the hub
        try:
            return run_resumed(args, res, ev)
        finally:
            res.store.close()
            stop_event(ev)
    if args.game is None:
        raise CommandError("argument game: say which rules (airaction, aces, fasa or skyace), or "
                           "--resume a stored game", 2)
    check_before_start(args, args.game)
    camera.check(args)
    ev = open_event(args)
    body = wait_assignment(ev, args.wait) if ev is not None else None
    vtray: Any = None
    if args.sim:
        vtray = _common.start_virtual(args, config.default_config(args.docks), seed=args.seed)
        port = vtray.port
    else:
        port = resolve_port(args.port)
    try:
        session = TraySession(port, name="play", ack_policy="manual")  # ack when stored
        with session:
            try:
                session.wait_synced(_common.sync_timeout(args))
            except TimeoutError as e:
                raise CommandError(f"the tray did not answer on {port}: {e}") from e
            if not args.sim:  # the virtual tray starts with the defaults every time
                say_calibration(session, args.data_dir)
            if args.sim:
                session.set_timing(config.DEFAULT_SETTLE_MS, config.DEFAULT_SAMPLE_MS)
            inbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
            threading.Thread(target=read_lines, args=(inbox,), daemon=True,
                             name="play-input").start()
            source, fair = make_dice(args.dice, session, args.seed, TypedDice(inbox))
            table = new_table(args.game, source, args.seed, args.turns, args.docks,
                              args.docks_file, args.figures, timing=Timing(), make=None if
                              body is None else lambda d: paired_setup(args.game, body, d,
                                                                       args.seed, args.turns))
            table.fair = fair
            if ev is not None:
                table.extra = record_extra(ev, body, table.setup.game.seats())
            return Game(args, table, session, vtray, inbox, event=ev).run()
    finally:
        if vtray is not None:
            vtray.close()
        stop_event(ev)


def run_resumed(args: argparse.Namespace, res: Resuming, ev: Any = None) -> int:
    """``--resume``: the stored game rebuilt and subscribed to the tray *before* the session
    starts (resuming from the stored point: the tray replays what was never stored)."""
    vtray = sim_tray_for(res, args.docks, args.rp2040) if args.sim else None
    try:
        return resume_on(args, res, vtray.port if vtray is not None else
                         resolve_port(args.port), vtray, ev)
    finally:
        if vtray is not None:
            vtray.close()


def resume_on(args: argparse.Namespace, res: Resuming, port: str, vtray: Any,
              ev: Any = None) -> int:
    """The stored game carried on on the tray at ``port`` (``vtray``: the virtual one)."""
    session = TraySession(port, name="play", ack_policy="manual", **res.session_args)
    dice = TableDice(SeededDice(args.seed))  # its source is chosen once the tray answers
    tracker, tracked = resumed_table(res, dice, session)
    seats = tracker.game.seats()
    if len(args.seats) != len(seats):
        raise CommandError(f"argument --seats: this game has {len(seats)} seats "
                           f"({', '.join(seats)}), {len(args.seats)} given", 2)
    if res.kind == "airaction" and "bot" in args.seats:
        raise CommandError("argument --seats: bots cannot carry on a resumed Air Action game "
                           "(their table of plane positions is not stored); resume it with "
                           "--seats human,human", 2)
    turns = int(dict(tracker.header).get("Turn-limit", args.turns * 10)) // 10 \
        if res.kind == "aces" else args.turns
    table = Table(setup_of(res.kind, tracker.game, tracker.header, args.seed, turns), tracker,
                  dice)
    with session:
        try:
            session.wait_synced(_common.sync_timeout(args))
        except TimeoutError as e:
            raise CommandError(f"the tray did not answer on {port}: {e}") from e
        if vtray is None:
            say_calibration(session, args.data_dir)
        else:
            session.set_timing(config.DEFAULT_SETTLE_MS, config.DEFAULT_SAMPLE_MS)
        inbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        threading.Thread(target=read_lines, args=(inbox,), daemon=True,
                         name="play-input").start()
        dice.inner, table.fair = make_dice(args.dice, session, args.seed, TypedDice(inbox))
        return Game(args, table, session, vtray, inbox, tracked=tracked, resumed=res.gid,
                    event=ev).run()


def say_calibration(session: TraySession, data_dir: Path) -> None:
    """On connect: one line on stderr when the tray's calibration is not this computer's."""
    warning = warn_if_different(session, data_dir)
    if warning:
        print(warning, file=sys.stderr, flush=True)


def read_lines(inbox: queue.SimpleQueue[str | None]) -> None:
    """The terminal's lines, for the play loop (and typed dice); None when input ends."""
    for line in sys.stdin:
        inbox.put(line.rstrip("\n"))
    inbox.put(None)


class TypedDice:
    """``--dice typed``: the engine asks for real dice; the next line typed is their faces (the
    play loop's input thread owns the terminal, so the faces come through its queue)."""

    def __init__(self, inbox: queue.SimpleQueue[str | None]) -> None:
        self.inbox = inbox
        self.console = Console(stderr=True)

    def __call__(self, count: int, purpose: str) -> list[int]:
        self.console.print(f"[bold magenta]roll {count} d6 for {purpose}, then type the "
                           "faces[/]")
        line = self.inbox.get()
        if line is None:
            raise DiceError(f"{purpose}: input ended while dice were asked for")
        try:
            return [int(tok) for tok in line.replace(",", " ").split()]
        except ValueError:
            self.console.print("faces are numbers 1-6, separated by spaces")
            return []


class Game:
    """The terminal front end of a ``dialtray.table.Table``: typed lines in, the view out."""

    def __init__(self, args: argparse.Namespace, table: Table, session: TraySession,
                 vtray: Any, inbox: queue.SimpleQueue[str | None], *,
                 tracked: CommandTable | None = None, resumed: int | None = None,
                 event: Any = None) -> None:
        self.args = args
        self.built = table
        self.t = table.tracker
        self.vtray = vtray
        self.resumed = resumed
        if tracked is None:
            tracked = CommandTable.open(args, self.t, session, "play", extra=table.extra)
        self.tracked = tracked
        self.event = event  # an event's table (issue 17): the hub follows this game
        if event is not None:  # its records (those stored before too), the roll button
            event.track(tracked.recording.recorder.gid)
            event.watch(session)
        tracked.recording.on_ruling = self.say  # a judge's ruling: applied, shown
        hold = event.holds_play if event is not None else None  # time's up: the table ends it
        hand: camera.Hand | None = None
        if vtray is not None:
            from dialtray.virtual.hands import VirtualHands

            hand = VirtualHands(vtray).turn
        self.camera, hand = camera.attach(args, self.t, session, hand)  # --camera (issue 33)
        pace = args.pace if args.pace is not None else 1.0 if "human" in args.seats else 0.25
        self.table = GameTable(table.setup, args.seats, tracked, hand=hand, pace=pace,
                               hold=hold)
        self.t = tracked.tracker  # the recording tracker: decisions are stored
        self.humans = self.table.humans
        self.messages: list[str] = []
        self.inbox = inbox
        self.console = Console()
        self.quit = False
        self.page = 0
        self.plain = bool(args.plain or not self.console.is_terminal)
        self.told = 0  # narration lines printed (--plain)
        if self.plain:
            self.table.on_narrate = self._print_narration

    # ---- input ----------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.messages.append(text)
        del self.messages[:-8]
        if self.plain:
            print(text, flush=True)

    def _print_narration(self, line: str) -> None:
        print(line, flush=True)

    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        if words[0] in ("quit", "exit"):
            self.quit = True
            return
        if words[0] in ("legal", "more"):
            self.page = 0 if words[0] == "legal" else self.page + 1
            if self.plain:
                for text in you_may_type(self.table.view(), 10_000, 0):
                    print(text, flush=True)
            return
        if words[0] == "wait":
            self.say(self.table.object())
            return
        if words[0] == "dispute":
            self.table.dispute(" ".join(words[1:]) or "?")
            return
        if words[0] == "judge" and self.event is not None:  # at an event: to the hub's queue
            self.event.call_judge(" ".join(words[1:]) or "a player calls the judge")
            return
        if words[0] == "help":
            self.say("type a decision in notation words (the ones offered); 'legal' lists "
                     "them, 'more' pages on, 'wait' stops the table's bookkeeping" +
                     (", sim: " + ", ".join(sorted(self.sim_commands())) if self.vtray else ""))
            return
        if self.vtray is not None and words[0] in self.sim_commands() and \
                not self._parses(line):
            from dialtray.virtual.script import ScriptError, run_line

            camera.film_typed(self.camera, words)
            try:
                self.say(f"sim: {run_line(self.vtray, line) or 'done'}")
            except ScriptError as e:
                self.say(f"sim: {e}")
            return
        self.page = 0
        r = self.table.decide(line)
        if not r.ok:
            self.say("refused: " + plain(r.message))

    def _parses(self, line: str) -> bool:
        try:
            self.t.game.parse_action(line)
        except InvalidActionError:
            return False
        return True

    @staticmethod
    def sim_commands() -> set[str]:
        from dialtray.virtual.script import COMMANDS

        return set(COMMANDS)

    # ---- the loop ---------------------------------------------------------------------------

    def view(self) -> Any:
        size = self.console.size
        return render(self.table.view(), humans=self.humans, narration=self.table.narration,
                      messages=self.messages[-3:], sim=self.vtray is not None,
                      width=size.width, height=size.height, page=self.page,
                      asks=self.table.asks)

    def plain_view(self) -> str:
        return "\n".join(plain_lines(self.table.view(), self.humans, self.page))

    def step(self) -> bool:
        """One round of the loop; True when something may have changed on screen."""
        typed = False
        try:
            while True:
                line = self.inbox.get_nowait()
                if line is None:  # input ended: a game with people stops, bots play on
                    self.quit = self.quit or bool(self.humans)
                    break
                self.handle(line)
                typed = True
        except queue.Empty:
            pass
        changed = self.table.pump(0.03)
        if self.camera is not None:  # the camera's answers: in the game, on the screen
            for w in self.camera.pump(self.t):
                self.say(camera.shown(w))
                changed = True
        if self.event is not None:  # live state, judge calls, the round's clock
            self.event.step(self.t, self.say)
        return changed or typed

    def run(self) -> int:
        if self.resumed is None:
            self.table.start()
        else:
            self.table.narration.append(f"resumed stored game {self.resumed}")
            moved = resync(self.tracked)
            self.say(f"resumed stored game {self.resumed} at action "
                     f"{len(self.t.game.history)}; " + (
                         f"moved while the host was away: {', '.join(moved)} (flagged: put "
                         "them back)" if moved else "no dial moved while the host was away"))
        steady_gc()  # setup done: from here the host stores event by event (store.table)
        if self.plain:
            shown = self.plain_view()
            print(shown, flush=True)
            while not self.quit and not self.table.over:
                if self.step():
                    again = self.plain_view()
                    if again != shown:
                        print(again, flush=True)
                        shown = again
            return self.finish()
        last = -1.0
        with Live(self.view(), console=self.console, auto_refresh=False,
                  transient=False) as live:
            while not self.quit and not self.table.over:
                changed = self.step()
                now = time.monotonic()
                if changed or now - last > 0.5:
                    live.update(self.view(), refresh=True)
                    last = now
            live.update(self.view(), refresh=True)
        return self.finish()

    def finish(self) -> int:
        t = self.t
        code = 0
        over = self.table.view().over
        if over is not None:
            self.console.print(scores_table(over, t.game.kind))
        else:
            print("stopped before the end of the game (it stays stored: dialtray play --resume, "
                  "or dialtray games close N --reason TEXT)")
        if self.built.fair is not None:
            verdict = self.built.fair.reveal()
            print(str(verdict))
            t.lines.append(f"# fair dice: {verdict}")
            code = 0 if verdict.ok else 1
        if self.camera is not None:  # the last answers, then the camera is let go
            self.camera.witness.wait(self.camera.witness.idle, 10)
            for w in self.camera.pump(self.t):
                self.say(camera.shown(w))
            self.camera.close()
        self.tracked.pump(0.5)  # the fair dice seed's events are stored with the game
        self.tracked.close()
        path = write_log(log_path(self.args, t.game.kind, "play"),
                         t.log_text(f"dialtray play {t.game.kind}"))
        print(f"game log: {path}  (re-run it: dialtray replay {path})", flush=True)
        print(self.tracked.stored_as(), flush=True)
        return code


def scores_table(over: Over, kind: str) -> Any:
    """The winner and the final scores as a table (never the engine's dict)."""
    from rich.table import Table as RichTable

    unit = {"fasa": "XP", "skyace": "VP"}.get(kind, "VP")
    tab = RichTable(title=f"game over: {over.termination}", title_justify="left")
    for col in ("seat", "played by", unit, ""):
        tab.add_column(col)
    for row in over.scores:
        tab.add_row(*row)
    tab.caption = f"winner: {over.winner}" if over.winner else "no winner: a draw"
    return tab
