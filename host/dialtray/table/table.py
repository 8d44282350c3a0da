"""``Table``: one game in progress on a tray — engine, tracker, dice, bots, store, link, pace.

See the package docstring (``dialtray.table``) for how a front end drives and observes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dialtray.link.messages import TrayEvent
from dialtray.rules.core.game import TABLE
from dialtray.table import narrate, offers
from dialtray.table.games import TITLES, Setup
from dialtray.tracker import OVER, PLAY, Result, Tracker, eye
from dialtray.tracker.binding import Slot
from dialtray.tracker.hands import Eye, Hands, Mistakes, Typed
from dialtray.tracker.runner import CHUNK
from dialtray.tracker.view import DockView

PERSON, BOT = "human", "bot"
BOT_WAIT_S = 10.0  # longest a bot's turn waits to be sensed before it carries on


class Link(Protocol):
    """Where the tray's events come from: a ``TrackedTray`` / ``StoredTable`` (a live tray),
    or ``paper.PaperLink`` (no tray)."""

    tracker: Tracker

    def clock(self) -> float: ...
    def pump(self, timeout: float = 0.0) -> int: ...
    def sync(self, timeout: float = 5.0) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class DialDue:
    """A dial the tray waits for: ``clicks`` signed (+ clockwise); ``text`` is the line
    ``dock N <dial> dial (<figure>): K clicks clockwise — why``."""

    dock: int
    reader: int
    figure: str
    dial: str
    clicks: int
    text: str
    flagged: bool  # a mistake to put right, not clicks the rules made


@dataclass(frozen=True)
class Over:
    """The game's end: why, who won, the scores as rows (seat, who, VP, "winner")."""

    termination: str
    winner: str | None
    scores: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class TableView:
    """Everything a screen shows, plain data (no engine object, no repr)."""

    kind: str
    title: str
    turn: str  # "turn 2", "" before the first
    phase: str
    to_move: str | None
    mover: str  # "human", "bot", "table" or "" (nobody)
    tracker_phase: str  # start-check, play, over
    waiting_for: tuple[str, ...]
    due: tuple[DialDue, ...]
    docks: tuple[DockView, ...]
    flags: tuple[str, ...]
    offers: tuple[offers.OfferGroup, ...]  # for a person to move: grouped, common case first
    offer_count: int
    pending: str  # the bookkeeping the table will take unless someone objects ("" none)
    narration: int  # how many narration lines there are (``Table.narration[since:]``)
    over: Over | None
    judge_vp: tuple[tuple[str, int], ...] = ()  # VP the judge awarded, beside the rules' VP
    eye: tuple[str, ...] = ()  # what to type to confirm each dial whose encoder lost track


class Table:
    """A game in progress on a tray, driven and observed by a front end.

    ``setup``: the game and its bots' brain (``games.new_game``); ``roles``: ``"human"`` or
    ``"bot"`` per seat in seating order; ``link``: the tray's events (and the store, when it is
    a ``StoredTable``); ``hand``: turns a dial of the tray (the virtual tray's or the paper's)
    — None on a real tray, where a person is asked to turn a bot's dials (``asks``)."""

    def __init__(self, setup: Setup, roles: Sequence[str], link: Link, *,
                 hand: Callable[[Slot, int], None] | None = None, pace: float = 0.0,
                 bookkeeping_s: float | None = None, mistakes: Mistakes | None = None,
                 hold: Callable[[], bool] | None = None) -> None:
        self.setup = setup
        self.link = link
        self.t: Tracker = link.tracker  # the store's recording tracker when stored
        self.game = setup.game
        seats = list(self.game.seats())
        if len(roles) != len(seats):
            raise ValueError(f"this game has {len(seats)} seats ({', '.join(seats)}), "
                             f"{len(roles)} given")
        self.roles = dict(zip(seats, roles, strict=True))
        self.humans = [s for s in seats if self.roles[s] == PERSON]
        bots = [s for s in seats if self.roles[s] == BOT]
        owner = setup.owner
        self.hands = Hands(self.t, setup.brain, mistakes, seats=bots,
                           owns=lambda d: owner(d) in bots, hold=hold) if bots else None
        self.hand = hand
        self.pace = pace
        self.bookkeeping_s = pace if bookkeeping_s is None else bookkeeping_s
        self.narration: list[str] = []
        self.asks: list[str] = []  # turns a person must make for a bot (a real tray)
        self.sensors: list[Callable[[], Iterable[TrayEvent]]] = []
        self.on_narrate: Callable[[str], None] | None = None
        self._told = len(self.game.history)  # history entries narrated
        self._flags_told = len(self.t.flags)
        self._busy: tuple[Slot, int, float] | None = None  # a bot's turn not yet sensed
        # a hand that takes a bot's move whole (``whole_moves``: a camera-only tray's, whose
        # camera reports a dial once it is still, so a turn waited on in parts would be
        # judged short): (where the move leaves each dial, events seen before it, when)
        self._whole: tuple[dict[Slot, int], int, float] | None = None
        self._pending: list[tuple[Slot, int]] = []
        self._bot_at = 0.0  # a bot may act at this clock time (the pace)
        self._book: tuple[int, float] | None = None  # (history length, when seen)
        self._objected = -1  # history length at which a person stopped the bookkeeping
        self.stopped = ""  # why the game was closed before its end
        self._figs: dict[str, Any] | None = None
        self._who: dict[int, str] = {}  # history index → the seat that decided it

    # ---- observing ------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.t.phase == OVER or bool(self.stopped)

    def view(self) -> TableView:
        g, t = self.game, self.t
        who = g.to_move()
        mover = "" if who is None else "table" if who == TABLE else self.roles.get(who, "")
        groups: list[offers.OfferGroup] = []
        count = 0
        if t.phase == PLAY and who is not None and g.outcome() is None and \
                (mover == PERSON or (mover == "table" and not self.hands)):
            legal = [a.text() for a in g.legal_actions()]
            count = len(legal)
            groups = offers.group(legal, self._figures())
        book = self._bookkeeping()
        return TableView(
            kind=g.kind, title=TITLES.get(g.kind, g.kind), turn=self._turn_no(),
            phase=self._phase(), to_move=who, mover=mover, tracker_phase=t.phase,
            waiting_for=tuple(t.waiting_for()), due=tuple(self._due()),
            docks=tuple(t.docks()), flags=tuple(f.text for f in t.open_flags()),
            offers=tuple(groups), offer_count=count,
            pending=book.text() if book is not None else "",
            narration=len(self.narration), over=self._over(),
            judge_vp=tuple(sorted(getattr(t, "judge_vp", {}).items())),
            eye=tuple(eye.command(st) for st in t.slots.values() if st.lost))

    def _turn_no(self) -> str:
        st = getattr(self.game, "state", None)
        n = getattr(st, "turn_number", None)
        if n is None:
            n = getattr(st, "turn", None)
        return f"turn {n}" if isinstance(n, int) and n > 0 else ""

    def _phase(self) -> str:
        st = getattr(self.game, "state", None)
        ph = getattr(st, "phase", None)
        if ph is None:
            ph = getattr(getattr(st, "turn", None), "phase", "")
        return str(ph or "")

    def _due(self) -> list[DialDue]:
        out = []
        for st in self.t.slots.values():
            if st.lost:  # its encoder lost track: no click is known to turn (eye.py)
                continue
            if st.flag is not None and st.offset:
                out.append(DialDue(st.slot.dock, st.slot.dial, st.dial.figure, st.dial.kind,
                                   -st.offset, st.flag.text, True))
            elif st.exp is not None and st.offset:
                out.append(DialDue(st.slot.dock, st.slot.dial, st.dial.figure, st.dial.kind,
                                   -st.offset, st.exp.text(-st.offset), False))
            elif self.t.phase != PLAY and st.offset:
                out.append(DialDue(st.slot.dock, st.slot.dial, st.dial.figure, st.dial.kind,
                                   -st.offset, f"{st.label}: "
                                   f"{narrate.plain(offers_turn(-st.offset))} to its start "
                                   "click", False))
        return out

    def _over(self) -> Over | None:
        out = self.game.outcome()
        if out is None:
            return None
        rows = narrate.score_rows(out, list(self.game.seats()), self.roles)
        return Over(str(out.termination), out.winner, tuple(tuple(r) for r in rows))

    # ---- driving --------------------------------------------------------------------------------

    def start(self) -> None:
        """Ask the tray where every dial rests (the start check reads it)."""
        self.link.sync()
        self._narrate()

    def pump(self, timeout: float = 0.0) -> bool:
        """Feed the tray's events, let bots act at their pace, take bookkeeping nobody objected
        to, narrate; True when something may have changed on screen."""
        before = (len(self.game.history), len(self.t.flags), self.t.events_seen)
        for poll in self.sensors:  # another sensor (a camera reader): its events, in order
            for ev in poll():
                self.t.feed(ev, self.link.clock())
        self.link.pump(timeout)
        if not self.over:
            self._bots()
            self._take_bookkeeping()
            self._time_limit()
        self._narrate()
        return before != (len(self.game.history), len(self.t.flags), self.t.events_seen)

    def decide(self, text: str, seat: str | None = None) -> Result:
        """A decision typed in notation words by ``seat`` (default: whoever is to move, if a
        person); refused with the rule's reason, nothing changed."""
        who = self.game.to_move()
        if seat is None:
            seat = who if who in self.humans or who == TABLE else None
            if seat is None:
                return Result(False, f"{who} (a bot) decides now, not you")
        self._who[len(self.game.history)] = str(who)
        r = self.t.decide(text, self.link.clock(), seat=seat)
        self.link.pump(0.0)  # stored (a StoredTable commits on every pump) before it is shown
        self._narrate()
        return r

    def decide_as_table(self, text: str) -> Result:
        """A decision the table itself takes for nobody's seat — the round's clock at an event
        ending the game with the rules' time-limit decision (AA-M53 (2), AC-M67 (2)): stored,
        narrated as the table's, refused like any decision while a dial is due."""
        self._who[len(self.game.history)] = TABLE
        r = self.t.decide(text, self.link.clock())
        if not r.ok:
            self._who.pop(len(self.game.history), None)
        self.link.pump(0.0)  # stored before it is shown
        self._narrate()
        return r

    def object(self) -> str:
        """A player objects to the bookkeeping the table was about to take: it waits for them
        to type the fact themselves (``left A1``, ``overlap A1 B2``)."""
        book = self._bookkeeping()
        self._objected = len(self.game.history)
        self._book = None
        return f"the table waits: type what happened instead of {book.text()!r}" if book \
            else "nothing for the table to take now"

    def dispute(self, about: str) -> Result:
        r = self.t.dispute(about, self.link.clock())
        self.link.pump(0.0)  # stored before it is shown
        self._say(narrate.plain(r.message))
        return r

    def confirm_eye(self, dock: int, reader: int, click: int | None = None,
                    seat: str | None = None) -> Result:
        """A player looked at a dial whose encoder lost track and says it shows ``click``
        (None: the click the rules put it at): a player's action, stored for the judge
        (``eye`` record), never a game decision. Refused with the reason when the dial is not
        lost or the click is impossible. ``seat``: who confirms (default: the dial's owner when
        a person plays it, else the person at the table)."""
        slot = Slot(dock, reader)
        st = self.t.slots.get(slot)
        if seat is None:
            owner = self.setup.owner(st.dial) if st is not None else None
            seat = owner if owner in self.humans else \
                (self.humans[0] if len(self.humans) == 1 else "a player")
        by = seat if self.roles.get(seat) != BOT else f"{seat} (a bot)"
        r = self.t.confirm_eye(slot, click, self.link.clock(), by)
        self.link.pump(0.0)  # stored (a StoredTable commits on every pump) before it is shown
        self._say(narrate.plain(r.message) if r.ok else f"refused: {narrate.plain(r.message)}")
        self._narrate()
        return r

    def turn(self, dock: int, reader: int, clicks: int) -> str:
        """Turn a dial with the table's hand (the virtual or paper tray)."""
        if self.hand is None:
            return "this is a real tray: turn its dials by hand"
        self.hand(Slot(dock, reader), clicks)
        return f"turned dock {dock} {'combat' if reader == 0 else 'speed'} dial " \
            f"{offers_turn(clicks)}"

    def close(self, reason: str = "") -> None:
        """Stop here (``reason``: why the game ends before its end, e.g. quit)."""
        if reason and not self.over:
            self.stopped = reason
        self.link.close()

    # ---- bots -----------------------------------------------------------------------------------

    def _bots(self) -> None:
        """One step of the bots, never blocking: a turn waits to be sensed before the next,
        a decision waits for the pace."""
        if self.hands is None:
            return
        now = self.link.clock()
        if self._busy is not None:
            slot, target, since = self._busy
            if self.t.slots[slot].seen != target and now - since < BOT_WAIT_S:
                return
            self._busy = None
        if self._whole is not None:
            todo, seen, since = self._whole
            if (self.t.events_seen == seen or any(self.t.slots[s].seen != v for s, v in
                                                  todo.items())) and now - since < BOT_WAIT_S:
                return
            self._whole = None
        if self._pending:
            self._turn(*self._pending.pop(0))
            return
        if now < self._bot_at:
            return
        move = self.hands.next()
        if move is None:
            return
        if isinstance(move, Eye):  # a bot's dial whose encoder lost track
            self._eye(move)
            return
        if isinstance(move, Typed):
            self._who[len(self.game.history)] = str(self.game.to_move())
            r = self.t.decide(move.text, now)
            if move.too_early:
                return
            if r.retry:
                self.hands.retry(move)
            elif not r.ok:
                self._say(f"a bot's decision was refused: {narrate.plain(r.message)}")
            self._bot_at = now + self.pace
            return
        if self.hand is not None and getattr(self.hand, "whole_moves", False):
            targets: dict[Slot, int] = {}
            for m in move:  # one person's motions, the hand paces them; sensed as a whole
                targets[m.slot] = targets.get(m.slot, self.t.slots[m.slot].seen or 0) + m.clicks
                self.hand(m.slot, m.clicks)
            self._whole = (targets, self.t.events_seen, now)
            return
        for m in move:
            left = m.clicks
            while left:
                step = max(-CHUNK, min(CHUNK, left))
                left -= step
                self._pending.append((m.slot, step))
        if self._pending:
            self._turn(*self._pending.pop(0))

    def _eye(self, move: Eye) -> None:
        """A bot confirms its own dial by eye on the virtual or paper tray (it turned that dial
        itself); on a real tray a person is asked to look at it for the bot."""
        st = self.t.slots[move.slot]
        owner = self.setup.owner(st.dial) or "a bot"
        if self.hand is None:
            ask = (f"please look at {st.label} for the bot and confirm it by eye: "
                   f"{eye.command(st)} C, with the click C it shows")
            if ask not in self.asks:
                self.asks.append(ask)
            return
        self.confirm_eye(move.slot.dock, move.slot.dial, move.click, owner)
        self._bot_at = self.link.clock() + self.pace

    def _turn(self, slot: Slot, clicks: int) -> None:
        st = self.t.slots[slot]
        self._busy = (slot, (st.seen or 0) + clicks, self.link.clock())
        if self.hand is None:
            self.asks.append(f"please turn {st.label} {offers_turn(clicks)} for the bot")
            return
        self.hand(slot, clicks)

    # ---- bookkeeping ----------------------------------------------------------------------------

    def _bookkeeping(self) -> Any:
        if self.t.phase != PLAY or not self.t.ready() or self.game.outcome() is not None:
            return None
        who = self.game.to_move()
        if who is None or (who == TABLE and self.hands is not None):
            return None  # with bots at the table, their digital table reports the facts
        if who != TABLE and who not in self.humans:
            return None
        if self._objected == len(self.game.history):
            return None
        return offers.bookkeeping(self.game.legal_actions())

    def _take_bookkeeping(self) -> None:
        book = self._bookkeeping()
        if book is None:
            self._book = None
            return
        now = self.link.clock()
        n = len(self.game.history)
        if self._book is None or self._book[0] != n:
            self._book = (n, now)
        if now - self._book[1] < self.bookkeeping_s:
            return
        self._book = None
        self.t.decide(book.text(), now)

    def _time_limit(self) -> None:
        """AA-M53(2): the agreed time limit (``--turns``) ends an Air Action game once its turn
        is past. With bots at the table their brain calls it; with people only, the table does
        (a hot-seat game ran on past its limit until a side fell or disengaged)."""
        limit = getattr(self.setup.brain, "max_turns", None)
        st = getattr(self.game, "state", None)
        if self.hands is not None or self.game.kind != "airaction" or limit is None or \
                st is None or st.turn <= limit or st.bailouts or st.ended or \
                self.t.phase != PLAY or not self.t.ready():
            return
        self.decide_as_table("end time")

    # ---- narration ------------------------------------------------------------------------------

    def _say(self, line: str) -> None:
        self.narration.append(line)
        if self.on_narrate is not None:
            self.on_narrate(line)

    def _narrate(self) -> None:
        history = self.game.history
        if len(history) < self._told:  # an undo (a judge's ruling)
            self._say(f"taken back to action {len(history)}")
            self._told = len(history)
        while self._told < len(history):
            entry = history[self._told]
            self._told += 1
            who = self._who.pop(self._told - 1, None) or self._actor(entry)
            for line in narrate.entry_lines(who, entry.action, entry.events,
                                            narrate.hidden_draws(self.game, self.humans)):
                self._say(line)
        flags = self.t.flags
        while self._flags_told < len(flags):
            f = flags[self._flags_told]
            self._flags_told += 1
            self._say(f"! caught: {narrate.plain(f.text)}")
        if self.t.phase == OVER and not any(x.startswith("game over") for x in
                                            self.narration[-3:]):
            out = self.game.outcome()
            if out is not None:
                self._say(f"game over: {out.termination}; winner {out.winner or 'none'}")

    def _actor(self, entry: Any) -> str:
        text = entry.action.text()
        for seat in self.game.seats():
            if seat in text.split():
                return seat
        figures = self._figures()
        figure = next((w for w in text.split()[1:] if w in figures), None)
        if figure is not None:
            owner = self.setup.owner(figures[figure])
            if owner:
                return owner
        return "table" if text.split()[0] in ("moved", "left", "obstacle", "overlap",
                                               "overlaps-done", "first-player",
                                               "initiative", "deal") else "play"

    def _figures(self) -> dict[str, Any]:
        """Every figure (plane, character, pawn) by id, with one of its dials."""
        if self._figs is None:
            self._figs = {d.figure: d for d in self.setup.game.dials()}
        return self._figs


def offers_turn(clicks: int) -> str:
    n = abs(clicks)
    return f"{n} click{'' if n == 1 else 's'} {'clockwise' if clicks > 0 else 'counter-clockwise'}"
