"""Bot hands: what a player at the tray turns or types next, read from the tracker alone.

A bot seat has a *brain* (an engine's bot: which decision to take) and these hands, which act
through the dials like a person: they set dials to their start clicks, turn the clicks the
tracker asks for, make throttle decisions by turning the speed dial, type the other decisions,
and put right whatever the tracker flags; a dial whose encoder lost track they confirm by eye.
``Mistakes`` makes them err on purpose, once per kind, the way people do (one click short, one
too many, the wrong way, the wrong dock, a peek, a spin, a throttle past the red line), so demos
and tests show every flag being caught and resolved.

Engine-independent: it needs only the ``Tracker`` and a ``choose(game) -> action`` brain. The
hands say *what* to turn; a driver (``dialtray.virtual.hands`` for the virtual tray, or a test's
paper tray) does the turning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dialtray.rules.core.dials import Dial
from dialtray.rules.core.game import TABLE
from dialtray.tracker import marks as mk
from dialtray.tracker.binding import Slot
from dialtray.tracker.eye import looked
from dialtray.tracker.tracker import OVER, START, SlotState, Tracker

MISTAKES = (mk.TOO_FEW, mk.TOO_MANY, mk.WRONG_DIRECTION, mk.WRONG_DIAL, mk.PEEK,
            mk.UNEXPECTED, mk.REFUSED)


LATE = 40  # decisions after which a wanted "refused" mistake no longer waits for a red line


@dataclass(frozen=True)
class Turn:
    """Turn ``slot`` by ``clicks`` (+ clockwise); ``why`` is what the player had in mind."""

    slot: Slot
    clicks: int
    why: str


@dataclass(frozen=True)
class Typed:
    """Type a decision in notation words; ``too_early``: typed on purpose while clicks are still
    due (a forgotten click), so the tracker's refusal is expected."""

    text: str
    too_early: bool = False


@dataclass(frozen=True)
class Eye:
    """Confirm by eye that ``slot``'s dial, whose encoder lost track, shows ``click``
    (``Tracker.confirm_eye``): a bot's hands turned that dial themselves, so it shows the
    click where the host last saw it (``eye.looked``)."""

    slot: Slot
    click: int


Move = tuple[Turn, ...] | Typed | Eye | None


@dataclass
class Mistakes:
    """Which mistakes to make, each once, at the first chance after ``after`` decisions."""

    kinds: list[str] = field(default_factory=lambda: list(MISTAKES))
    after: int = 0
    made: list[str] = field(default_factory=list)

    def want(self, kind: str, decisions: int) -> bool:
        return kind in self.kinds and kind not in self.made and decisions >= self.after

    def did(self, kind: str) -> None:
        self.made.append(kind)


class Hands:
    """The next move of the players at the table (all bots)."""

    def __init__(self, tracker: Tracker, brain: Any, mistakes: Mistakes | None = None,
                 say: Callable[[str], None] | None = None, seats: Iterable[str] | None = None,
                 owns: Callable[[Dial], bool] | None = None,
                 hold: Callable[[], bool] | None = None) -> None:
        """``seats``: the seats these hands play (default: all, and the table's facts);
        ``owns``: the dials they turn (default: all) — a person turns the others;
        ``hold``: while it says True the hands start no new decision (they still turn the
        clicks the rules made): a round's time is up and the table's own time-limit decision
        goes next, which the tracker takes only once the dials agree — bots deciding again the
        moment they do would keep it waiting."""
        self.t = tracker
        self.brain = brain
        self.seats = None if seats is None else set(seats)
        self.owns = owns or (lambda _dial: True)
        self.hold = hold or (lambda: False)
        self.mistakes = mistakes or Mistakes(kinds=[])
        self.say = say or (lambda _text: None)
        self.decisions = 0
        self._again: Typed | None = None

    def retry(self, move: Typed) -> None:
        """The decision could not be taken (the dice failed): offer the same one next."""
        self._again = move
        self.decisions -= 1

    def next(self) -> Move:
        t = self.t
        again, self._again = self._again, None
        if again is not None and t.ready():
            if self.hold():
                self._again = again
                return None
            self.decisions += 1
            return again
        if t.phase == OVER:
            return None
        everyone = list(t.slots.values())
        slots = [s for s in everyone if self.owns(s.dial)]
        lost = [s for s in slots if s.lost and s.seen is not None]
        if lost:  # its encoder lost track (the tray started): looked at and confirmed
            return Eye(lost[0].slot, looked(lost[0]))
        if t.phase == START:
            return tuple(Turn(s.slot, -s.offset, "to its start click") for s in slots
                         if s.seen is not None and s.offset) or None  # (lost: above)
        flagged = [s for s in slots if s.flag is not None and s.offset and not s.fault]
        checks = [s for s in slots if s.flag is not None and s.flag.kind == mk.CHECK and
                  not s.offset and not s.fault]
        if checks and not flagged:  # restored from its sensor and where the rules put it: a
            return tuple(Turn(s.slot, 1, "check it: one click and back")  # look, one click
                         for s in checks)  # and back (tracker.restored)
        if flagged:
            return tuple(Turn(s.slot, -s.offset, f"put right: {s.flag.kind}")  # type: ignore
                         for s in flagged)
        if any(not s.judged for s in everyone):
            return None  # let it settle: the tracker judges first
        due = [s for s in slots if s.exp is not None and s.seen == s.exp.start and s.flag is None]
        if due:
            return self._due(due)
        if any(s.exp is not None or s.offset for s in slots):
            return None  # a short turn waits for its flag
        if not t.ready() or self.hold():
            return None
        who = t.game.to_move()
        if self.seats is not None and who not in self.seats and who != TABLE:
            return None  # a person decides
        return self._decide(slots)

    # ---- clicks the rules made ----------------------------------------------------------------

    def _due(self, due: list[SlotState]) -> Move:
        m = self.mistakes
        out: list[Turn] = []
        for s in due:
            exp = s.exp
            assert exp is not None
            n, sign = exp.total, (1 if exp.total > 0 else -1)
            if m.want(mk.WRONG_DIAL, self.decisions) and self._other(s) is not None:
                m.did(mk.WRONG_DIAL)
                other = self._other(s)
                assert other is not None
                self.say(f"(a player turns {other.label} instead of {s.label})")
                out.append(Turn(other.slot, n, "the wrong dock"))
                return tuple(out)
            elif m.want(mk.TOO_FEW, self.decisions) and s.flag is None:
                m.did(mk.TOO_FEW)
                if abs(n) == 1:  # forgets the click and tries to play on
                    self.say(f"(a player forgets the click on {s.label} and plays on)")
                    return Typed(self.t.game.legal_actions()[0].text(), too_early=True)
                self.say(f"(a player turns {s.label} one click short)")
                out.append(Turn(s.slot, n - sign, "one click short"))
            elif m.want(mk.TOO_MANY, self.decisions):
                m.did(mk.TOO_MANY)
                self.say(f"(a player turns {s.label} one click too many)")
                out.append(Turn(s.slot, n + sign, "one too many"))
            elif m.want(mk.WRONG_DIRECTION, self.decisions):
                m.did(mk.WRONG_DIRECTION)
                self.say(f"(a player turns {s.label} the wrong way)")
                out.append(Turn(s.slot, -n, "the wrong way"))
            else:
                out.append(Turn(s.slot, n, exp.text()))
        return tuple(out)

    def _other(self, s: SlotState) -> SlotState | None:
        """A neighbouring reader of the same kind with nothing due (the wrong dock)."""
        same = [o for o in self.t.slots.values() if o is not s and o.dial.kind == s.dial.kind
                and o.exp is None and o.want is not None]
        return min(same, key=lambda o: abs(o.slot.dock - s.slot.dock), default=None)

    # ---- decisions ----------------------------------------------------------------------------

    def _decide(self, slots: Iterable[SlotState]) -> Move:
        m, t = self.mistakes, self.t
        combat = [s for s in slots if s.dial.kind == "combat" and s.want is not None]
        if combat and m.want(mk.PEEK, self.decisions):
            m.did(mk.PEEK)
            s = combat[self.decisions % len(combat)]
            self.say(f"(a player peeks at {s.label}'s next click and turns it back)")
            return (Turn(s.slot, s.up, "a peek ahead"), Turn(s.slot, -s.up, "and back"))
        if combat and m.want(mk.UNEXPECTED, self.decisions):
            m.did(mk.UNEXPECTED)
            s = combat[(self.decisions + 1) % len(combat)]
            self.say(f"(someone knocks {s.label} one click)")
            return (Turn(s.slot, s.up, "a knock"),)
        action = self.brain.choose(t.game)
        opt = t.dial_option(action)
        self.decisions += 1
        if opt is None:
            return Typed(action.text())
        st = t.slot_of(opt.dial)
        if st is None or st.seen is None:
            return Typed(action.text())
        target = st.phys(opt.to_click) if opt.delta is None else \
            (st.want or 0) + st.phys(opt.delta)
        clicks = target - st.seen
        if opt.delta is None:
            clicks = (clicks + st.detents // 2) % st.detents - st.detents // 2
        if clicks == 0:  # already there (a free setting where the dial rests): say it
            return Typed(action.text())
        if opt.delta is not None and m.want(mk.REFUSED, self.decisions):
            past = self._past_the_end(st, opt.delta)
            if past is not None:
                m.did(mk.REFUSED)
                self.say(f"(a player throttles {st.label} past the red line)")
                return (Turn(st.slot, past, "past the red line"),)
        return (Turn(st.slot, clicks, action.text()),)

    def _past_the_end(self, st: SlotState, chosen: int) -> int | None:
        """Clicks one past the last legal setting in the direction the dial is nearest its end
        (the red line), when an end is near: the legal deltas are lopsided."""
        deltas = [o.delta for o in self.t.options() if o.dial == st.dial and o.delta is not None]
        deltas.append(0)  # leaving it where it is never turns the dial
        if len(deltas) < 2:
            return None
        if max(deltas) + min(deltas) == 0:  # no end near: later, one click more than allowed
            return st.phys(max(deltas) + 1) if self.decisions > LATE else None
        edge = max(deltas) if max(deltas) < -min(deltas) else min(deltas)
        step = 1 if edge > 0 else -1
        if edge == 0:
            step = 1 if max(deltas) == 0 else -1
        return st.phys(edge + step)
