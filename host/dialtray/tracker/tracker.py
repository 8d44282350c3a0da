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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dialtray.link.messages import STATUS_NAMES, Click, DialFault, Snapshot, TrayEvent
from dialtray.rules.core.dials import (
    CLOCKWISE,
    COUNTER_CLOCKWISE,
    SET,
    SPEED,
    Dial,
    DialChange,
    DialSetting,
)
from dialtray.rules.core.errors import DiceError, IllegalActionError, InvalidActionError
from dialtray.rules.core.game import TABLE, Game, Seat
from dialtray.rules.core.notation import format_action_line, format_log
from dialtray.tracker import marks as mk
from dialtray.tracker.binding import Binding, BindingError, Slot
from dialtray.tracker.dialinput import (
    DialOption,
    dial_option,
    dial_options,
    extend_notation,
    refusal,
)
from dialtray.tracker.dice import TableDice
from dialtray.tracker.view import DockView, View, build_view

START = "start-check"
PLAY = "play"
OVER = "over"
DEFAULT_DETENTS = 12
DEFAULT_UP = {SPEED: COUNTER_CLOCKWISE}
"""Physical direction of a rising click index per dial kind (default clockwise): Air Action's
speed dial throttles up counter-clockwise (AA-M02, core.dials)."""


@dataclass(frozen=True)
class Timing:
    judge_s: float = 0.6  # a dial must rest this long before it is judged (a person's pause)
    grace_s: float = 1.5  # a click just after a confirmation, same way, is "too many"


@dataclass(frozen=True)
class Result:
    """The answer to a typed decision or a dispute."""

    ok: bool
    message: str
    events: tuple[str, ...] = ()
    retry: bool = False  # not the rules' refusal: the same decision may simply be tried again


@dataclass
class SlotState:
    slot: Slot
    dial: Dial
    label: str
    up: int  # +1: a rising click index is clockwise
    detents: int = DEFAULT_DETENTS
    seen: int | None = None  # sensed position, unwrapped (clockwise clicks)
    want: int | None = None  # where the rules put it (None: anywhere yet)
    exp: mk.Expectation | None = None
    flag: mk.Flag | None = None
    moved_at: float = 0.0
    judged: bool = True  # judged since it last moved
    excursion: int = 0  # furthest offset since it last agreed
    away: bool = False
    after_confirm: bool = False
    grace_until: float = 0.0
    grace_sign: int = 0
    free: bool = False  # not set yet (Air Action speed before the first turn): any place will do
    refused: str = ""  # why this dial decision is refused (judged afresh each time)
    failed: str = ""  # the engine took the decision but not the dial's new place
    fault: str = ""

    @property
    def offset(self) -> int:
        if self.seen is None or self.want is None:
            return 0
        return self.seen - self.want

    def phys(self, click: int) -> int:
        return click * self.up


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
        self._skip_below = 0  # clicks below this sequence are in the first snapshot already
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
        if self.game.to_move() in (None, TABLE):
            return None
        return dial_option(self.game, self.dice, self.input_kinds, action)

    def slot_of(self, dial: Dial) -> SlotState | None:
        return self._by_dial.get(dial)

    # ---- events in ----------------------------------------------------------------------------

    def feed(self, ev: TrayEvent, now: float) -> None:
        """One event from the link (``TraySession.subscribe`` / ``stream``), in order.

        A snapshot is the truth at its moment. The session follows a reconnect's snapshot at
        once with the *recovered* clicks that explain it, so a later snapshot is only compared
        once those are in (at the next other event or tick); whatever they leave unexplained
        (a snapshot asked for directly) is a dial moved while the host was away."""
        self.events_seen += 1
        if type(ev) is Click:
            if self._held is not None and not ev.recovered:
                self._settle_snapshot(now)
            if 0 < ev.seq < self._skip_below:
                return  # already in the first snapshot's positions
            self._skip_below = 0
            st = self._at.get((ev.dock, ev.dial))
            if st is not None:
                self._moved(st, ev.delta, now, ev.seq, away=ev.recovered)
            return
        if self._held is not None:
            self._settle_snapshot(now)
        if isinstance(ev, Snapshot):
            self._snapshot(ev, now)
        elif isinstance(ev, DialFault):
            self._fault(ev, now)

    def _snapshot(self, snap: Snapshot, now: float) -> None:
        first = False
        for d in snap.dials:
            st = self.slots.get(Slot(d.dock, d.dial))
            if st is None:
                continue
            st.detents = d.detents or DEFAULT_DETENTS
            if d.status != 0 and not st.fault:
                st.fault = f"{st.label}: sensor {STATUS_NAMES.get(d.status, d.status)}"
                self._raise(st, mk.FAULT, f"{st.fault} — the game waits until it is fixed", now)
            elif d.status == 0 and st.fault:
                st.fault = ""
                self._resolve(st, now, "sensor recovered")
            if st.seen is None:
                first = True
                st.seen = d.position
                self._init_want(st)
                st.judged = False
                st.moved_at = now
        if first:
            self._skip_below = snap.next_seq
        else:
            self._held = snap
        self._changed(now)

    def _settle_snapshot(self, now: float) -> None:
        snap, self._held = self._held, None
        assert snap is not None
        for d in snap.dials:
            st = self.slots.get(Slot(d.dock, d.dial))
            if st is None or st.seen is None or d.status != 0:
                continue
            diff = (d.position - st.seen) % st.detents
            if diff > st.detents // 2:
                diff -= st.detents
            if diff:
                self._moved(st, diff, now, 0, away=True)

    def _init_want(self, st: SlotState) -> None:
        setting = self.dials().get(st.dial)
        if setting is None or setting.click is None or st.seen is None:
            st.want, st.free = st.seen, True  # not set yet: where it rests now is fine
            return
        st.want = self._nearest(st, st.phys(setting.click))

    def _nearest(self, st: SlotState, pos: int) -> int:
        """The unwrapped position equal to ``pos`` modulo the detents nearest the sensed one."""
        seen = st.seen if st.seen is not None else 0
        d = (pos - seen) % st.detents
        if d > st.detents // 2:
            d -= st.detents
        return seen + d

    def _fault(self, ev: DialFault, now: float) -> None:
        st = self.slots.get(Slot(ev.dock, ev.dial))
        if st is None:
            return
        if ev.cleared:
            st.fault = ""
            if st.flag is not None and st.flag.kind == mk.FAULT:
                self._resolve(st, now, "sensor recovered")
        else:
            st.fault = str(ev)
            self._raise(st, mk.FAULT, f"{st.label}: {ev} — the game waits until it is fixed", now)
        self._changed(now)

    def _moved(self, st: SlotState, delta: int, now: float, seq: int, away: bool) -> None:
        if st.seen is None:
            return  # before the first snapshot positions are unknown: the snapshot has it
        was = st.offset
        st.seen += delta
        if st.free and self.phase == START:
            st.want = st.seen
        st.moved_at = now
        st.judged = False
        if was == 0 and st.exp is None:
            st.excursion = 0
            st.away = False
            st.after_confirm = now <= st.grace_until and delta * st.grace_sign > 0
        if away:
            st.away = True
        offset = st.offset
        if abs(offset) > abs(st.excursion):
            st.excursion = offset
        self.lines.append(ClickNote(st, delta, away))
        if offset == 0:
            self._agrees(st, now, seq)
            self._changed(now)  # all dials may agree now: the game may go on
        elif away and st.exp is None and self.phase == PLAY:
            self._judge(st, now)
            self._changed(now)
        elif self.phase == START:
            self._changed(now)
        elif self.on_change is not None:
            self.on_change(self)

    def _agrees(self, st: SlotState, now: float, seq: int) -> None:
        """The reader shows what the rules say again."""
        st.judged = True
        if st.exp is not None:
            exp, st.exp = st.exp, None
            free = any(c.direction == SET for c in exp.causes)
            self.confirmed.append(mk.Confirmation(exp.text(), st.dial, exp.total, now, seq, free))
            self.lines.append(f"# confirmed: {exp.text()}")
            st.grace_until = now + self.timing.grace_s
            st.grace_sign = 1 if exp.total > 0 else -1
        elif st.flag is None and st.excursion and self.phase == PLAY:
            ahead = "ahead " if st.excursion * st.up > 0 else ""
            text = (f"{st.label}: turned {turn(st.excursion)} {ahead}and back while no click "
                    "was due — a peek (AA-M81: dials turn only when clicks are due), recorded "
                    "for the judge")
            flag = mk.Flag(mk.PEEK, st.label, text, now, now, "back where it was")
            self.flags.append(flag)
            self.notes.append(text)
            self.lines.append(f"# judge: {text}")
        if st.flag is not None and st.flag.kind != mk.FAULT:
            self._resolve(st, now, "dial agrees")
        st.refused = st.failed = ""
        st.excursion = 0

    # ---- the clock ----------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Judge every dial that has rested long enough; move the game on when all agree."""
        if self._held is not None:
            self._settle_snapshot(now)
        for st in self.slots.values():
            if not st.judged and now - st.moved_at >= self.timing.judge_s:
                self._judge(st, now)
        self._changed(now)

    def _judge(self, st: SlotState, now: float) -> None:
        st.judged = True
        if self.phase == START or st.offset == 0:
            return
        st.refused = st.failed
        if st.exp is None and not st.away and not st.failed and st.dial.kind in \
                self.input_kinds:
            why = self._dial_input(st, now)
            if why is None:
                return
            st.refused = why
        kind, text = self._classify(st)
        if st.flag is not None and st.flag.kind == kind:
            st.flag.text = text
            return
        if st.flag is not None:
            self._resolve(st, now, f"now {kind}")
        self._raise(st, kind, text, now)

    def _classify(self, st: SlotState) -> tuple[str, str]:
        fix = f"turn it {turn(-st.offset)}"
        exp = st.exp
        if exp is not None:
            moved = exp.total + st.offset
            sign = 1 if exp.total > 0 else -1
            due = (f"{turn(exp.total)} {'was' if abs(exp.total) == 1 else 'were'} due "
                   f"({exp.cause_text()})")
            if moved * sign < 0:
                return mk.WRONG_DIRECTION, (f"{st.label}: turned the wrong way ({turn(moved)}); "
                                            f"{due}: {fix}")
            if moved * sign > abs(exp.total):
                return mk.TOO_MANY, f"{st.label}: {clicks(st.offset)} too many; {due}: {fix} back"
            return mk.TOO_FEW, f"{st.label}: {clicks(st.offset)} short; {due}: {fix} more"
        if st.away:
            return mk.AWAY, (f"{st.label}: moved {turn(st.offset)} while the host was not "
                             f"listening (the tray's snapshot says so): {fix}")
        if st.refused:
            return mk.REFUSED, f"{st.label}: {st.refused}: {fix} back"
        for other in self.slots.values():
            oe = other.exp
            if other is not st and oe is not None and other.seen == oe.start and \
                    oe.total == st.offset:
                return mk.WRONG_DIAL, (f"{st.label}: turned {turn(st.offset)}, but those clicks "
                                       f"are due on {other.label} ({oe.cause_text()}): {fix} "
                                       f"back, then turn {other.label} {turn(oe.total)}")
        if st.after_confirm:
            return mk.TOO_MANY, f"{st.label}: {clicks(st.offset)} too many: {fix} back"
        return mk.UNEXPECTED, (f"{st.label}: turned {turn(st.offset)} that nobody caused "
                               f"(AA-M81: dials turn only when clicks are due): {fix} back")

    def _raise(self, st: SlotState, kind: str, text: str, now: float) -> None:
        if st.flag is not None:
            self._resolve(st, now, f"now {kind}")
        flag = mk.Flag(kind, st.label, text, now)
        st.flag = flag
        self.flags.append(flag)
        self.lines.append(f"# flag {kind}: {text}")

    def _resolve(self, st: SlotState, now: float, how: str) -> None:
        flag, st.flag = st.flag, None
        if flag is not None and flag.resolved is None:
            flag.resolved = now
            flag.resolution = how
            self.lines.append(f"# put right ({flag.kind}): {flag.label}")

    # ---- dials as input -----------------------------------------------------------------------

    def _dial_input(self, st: SlotState, now: float) -> str | None:
        """Read a settled input dial as its owner's decision: None when it became one, else
        why not ("" when the dial is no decision now)."""
        opts = [o for o in self.options() if o.dial == st.dial]
        if not opts or not self.ready(ignore=st):
            return ""
        assert st.seen is not None
        for o in opts:
            if o.delta is None:
                if st.free and (st.seen - st.phys(o.to_click)) % st.detents == 0:
                    self._apply_input(st, o, now)
                    return None
            elif st.want is not None and st.seen == st.want + st.phys(o.delta):
                self._apply_input(st, o, now)
                return None
        if st.free or st.want is None:
            return "not a setting the rules allow here"
        delta = st.offset * st.up
        text = extend_notation(opts, delta)
        why = refusal(self.game, self.dice, text) if text else None
        if why:
            self.lines.append(f"# refused: {why}")
        return why or f"{turn(st.offset)} is not a legal {st.dial.kind} change now"

    def _apply_input(self, st: SlotState, o: DialOption, now: float) -> None:
        seat = self.game.to_move()
        events = self._apply(o.action, now, f"{seat}: read from {st.label}")
        if st.want is not None and st.offset != 0:  # the engine did not take the dial there
            st.failed = f"the rules did not take it ({'; '.join(events) or o.text})"
            st.judged = False
            st.moved_at = now - self.timing.judge_s

    # ---- decisions ----------------------------------------------------------------------------

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
        if self.phase == OVER:
            return Result(False, "the game is over")
        if not self.ready():
            self._remind(now)
            return Result(False, "the tray waits for the dials first: "
                          + "; ".join(self.waiting_for()))
        who = self.game.to_move()
        if seat is not None and who not in (seat, TABLE):
            return Result(False, f"{who} decides now, not {seat}")
        try:
            action = self.game.parse_action(text)
            events = self._apply(action, now, f"typed by {seat or who}")
        except (InvalidActionError, IllegalActionError) as e:
            return Result(False, str(e))
        except (DiceError, OSError) as e:  # the engine left no trace of the action: try again
            return Result(False, f"the dice could not be rolled, so {text!r} was not taken "
                          f"(try again): {e}", retry=True)
        self._changed(now)
        return Result(True, action.text(), tuple(events))

    def _remind(self, now: float) -> None:
        """Someone tries to go on while clicks are still due on untouched dials: those are
        clicks forgotten (too few), flagged now with what to turn."""
        for st in self._slot_list:
            if st.exp is not None and st.flag is None and st.seen == st.exp.start and \
                    self.phase == PLAY:
                kind, text = self._classify(st)
                self._raise(st, kind, text, now)

    def dispute(self, about: str, now: float) -> Result:
        """AA-M84 (Etiquette 4): one die from the game's dice; 1–3 not allowed, 4–6 allowed.
        Engines with a ``dispute`` action log it; otherwise the tracker rolls and logs it."""
        try:
            action = self.game.parse_action(f"dispute {about}")
        except InvalidActionError:
            action = None
        try:
            if action is not None:
                events = self._apply(action, now, "dispute")
                face = self.dice.last.faces[0] if self.dice.last else 0
            else:
                face = self.dice.roll(1, f"dispute: {about}")[0]
        except IllegalActionError as e:
            return Result(False, str(e))
        except (DiceError, OSError) as e:
            return Result(False, f"the die for the dispute could not be rolled: {e}", retry=True)
        if action is None:
            self.dice.take()
            events = [f"dispute {about}: rolled {face}"]
            self.lines.append(f"# dispute {about} | {face} (AA-M84)")
        verdict = "allowed" if face >= 4 else "not allowed"
        text = f"dispute '{about}': rolled {face} — {verdict} (AA-M84: 1-3 no, 4-6 yes)"
        self.notes.append(text)
        self.lines.append(f"# judge: {text}")
        self._changed(now)
        return Result(face >= 4, text, tuple(events))

    def _apply(self, action: Any, now: float, how: str) -> list[str]:
        self.dice.take()
        events = self.game.apply(action)
        faces = [f for r in self.dice.take() for f in r.faces]
        texts = [e.text() for e in events]
        self.lines.append(format_action_line(action.text(), faces, texts))
        self.lines.append(f"# ({how})")
        for ch in self.game.dial_changes():
            self._expect(ch, now)
        return texts

    def _expect(self, ch: DialChange, now: float) -> None:
        st = self._by_dial.get(ch.key)
        if st is None:
            return
        if ch.direction == SET or st.want is None or st.free:
            target = self._nearest(st, st.phys(ch.to_click))
            st.free = False
        else:
            target = st.want + st.phys(ch.delta)
        if st.want is not None and target == st.want:
            if ch.direction == SET and st.offset == 0:  # set by turning it there: confirmed
                self.confirmed.append(mk.Confirmation(ch.text(), st.dial, 0, now, 0, True))
            return
        old = st.want if st.want is not None else (st.seen or 0)
        st.want = target
        if st.exp is None:
            st.exp = mk.Expectation(st.label, st.dial, old, 0, [], now)
        st.exp.total += target - old
        st.exp.causes.append(ch)
        if st.exp.total == 0 or st.offset == 0:
            self._agrees(st, now, 0)
        else:
            st.judged = True  # judged once a player has turned it and let go

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
                -st.offset if st.want is not None else 0,
                st.flag.kind if st.flag else ("turn" if st.exp else "ok")))
        return out

    def view(self) -> View:
        return build_view(self)

    def log_text(self, comment: str | None = None) -> str:
        """The game's notation log (``dialtray replay`` re-runs it); clicks are comments."""
        return format_log(self.game.kind, self.header, map(str, self.lines), comment)


class ClickNote:
    """A sensed click in the log (a comment), formatted only when the log is written: the
    tracker sees every click and must stay cheap per event."""

    __slots__ = ("away", "delta", "slot")

    def __init__(self, st: SlotState, delta: int, away: bool) -> None:
        self.slot, self.delta, self.away = st, delta, away

    def __str__(self) -> str:
        st = self.slot
        return (f"# click {st.slot.text()} {self.delta:+d}"
                f"{' (recovered)' if self.away else ''} [{st.dial.figure} {st.dial.kind}]")


def turn(n: int) -> str:
    return mk.turn_words(n)


def clicks(n: int) -> str:
    return f"{abs(n)} click{'' if abs(n) == 1 else 's'}"


__all__ = ["OVER", "PLAY", "START", "Result", "SlotState", "Timing", "Tracker", "View"]
