"""The click tracker: the rules say what every dial must show, the tray says what it shows.

A state machine fed with the link's events (``feed``) and the clock (``tick``); every answer is
plain data (``view()``). PicoChess and the DGT board are the model: wait for a dial to settle,
then judge it, and when it is wrong say exactly what to put right.

* **Start check** — every dial at its start click (``game.dials()``); the tracker guides until
  they all agree, then play begins.
* **Expectations** — every ``DialChange`` of an applied action becomes clicks due on a reader
  (``dock 4 combat dial (B2): 2 clicks clockwise — …, AA-M45``); sensed clicks that reach it
  confirm it at once.
* **Flags** — a dial that rests (``Timing.judge_s``) somewhere the rules do not put it is
  flagged with the instruction that ends it: too few, too many, wrong direction, wrong dial, a
  spin nobody caused, moved while the host was away, a refused dial decision, a sensor fault. A
  dial turned and brought back before it settled is a *peek* (AA-M81), recorded for the judge.
  No decision is taken while any dial disagrees: the game waits.
* **Dials as input** — a dial of an input kind (the speed dial) turned while its owner must
  decide is read, once settled, as the legal action that puts it there (``dialinput``); a
  refusal becomes a flag to turn it back.
* **Disputes** (AA-M84) — rolled with the game's dice (the tray's, when it plays with them):
  1–3 refused, 4–6 allowed, logged.

Depends only on the link's event types and ``rules.core``: any engine implementing ``Game``.

This module holds the ``Tracker`` (its state, the clock, moving the game on, what to show);
the jobs it hands out live beside it: ``sensing`` (events in), ``expectations`` (clicks due,
confirmations), ``flags`` (judging a rested dial), ``decisions`` (typed, dial-read, disputes),
``state`` (phases, timing, per-reader state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from dialtray.link.messages import Snapshot, TrayEvent
from dialtray.rules.core.dials import CLOCKWISE, SPEED, Dial, DialSetting
from dialtray.rules.core.errors import DiceError
from dialtray.rules.core.game import TABLE, Game, Seat
from dialtray.rules.core.notation import format_log
from dialtray.tracker import decisions, eye, sensing
from dialtray.tracker import marks as mk
from dialtray.tracker.binding import Binding, BindingError, Slot
from dialtray.tracker.dialinput import DialOption, dial_option, dial_options
from dialtray.tracker.dice import TableDice
from dialtray.tracker.flags import judge
from dialtray.tracker.state import (
    DEFAULT_DETENTS,
    DEFAULT_UP,
    OVER,
    PLAY,
    START,
    ClickNote,
    Result,
    SlotState,
    Timing,
    clicks,
    turn,
)
from dialtray.tracker.view import DockView, View, build_view


class Tracker:
    """One tracked game. Feed it events in order (any thread, one at a time)."""

    def __init__(self, game: Game, binding: Binding, dice: TableDice, *,
                 header: Iterable[tuple[str, str]] = (), timing: Timing | None = None,
                 up: Mapping[str, str] | None = None, input_kinds: Sequence[str] = (SPEED,),
                 auto_table: bool = True,
                 on_change: Callable[[Tracker], None] | None = None) -> None:
        self.game = game
        self.binding = binding
        self.dice = dice
        self.header = list(header)
        self.timing = timing or Timing()
        self.input_kinds = tuple(input_kinds)
        self.auto_table = auto_table
        self.on_change = on_change
        self.phase = START
        self.lines: list[str | ClickNote] = []
        self.flags: list[mk.Flag] = []  # every flag ever raised, in order
        self.notes: list[str] = []  # for the judge and the log
        self.confirmed: list[mk.Confirmation] = []
        self.events_seen = 0
        self.dice_error = ""
        self._held: Snapshot | None = None  # a reconnect's snapshot, until its clicks are in
        self._restored: list[SlotState] = []  # dials the held snapshot restored (restored.py)
        self._skip_below = 0  # clicks below this sequence are in the first snapshot already
        self._skip_boot = 0  # ... of this boot (another boot's clicks count from 1 again)
        self.boot: int | None = None  # the tray's boot (its last snapshot's)
        self.eyes: list[mk.EyeCheck] = []  # dials confirmed by eye (eye.py)
        dials = game.dials()
        missing = binding.missing(dials)
        if missing:
            raise BindingError("no dock for " + ", ".join(d.text() for d in missing))
        ups = {**DEFAULT_UP, **(up or {})}
        self.slots: dict[Slot, SlotState] = {}
        for slot, dial in binding.items():
            if dial in dials:
                sign = 1 if ups.get(dial.kind, CLOCKWISE) == CLOCKWISE else -1
                self.slots[slot] = SlotState(slot, dial, binding.label(slot), sign)
        self._by_dial = {s.dial: s for s in self.slots.values()}
        self._at = {(s.slot.dock, s.slot.dial): s for s in self.slots.values()}
        self._slot_list = list(self.slots.values())
        self._quiet_at = -1  # history length at which the game was last seen waiting for people
        self._dials_cache: tuple[int, dict[Dial, DialSetting]] = (-1, {})
        self._options_cache: tuple[int, list[DialOption]] = (-1, [])
        self.dice.take()  # rolls made while setting the game up are not the log's

    # ---- what the rules say -------------------------------------------------------------------

    def dials(self) -> dict[Dial, DialSetting]:
        n = len(self.game.history)
        if self._dials_cache[0] != n:
            self._dials_cache = (n, self.game.dials())
        return self._dials_cache[1]

    def options(self) -> list[DialOption]:
        """Legal decisions made by turning a dial (cached per position)."""
        n = len(self.game.history)
        if self._options_cache[0] != n:
            seat = self.game.to_move()
            opts = dial_options(self.game, self.dice, self.input_kinds) \
                if seat not in (None, TABLE) else []
            self._options_cache = (n, opts)
        return self._options_cache[1]

    def dial_option(self, action: Any) -> DialOption | None:
        """``action`` as a turn of an input dial (what a player would turn to decide it);
        only a player's decision is one, never a table fact."""
        if self.game.to_move() in (None, TABLE) or not self.input_kinds or not self.slots:
            return None  # no dial to decide with (FASA, Sky Ace): never tried out
        return dial_option(self.game, self.dice, self.input_kinds, action)

    def slot_of(self, dial: Dial) -> SlotState | None:
        return self._by_dial.get(dial)

    # ---- events in (sensing.py) ----------------------------------------------------------------

    def feed(self, ev: TrayEvent, now: float) -> None:
        """One event from the link (``TraySession.subscribe`` / ``stream``), in order.

        A snapshot is the truth at its moment. The session follows a reconnect's snapshot at
        once with the *recovered* clicks that explain it, so a later snapshot is only compared
        once those are in (at the next other event or tick); whatever they leave unexplained
        (a snapshot asked for directly) is a dial moved while the host was away."""
        sensing.feed(self, ev, now)

    def feed_many(self, evs: Sequence[TrayEvent], now: float,
                  after: Callable[[int], None] | None = None) -> None:
        """Events that arrived together (a pump's queue), in order, at one time ``now``: as
        ``feed`` one by one; ``after(i)`` after each event that did more than note a click
        (``sensing.feed_many``)."""
        sensing.feed_many(self, evs, now, after)

    def confirm_eye(self, slot: Slot, click: int | None, now: float, by: str) -> Result:
        """A player says the dial on ``slot``, whose encoder lost track, shows ``click`` (None:
        the click the rules put it at); refused with the reason (``eye.confirm``)."""
        st = self.slots.get(slot)
        if st is None:
            return Result(False, f"no dial of this game on dock {slot.dock}'s "
                                 f"{eye.reader_word(slot.dial)} reader")
        return eye.confirm(self, st, click, now, by)

    # ---- the clock ----------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Judge every dial that has rested long enough; move the game on when all agree."""
        if self._held is not None:
            sensing.settle_snapshot(self, now)
        for st in self.slots.values():
            if not st.judged and now - st.moved_at >= self.timing.judge_s:
                judge(self, st, now)
        self._changed(now)

    # ---- decisions (decisions.py) --------------------------------------------------------------

    def _dial_input(self, st: SlotState, now: float) -> str | None:
        """Read a settled input dial as its owner's decision: None when it became one, else
        why not ("" when the dial is no decision now)."""
        return decisions.read_dial(self, st, now)

    def ready(self, ignore: SlotState | None = None) -> bool:
        """Every dial agrees with the rules (no click due, no flag, no fault): play may go on."""
        if self.phase != PLAY:
            return False
        for st in self._slot_list:  # per event: kept to plain attribute reads
            if st is ignore:
                continue
            if st.exp is not None or st.flag is not None or st.fault:
                return False
            if st.seen is not None and st.want is not None and st.seen != st.want:
                return False
        return True

    def decide(self, text: str, now: float, seat: Seat | None = None) -> Result:
        """A decision typed in notation words (``shoot A1 front B2``)."""
        return decisions.decide(self, text, now, seat)

    def dispute(self, about: str, now: float) -> Result:
        """AA-M84 (Etiquette 4): one die from the game's dice; 1–3 not allowed, 4–6 allowed."""
        return decisions.dispute(self, about, now)

    def _apply(self, action: Any, now: float, how: str) -> list[str]:
        return decisions.apply(self, action, now, how)

    # ---- moving on ----------------------------------------------------------------------------

    def _changed(self, now: float) -> None:
        if self.phase == START and all(st.seen is not None for st in self.slots.values()) and \
                all(st.offset == 0 for st in self.slots.values()) and \
                not any(st.fault for st in self.slots.values()):
            self.phase = PLAY
            self.lines.append("# start check passed: every dial at its start click")
        while self.phase == PLAY and self._quiet_at != len(self.game.history) and self.ready():
            if self.game.outcome() is not None:
                self.phase = OVER
                self.lines.append("# game over")
                break
            if not (self.auto_table and self.game.to_move() == TABLE):
                self._quiet_at = len(self.game.history)
                break
            legal = self.game.legal_actions()
            if len(legal) != 1:
                self._quiet_at = len(self.game.history)
                break
            try:
                self._apply(legal[0], now, "the table")
                self.dice_error = ""
            except (DiceError, OSError) as e:  # left no trace: tried again at the next tick
                self.dice_error = f"the dice for {legal[0].text()} could not be rolled: {e}"
                break
        if self.on_change is not None:
            self.on_change(self)

    # ---- what to show -------------------------------------------------------------------------

    def waiting_for(self) -> list[str]:
        """What the tray waits for, in words."""
        out: list[str] = []
        for st in self.slots.values():
            if st.fault:
                out.append(st.fault)
            elif st.flag is not None:
                out.append(st.flag.text)
            elif st.seen is None:
                out.append(f"{st.label}: no reading yet")
            elif self.phase == START and st.offset:
                out.append(f"{st.label}: turn {turn(-st.offset)} to its start click")
            elif st.exp is not None:
                out.append(st.exp.text(-st.offset))
            elif st.offset:
                out.append(f"{st.label}: settling ({turn(st.offset)} off)")
        if self.dice_error:
            out.append(self.dice_error + " (trying again)")
        if not out:
            if self.phase == OVER:
                out.append("nothing: the game is over")
            else:
                out.append(f"{self.game.to_move()} to decide")
        return out

    def open_flags(self) -> list[mk.Flag]:
        return [st.flag for st in self.slots.values() if st.flag is not None]

    def docks(self) -> list[DockView]:
        want = self.dials()
        out = []
        for st in self.slots.values():
            setting = want.get(st.dial)
            out.append(DockView(
                st.slot.dock, st.slot.dial, st.label, st.dial.figure, st.dial.kind,
                setting.click if setting else None,
                dict(setting.values) if setting else {},
                dict(setting.colours) if setting else {},
                bool(setting.in_play) if setting else False,
                -st.offset if st.want is not None and not st.lost else 0,
                st.flag.kind if st.flag else ("turn" if st.exp else "ok")))
        return out

    def view(self) -> View:
        return build_view(self)

    def log_text(self, comment: str | None = None) -> str:
        """The game's notation log (``dialtray replay`` re-runs it); clicks are comments."""
        return format_log(self.game.kind, self.header, map(str, self.lines), comment)


__all__ = ["DEFAULT_DETENTS", "DEFAULT_UP", "OVER", "PLAY", "START", "ClickNote", "Result",
           "SlotState", "Timing", "Tracker", "View", "clicks", "turn"]
