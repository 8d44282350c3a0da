"""`dialtray play fasa`: the FASA 1998 board game at one terminal, dialtray as record-keeper and
referee, the tray as the table's dice tower and display (issue 15). The terminal front end of
the sealed-plot flow; its arguments are parsed and checked by ``commands._fasaargs``, what may
be typed at its prompt is ``fasa_examples``.

People play on the paper map; here they type their plots and shots in the notation
(docs/notation.md, "FASA"), hot-seat or against bots. With secret plots (the default, FS-M33)
each person types their plots with the terminal's echo off; the program seals them, shows the
others the SHA-256 digest, and reveals every seat's plots together once all have sealed. Every
d10 is rolled by the tray's firmware and shown on its LED panel (``--sim``: the virtual tray;
``--dice fair`` checks them against the tray's commitment at the end), or ``--dice seeded`` /
``--dice typed`` without a tray. The live state shows each plane's record sheet and the last
rolls with their TN and modifiers; ``--sheets DIR`` keeps every plane's record sheet as SVG
there, rewritten after every turn. The log is written at the end (or on ``quit``) and
``dialtray replay`` re-runs it. There are no dials, nothing is tracked; each action is stored
(``store.plain``) as it is played, so ``dialtray verify``/``export`` take FASA games too.
"""

from __future__ import annotations

import argparse
import copy
import logging
from collections import deque
from typing import Any

from rich.console import Console

from dialtray.errors import UserError
from dialtray.link.port import resolve_port
from dialtray.rules.core.errors import (
    DiceError,
    IllegalActionError,
    InvalidActionError,
)
from dialtray.rules.core.notation import format_action_line, format_faces, format_log
from dialtray.rules.fasa.actions import FasaAction, Fire, Rocket
from dialtray.rules.fasa.bots import GreedyBot
from dialtray.rules.fasa.game import FasaGame, start_events
from dialtray.rules.fasa.notation import DEFAULT_SIDES, KIND, header_of
from dialtray.store.db import StoreError
from dialtray.table.seeds import tray_seed
from dialtray.table.start import log_path, make_dice, wait_for_tray, write_log
from dialtray.table.stored import StorePlace, plain_table
from dialtray.tracker.dice import TableDice
from dialtray.ui.terminal.fasa_examples import EXAMPLES
from dialtray.ui.terminal.fasa_seat import (
    Quit,
    Secret,
    ask_faces,
    check_secret_plot,
    hidden_line,
    legal_plots,
    reveal,
    seal,
)
from dialtray.ui.terminal.fasa_view import event_lines, status, write_sheets
from dialtray.ui.terminal.fit import fitted
from dialtray.virtual.factory import start_virtual, tray_config

log = logging.getLogger(__name__)
MAX_LEGAL_SHOWN = 12


def run(args: argparse.Namespace) -> int:
    """The game at this terminal; ``commands._fasaargs.check_arguments`` has refused bad
    arguments already."""
    if args.sheets is not None:
        try:
            args.sheets.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"argument --sheets: cannot write {args.sheets}: "
                               f"{exc.strerror or exc}", 2) from None
    if args.dice in ("seeded", "typed"):
        source, _ = make_dice(args.dice, None, args.seed, ask_faces)
        return FasaPlay(args, source, None).run()
    vtray: Any = None
    if args.sim:
        vtray = start_virtual(tray_config(1), getattr(args, "rp2040", False),
                              seed=tray_seed(args.seed))
        port = vtray.port
    else:
        port = resolve_port(args.port)
    from dialtray.link.session import TraySession

    try:
        with TraySession(port, name="play-fasa") as session:
            wait_for_tray(session, port, getattr(args, "rp2040", False))
            source, fair = make_dice(args.dice, session, args.seed)
            return FasaPlay(args, source, fair).run()
    finally:
        if vtray is not None:
            vtray.close()


class FasaPlay:
    """The game at the terminal: bots, hidden plots, typed actions, the view, the log."""

    def __init__(self, args: argparse.Namespace, source: Any, fair: Any) -> None:
        self.args = args
        self.dice = TableDice(source)
        self.fair = fair
        own = getattr(args, "own", None)  # the owner's tables and sheets (issue 34)
        sealed = args.plots == "sealed"
        self.g = FasaGame(self.dice, own.fasa_events(args.turns, sealed) if own is not None
                          else start_events(args.map, DEFAULT_SIDES, args.turns, sealed=sealed))
        seats = self.g.seats()
        self.humans = [s for s, who in zip(seats, args.seats, strict=True) if who == "human"]
        self.bots = {s: GreedyBot(args.seed + i)
                     for i, (s, who) in enumerate(zip(seats, args.seats, strict=True))
                     if who == "bot"}
        self.secrets: dict[str, Secret] = {}
        self.lines: list[str] = []
        self.console = Console(markup=False, highlight=False, soft_wrap=True)
        self.shown: tuple[int, str, int] = (0, "", -1)  # (turn, phase, actions) last drawn
        self.sheets_turn = 0
        self.failed = False  # stopped by the dice (the tray), not by the players
        # issue 31: in the store
        self.stored = plain_table(StorePlace.of(args), self.g, header_of(self.g))
        self.rolls: deque[str] = deque(maxlen=6)  # the last d10 rolls, as shown when rolled

    # ---- output ---------------------------------------------------------------------------

    def say(self, text: str, style: str | None = None) -> None:
        """A line as it is; at a terminal wrapped at its width between words, continuation
        lines indented under their line (the terminal's own wrap cut words in half)."""
        if self.console.is_terminal:
            text = "\n".join(fitted(line, self.console.width) for line in text.split("\n"))
        self.console.print(text, style=style)

    def show(self) -> None:
        """The whole live state: turn, phase, seals, every plane's sheet, the last rolls."""
        st = self.g.state
        self.shown = (st.turn, st.phase, len(self.g.history))
        lines = status(self.g, self.humans)
        self.say(lines[0], "bold")
        for line in lines[1:]:
            self.say(line)
        if self.rolls:
            self.say("  last rolls:", "magenta")
            for line in self.rolls:
                self.say(f"    {line}", "magenta")

    def sheets(self, force: bool = False) -> None:
        """``--sheets``: every plane's record sheet, once per turn (and at the end)."""
        if self.args.sheets is None or (self.sheets_turn == self.g.state.turn and not force):
            return
        self.sheets_turn = self.g.state.turn
        try:
            write_sheets(self.g, self.args.sheets)
        except OSError as exc:
            self.say(f"--sheets: cannot write {self.args.sheets}: {exc.strerror or exc}", "red")

    # ---- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        self.say(f"Crimson Skies (FASA 1998) on {self.args.map}: seats "
                 + ", ".join(f"{s} {w}" for s, w in zip(self.g.seats(), self.args.seats,
                                                        strict=True))
                 + f"; dice {self.args.dice}; the planes' record sheets below", "bold")
        stopped = ""
        try:
            while self.g.outcome() is None:
                self.step()
        except Quit as q:
            stopped, self.failed = str(q), q.failed
        except KeyboardInterrupt:
            stopped = "interrupted"
        except Exception as exc:  # an engine bug: keep the game so far, say it in one line
            log.exception("play fasa: internal error")
            stopped, self.failed = (f"internal error in the rules engine ({type(exc).__name__}: "
                                    f"{exc}); please report it with the log"), True
        return self.finish(stopped)

    def step(self) -> None:
        g, st = self.g, self.g.state
        self.sheets()
        seat = g.to_move()
        assert seat is not None
        if (st.turn, st.phase) != self.shown[:2] and (seat in self.bots or st.phase == "reveal"):
            self.show()  # bots and reveals: the state at each new phase
        if seat in self.bots:
            self.play(seat, self.bots[seat].choose(g))
        elif st.sealed and st.phase in ("reveal", "pick-reveal"):
            if seat not in self.secrets:
                raise Quit(f"{seat}'s sealed plots were lost (this is a bug)")
            if self.play(seat, reveal(seat, self.secrets[seat]), unattended=True):
                del self.secrets[seat]
        elif st.sealed and st.phase in ("plot", "pick"):
            self.secret_turn(seat)
        else:
            self.typed_turn(seat)

    def play(self, seat: str, action: FasaAction, unattended: bool = False) -> bool:
        """Apply one action; log it with its d10 faces; show what happened. A refusal names
        the rule and changes nothing (the engine folds back). Dice that fail (the tray
        unplugged) stop the game when nobody would type again (a bot, a reveal)."""
        self.dice.take()
        # a shot's modifiers are read in the position it was taken in (its target may fall)
        before = copy.deepcopy(self.g.state) if isinstance(action, Fire | Rocket) else None
        try:
            events = self.g.apply(action)
        except IllegalActionError as exc:
            self.dice.take()
            self.say(f"refused: {exc}", "red")
            return False
        except (DiceError, ConnectionError, TimeoutError) as exc:
            self.dice.take()
            self.say(f"the dice failed: {exc}; nothing was played", "red")
            if seat in self.bots or unattended:
                raise Quit(f"the dice failed: {exc}", failed=True) from None
            return False
        rolls = self.dice.take()
        faces = [f for r in rolls for f in r.faces]
        sides = [r.sides for r in rolls for _ in r.faces]
        try:
            self.stored.played(faces, sides, "bot" if seat in self.bots else "typed", seat)
        except StoreError as e:  # the game stops here: what is stored so far verifies
            raise Quit(str(e), failed=True) from None
        self.lines.append(format_action_line(action.text(), faces, (), sides))
        shown = f" | {format_faces(faces, sides)}" if faces else ""
        self.say(f"{seat} played: {action.text()}{shown}", "cyan")
        lines, rolled = event_lines(self.g.map, before or self.g.state, events)
        for line in lines:
            self.say(f"    {line}")
        self.rolls.extend(rolled)
        return True

    def secret_turn(self, seat: str) -> None:
        """FS-M33: the seat's plots (or FS-M55 collision picks) typed hidden, one per plane,
        each checked; then sealed — the others see only the digest."""
        st = self.g.state
        plotting = st.phase == "plot"
        planes = (sorted(p.id for p in st.planes.values() if p.seat == seat and p.flying)
                  if plotting else [p for p in st.order if st.planes[p].seat == seat])
        self.show()
        what = "plots" if plotting else "collision picks (1..10, FS-M55)"
        self.say(f"{seat}: type your {what} - hidden, not echoed; the other players look "
                 "away. 'legal' lists the plots, 'quit' stops.", "bold green")
        chosen: list[tuple[str, str, bool]] = []
        for plane in planes:
            chosen.append(self._hidden_choice(seat, plane, plotting))
        action, secret = seal(seat, st.turn, chosen)
        if self.play(seat, action):
            self.secrets[seat] = secret
            if self.g.state.phase in ("reveal", "pick-reveal"):
                self.say("every seat has sealed: the plots are revealed together (FS-M33)",
                         "bold")

    def _hidden_choice(self, seat: str, plane: str, plotting: bool) -> tuple[str, str, bool]:
        st = self.g.state
        ask = "plot" if plotting else "pick 1..10"
        while True:
            text = hidden_line(f"{seat} {plane} {ask} (hidden): ")
            word = text.lower()
            if word in ("quit", "exit"):
                raise Quit("quit")
            if word in ("legal", "?"):
                self.say(legal_plots(st, plane) if plotting else f"{plane} picks a number "
                         "1..10 (FS-M55)")
                continue
            if word in ("show", "view"):
                self.show()
                continue
            if not text:
                continue
            if plotting:
                words = text.split()
                if word.startswith("plot "):  # 'plot A1 3L2F' typed in full
                    if len(words) < 3 or words[1].upper() != plane:
                        self.say(f"refused: this is {plane}'s plot; type it as 3L2F", "red")
                        continue
                    text = " ".join(words[2:])
                try:
                    maneuver, bail, _ = check_secret_plot(st, plane, text)
                except IllegalActionError as exc:  # the plot itself stays hidden
                    reason = exc.reason
                    for typed in {text.strip(), text.strip().upper(), *text.split()}:
                        reason = reason.replace(typed, "(hidden)")
                    self.say(f"refused: {plane}'s plot: {reason} [{exc.rule}]; type "
                             "another", "red")
                    continue
                self.say(f"{plane}: plot recorded (hidden)")
                return plane, maneuver, bail
            if text.isdigit() and 1 <= int(text) <= 10:
                self.say(f"{plane}: pick recorded (hidden)")
                return plane, str(int(text)), False
            self.say('refused: pick a number 1 to 10 [FS-M55 "Piloted collisions"]', "red")

    def typed_turn(self, seat: str) -> None:
        """An open plot, an open pick or a combat action, typed in the notation."""
        g = self.g
        if self.shown != (g.state.turn, g.state.phase, len(g.history)):
            self.show()
            legal = [a.text() for a in g.legal_actions()]
            if legal:
                more = f" ... ({len(legal)} in all: 'legal')" if len(legal) > MAX_LEGAL_SHOWN \
                    else ""
                self.say(f"you may type: {', '.join(legal[:MAX_LEGAL_SHOWN])}{more}", "green")
        try:
            line = input(f"{seat}> ").strip()
        except EOFError:
            raise Quit("input ended") from None
        word = line.split()[0].lower() if line else ""
        if word in ("quit", "exit"):
            raise Quit("quit")
        if word in ("legal", "?"):
            legal = [a.text() for a in g.legal_actions()]
            self.say("legal now: " + (", ".join(legal) or "nothing"))
        elif word in ("show", "view"):
            self.show()
        elif word == "help":
            self.say(EXAMPLES.strip())
        elif line:
            try:
                action = g.parse_action(line)
            except InvalidActionError as exc:
                self.say(f"refused: {exc}", "red")
                return
            self.play(seat, action)

    def finish(self, stopped: str) -> int:
        g = self.g
        self.sheets(force=True)
        if g.outcome() is None:
            self.say(f"stopped before the end of the game ({stopped or 'quit'})", "yellow")
        self.say(g.report())
        comment = [f"dialtray play fasa --seats {','.join(self.args.seats)} --dice "
                   f"{self.args.dice} --seed {self.args.seed}"]
        code = 1 if self.failed else 0
        if self.fair is not None:
            verdict = self.fair.reveal()
            self.say(str(verdict), None if verdict.ok else "bold red")
            comment.append(str(verdict))
            code = code if verdict.ok else 1
        path = write_log(log_path(self.args, KIND, "play"),
                         format_log(KIND, header_of(g), self.lines, "\n".join(comment)))
        if self.args.sheets is not None:
            self.say(f"record sheets: {self.args.sheets}/<plane>.svg")
        print(f"game log: {path}  (re-run it: dialtray replay {path})", flush=True)
        print(self.stored.stored_as(), flush=True)
        self.stored.close()
        return code
