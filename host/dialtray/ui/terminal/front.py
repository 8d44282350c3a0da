"""The terminal front end of a ``dialtray.table.Table`` (`dialtray play`): typed lines in, the
view out — a live screen fitted to the terminal (``view.render``) or, with ``--plain`` or no
terminal, the view printed line by line each time it changes. It draws and reads; the table
does the game (issue 30).
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.live import Live

from dialtray.link.session import TraySession
from dialtray.rules.core.errors import DiceError, InvalidActionError
from dialtray.store.db import StoreError
from dialtray.store.table import steady_gc
from dialtray.table import Over
from dialtray.table import Table as GameTable
from dialtray.table.errors import TableError
from dialtray.table.narrate import plain
from dialtray.table.start import Table, log_path, write_log
from dialtray.table.stored import (
    CommandTable,
    StorePlace,
    carry_on,
    resumed_words,
    resync,
)
from dialtray.tracker.eye import READER_WORDS
from dialtray.ui import camera
from dialtray.ui.terminal.keyline import KeyLine, can_edit, no_echo, stdin_fd
from dialtray.ui.terminal.view import plain_lines, render, you_may_type
from dialtray.ui.terminate import exit_status, how


def read_lines(inbox: queue.SimpleQueue[str | None]) -> None:
    """The terminal's lines, for the play loop (and typed dice); None when input ends."""
    for line in sys.stdin:
        inbox.put(line.rstrip("\n"))
    inbox.put(None)


def start_input(args: argparse.Namespace,
                inbox: queue.SimpleQueue[str | None]) -> KeyLine | None:
    """The play loop's input thread. On a live screen at a terminal the keys are read one by one
    and the screen itself shows the line being typed (``keyline``: the terminal's echo was wiped
    by every redraw); otherwise whole lines as they come. Returns the line being typed, if any."""
    fd = stdin_fd()
    keys = KeyLine(inbox) if not args.plain and Console().is_terminal and can_edit(fd) else None
    reader, on = (keys.read, fd) if keys is not None else (read_lines, inbox)
    threading.Thread(target=reader, args=(on,), daemon=True, name="play-input").start()
    return keys


class TypedDice:
    """``--dice typed``: the engine asks for real dice; the next line typed is their faces (the
    play loop's input thread owns the terminal, so the faces come through its queue). On the
    live screen (``show`` set by ``TerminalTable``) the ask and the faces being typed are drawn
    by the screen while the engine waits: it does not redraw itself then, and the terminal no
    longer echoes (``keyline``)."""

    def __init__(self, inbox: queue.SimpleQueue[str | None]) -> None:
        self.inbox = inbox
        self.console = Console(stderr=True)
        self.show: Callable[[str], None] | None = None
        self.note = ""  # why the last faces were not taken, said with the next ask

    def __call__(self, count: int, purpose: str) -> list[int]:
        ask = f"{self.note}roll {count} d6 for {purpose}, then type the faces"
        self.note = ""
        if self.show is None:
            self.console.print(f"[bold magenta]{ask}[/]")
            line = self.inbox.get()
        else:
            line = self._shown(ask, self.show)
        if line is None:
            raise DiceError(f"{purpose}: input ended while dice were asked for")
        try:
            return [int(tok) for tok in line.replace(",", " ").split()]
        except ValueError:
            if self.show is None:
                self.console.print("faces are numbers 1-6, separated by spaces")
            self.note = "faces are 1-6: "
            return []

    def _shown(self, ask: str, show: Callable[[str], None]) -> str | None:
        while True:
            show(ask)
            try:
                return self.inbox.get(timeout=0.1)
            except queue.Empty:
                continue


class TerminalTable:
    """The terminal front end of a ``dialtray.table.Table``: typed lines in, the view out."""

    def __init__(self, args: argparse.Namespace, table: Table, session: TraySession,
                 vtray: Any, inbox: queue.SimpleQueue[str | None], *,
                 tracked: CommandTable | None = None, resumed: int | None = None,
                 event: Any = None, keys: KeyLine | None = None,
                 typed: TypedDice | None = None) -> None:
        self.args = args
        self.typed = typed  # --dice typed: its ask drawn on the live screen
        self.built = table
        self.t = table.tracker
        self.vtray = vtray
        self.resumed = resumed
        if tracked is None:
            tracked = CommandTable.open(StorePlace.of(args), self.t, session, "play",
                                        extra=table.extra)
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
        self.keys = None if self.plain else keys  # the line being typed, shown on the screen
        self.typed_version = -1
        self._asked: tuple[str, int] = ("", -1)  # the typed dice's ask last drawn, its keys
        self._asked_at = 0.0
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
        if words[0] == "eye":
            asked = eye_words(words[1:])
            if isinstance(asked, str):
                self.say(f"refused: {asked}")
            else:
                self.table.confirm_eye(*asked)  # (narrated: confirmed, or refused and why)
            return
        if words[0] == "help":
            self.say("type a decision in notation words (the ones offered); 'legal' lists "
                     "them, 'more' pages on, 'wait' stops the table's bookkeeping, "
                     "'eye DOCK combat|speed [CLICK]' confirms by eye a dial whose encoder "
                     "lost track (default: the click the rules put it at)" +
                     (", sim: " + ", ".join(sorted(self.sim_commands())) if self.vtray else ""))
            return
        if self.vtray is None and not self._parses(line):  # a camera-only virtual tray
            said = camera.typed_turn(self.camera, words)
            if said is not None:
                self.say(f"sim: {said}")
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

    def view(self, ask: str = "") -> Any:
        size = self.console.size
        return render(self.table.view(), humans=self.humans, narration=self.table.narration,
                      messages=self.messages[-3:], sim=self.vtray is not None,
                      width=size.width, height=size.height, page=self.page,
                      asks=[*self.table.asks, ask] if ask else self.table.asks,
                      typing=None if self.keys is None else self.keys.text)

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
        if self.keys is not None and self.keys.version != self.typed_version:
            self.typed_version = self.keys.version  # a key typed: shown at once
            typed = True
        changed = self.table.pump(0.03)
        if self.camera is not None:  # the camera's answers: in the game, on the screen
            for w in self.camera.pump(self.t):
                self.say(camera.shown(w))
                changed = True
        if self.event is not None:  # live state, judge calls, the round's clock
            self.event.step(self.table, self.say)
        return changed or typed

    def run(self) -> int:
        if self.resumed is None:
            self.table.start()
        else:
            self.table.narration.append(f"resumed stored game {self.resumed}")
            moved = resync(self.tracked)
            self.say(f"resumed stored game {self.resumed} at action "
                     f"{len(self.t.game.history)}; {resumed_words(self.tracked, moved)}")
        steady_gc()  # setup done: from here the host stores event by event (store.table)
        try:
            self._play_plain() if self.plain else self._play_live()
        except KeyboardInterrupt as e:  # Ctrl-C (or SIGTERM: ui.terminate) stops the game as
            print(f"\ninterrupted ({how(e)})", flush=True)  # 'quit' does: stored, said how to
            return self.finish() or exit_status(e)  # carry on, its log written
        except TableError as e:  # the store failed mid-game (a full disk): what is kept
            if not isinstance(e.__cause__, StoreError):  # (CommandTable's, from the store's)
                raise
            rec = self.tracked.recording.recorder
            raise TableError(f"{e}; the game is stored up to there: once the store can be "
                             f"written again, `dialtray play --resume {rec.gid}` carries it on",
                             e.status) from e
        return self.finish()

    def _play_plain(self) -> None:
        shown = self.plain_view()
        print(shown, flush=True)
        while not self.quit and not self.table.over:
            if self.step():
                again = self.plain_view()
                if again != shown:
                    print(again, flush=True)
                    shown = again

    def _play_live(self) -> None:
        last = -1.0
        echo = no_echo(stdin_fd()) if self.keys is not None else contextlib.nullcontext()
        with echo as cbreak, Live(self.view(), console=self.console, auto_refresh=False,
                                  transient=False) as live:
            if self.typed is not None:  # the engine waits for typed faces: the screen shows
                self.typed.show = lambda ask: self._show_ask(live, ask)  # the ask
            while not self.quit and not self.table.over:
                changed = self.step()
                now = time.monotonic()
                if changed or now - last > 0.5:
                    if cbreak is not None and cbreak.kept():  # back from Ctrl-Z: the shell's
                        self.console.clear()  # lines cleared, the screen drawn whole
                    live.update(self.view(), refresh=True)
                    last = now
            live.update(self.view(), refresh=True)
        if self.typed is not None:
            self.typed.show = None  # the live screen is gone: asked on a line of its own

    def _show_ask(self, live: Live, ask: str) -> None:
        """The screen while the engine waits for typed faces (``TypedDice`` calls it ten times
        a second): redrawn when a key is typed or the ask changes, else twice a second as the
        play loop's own redraw — nothing else moves while the engine waits."""
        key = (ask, -1 if self.keys is None else self.keys.version)
        now = time.monotonic()
        if key != self._asked or now - self._asked_at > 0.5:
            self._asked, self._asked_at = key, now
            live.update(self.view(ask), refresh=True)

    def finish(self) -> int:
        t = self.t
        code = 0
        over = self.table.view().over
        if over is not None:
            self.console.print(scores_table(over, t.game.kind))
        else:
            gid = self.tracked.recording.recorder.gid
            resume, close = carry_on(gid)
            print(f"stopped before the end of the game (it stays stored as game {gid}: "
                  f"{resume}, or {close})")
        if self.built.fair is not None:
            verdict = self.built.fair.reveal()
            print(str(verdict))
            t.lines.append(f"# fair dice: {verdict}")
            code = 0 if verdict.ok else 1
        if self.camera is not None:  # the last answers, then the camera is let go
            if not getattr(self.args, "no_encoders", False):  # (camera-only: nothing to
                self.camera.witness.wait(self.camera.witness.idle, 10)  # confirm is left)
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


def eye_words(words: list[str]) -> tuple[int, int, int | None] | str:
    """``eye DOCK [combat|speed] [CLICK]``'s words after ``eye``: (dock, reader, click or None),
    or what is wrong with them."""
    usage = "eye DOCK combat|speed [CLICK], e.g. `eye 2 combat` or `eye 2 speed 3`"
    if not words or not words[0].isdigit():
        return f"say which dock: {usage}"
    dock, reader, rest = int(words[0]), 0, words[1:]
    if rest and rest[0] in READER_WORDS:  # the words tracker.eye.command writes
        reader, rest = READER_WORDS.index(rest[0]), rest[1:]
    if len(rest) > 1 or (rest and not rest[0].lstrip("-").isdigit()):
        return f"{' '.join(rest)!r} is not a click: {usage}"
    return dock, reader, int(rest[0]) if rest else None


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
