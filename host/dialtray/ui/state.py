"""A tracked game as the page's JSON: the tray (docks, windows, what to turn, flags, dice) and
the game (phase, turn, legal decisions, odds, log).

Read-only: everything comes from the tracker's plain-data views (``docks()``, ``view()``,
``waiting_for()``, ``open_flags()``) and the state of its readers (``slots``: an expectation's
and a flag's words). The cheap part (the tray) is rebuilt on every change; the costly part (legal
decisions, odds) only when the game moves on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dialtray.rules.core.dials import COMBAT
from dialtray.store.recorder import dice_source
from dialtray.table.narrate import hidden_draws
from dialtray.tracker import Tracker
from dialtray.ui import board as bd
from dialtray.ui import choices as ch
from dialtray.ui import odds as od
from dialtray.ui import svg
from dialtray.ui.layout import TrayLayout
from dialtray.ui.narrate import MoveList

LOG_TAIL = 40
READER_NAMES = ("combat", "speed")
TITLES = {"airaction": "Crimson Skies: Air Action", "aces": "Crimson Skies: Aces",
          "fasa": "Crimson Skies (FASA, 1998)", "skyace": "Sky Ace"}


AXIS = "damage clicks (✖ = shot down)"
AXES = {"aces": "damage clicks (✖ = knocked out)", "skyace": "LIFE lost (✖ = knocked out)",
        "fasa": "hits"}


def header(game: Any) -> str:
    """The turn and phase in words (the page's header line)."""
    s = getattr(game, "state", None)
    turn = next((v for v in (getattr(s, n, None) for n in ("turn_number", "round", "turn"))
                 if isinstance(v, int)), None)
    phase = getattr(s, "phase", "")
    bits = [f"turn {turn}" if isinstance(turn, int) and turn > 0 else "",
            f"{phase} phase" if isinstance(phase, str) and phase else ""]
    return " · ".join(b for b in bits if b)


def winner(game: Any) -> dict[str, Any] | None:
    """The end of the game in words: why, who won, the final VP per seat."""
    o = game.outcome()
    if o is None:
        return None
    return {"winner": o.winner, "why": o.termination,
            "vp": [{"seat": k, "vp": int(v)} for k, v in o.vp.items()]}


class StateBuilder:
    """Builds the page's state for one tracker; remembers the start clicks (damage so far)."""

    def __init__(self, tracker: Tracker, layout: TrayLayout, game_id: int, *,
                 bots: bool = False, source: str = "", sim: bool = False,
                 board: Callable[[], dict[str, Any]] | None = None,
                 people: Sequence[str] = ()) -> None:
        self.t = tracker
        self.layout = layout
        self.game_id = game_id
        self.bots = bots
        self.source = source  # "virtual tray" / the port
        self.sim = sim  # the page may turn the virtual tray's dials
        self.start = {d: s.click for d, s in tracker.game.dials().items()}
        self.board = board or (lambda: bd.board(tracker.game))
        self.people = tuple(people)  # the seats a person takes on the page
        # a rival's drawn card is not shown on the page (D-SA-15); read as the seats change
        self.moves = MoveList(lambda e: hidden_draws(tracker.game, self.people)(e))
        self.asking = False  # the page's first screen: who takes each seat
        self.pending: Callable[[], str] = lambda: ""  # bookkeeping the table will take
        self._game_key: tuple[object, ...] = ()
        self._game_part: dict[str, Any] = {}
        self._dice_key: object = None
        self._dice_part: dict[str, Any] = {}

    # ---- the tray -----------------------------------------------------------------------------

    def docks(self) -> list[dict[str, Any]]:
        t = self.t
        slots = {(s.slot.dock, s.slot.dial): s for s in t.slots.values()}
        out: dict[int, dict[str, Any]] = {}
        for dv in t.docks():
            st = slots.get((dv.dock, dv.reader))
            d = out.setdefault(dv.dock, {"dock": dv.dock, "readers": []})
            start = self.start.get(st.dial) if st is not None else None
            damage = None
            if dv.kind == COMBAT and dv.click is not None and start is not None:
                damage = dv.click - start
            expect = flag = None
            if st is not None and st.exp is not None:
                expect = st.exp.text(-st.offset)
            if st is not None and st.flag is not None:
                flag = {"kind": st.flag.kind, "text": st.flag.text}
            d["readers"].append({
                "reader": READER_NAMES[dv.reader] if dv.reader < 2 else str(dv.reader),
                "reader_index": dv.reader,
                "label": dv.label, "figure": dv.figure, "kind": dv.kind, "click": dv.click,
                "values": dv.values, "colours": dv.colours, "in_play": dv.in_play,
                "turn": dv.turn, "status": dv.status, "damage": damage, "expect": expect,
                "flag": flag, "sensed": None if st is None else st.seen,
                "fault": "" if st is None else st.fault,
                "eye": None if st is None or not st.lost else  # to be confirmed by eye
                {"click": dv.click, "clicks": st.detents},
                "window": svg.dial_window(dv.label, dv.click, dv.values, dv.colours)})
        return [out[k] for k in sorted(out)]

    def dice(self) -> dict[str, Any]:
        t = self.t
        last = t.dice.last
        key = (id(last), t.dice_error)
        if key != self._dice_key:
            src = dice_source(t.dice)
            fair = (f"fair-dice commitment {src['commitment'][:16]}… (checked after the game "
                    "by `dialtray verify` and the report)") if "commitment" in src else \
                "no fair-dice commitment for this source"
            self._dice_part = {
                "source": src["source"], "fairness": fair,
                "error": t.dice_error,
                "last": None if last is None else {
                    "purpose": last.purpose, "faces": list(last.faces),
                    "svg": "".join(svg.die(f) for f in last.faces)}}
            self._dice_key = key
        return self._dice_part

    # ---- the game -----------------------------------------------------------------------------

    def game(self) -> dict[str, Any]:
        t = self.t
        key = (len(t.game.history), t.phase, self.people)
        if key != self._game_key:
            g = t.game
            v = t.view()
            self.moves.note_mover(len(g.history), g.to_move())
            legal = [a.text() for a in g.legal_actions()] if t.phase != "over" else []
            shot_odds = od.shots(g, legal, t.dice)
            board = self.board()
            mine = [f["label"] for f in board["figures"] if f.get("seat") == v.to_move]
            self._game_part = {
                "kind": g.kind, "title": TITLES.get(g.kind, g.kind),
                "seats": list(g.seats()), "people": list(self.people), "to_move": v.to_move,
                "legal": list(v.legal), "legal_count": v.legal_count, "history": v.history,
                "outcome": v.outcome, "vp": v.vp, "header": header(g),
                "winner": winner(g), "board": board, "pending": self.pending(),
                "choices": ch.group(legal, [f["label"] for f in board["figures"]], mine),
                "moves": self.moves.update(g.history),
                "odds": [{**o.to_dict(), "svg": svg.odds_chart(o, AXES.get(g.kind, AXIS))}
                         for o in shot_odds],
                "odds_model": g.kind in od.MODELS}
            self._game_key = key
        return self._game_part

    def log_tail(self) -> list[str]:
        out: list[str] = []
        for line in reversed(self.t.lines):
            if type(line) is str:
                out.append(line)
                if len(out) >= LOG_TAIL:
                    break
        out.reverse()
        return out

    def build(self) -> dict[str, Any]:
        t = self.t
        return {
            "op": "state", "game_id": self.game_id, "phase": t.phase, "bots": self.bots,
            "source": self.source, "sim": self.sim, "asking": self.asking,
            "people": list(self.people),
            "layout": self.layout.to_dict(), "docks": self.docks(), "dice": self.dice(),
            "to_move": t.game.to_move(), "waiting_for": t.waiting_for(),
            "flags": [f.text for f in t.open_flags()], "notes": t.notes[-6:],
            "log": self.log_tail()}
