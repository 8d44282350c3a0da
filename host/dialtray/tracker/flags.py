"""Flags: a dial that rests (``Timing.judge_s``) somewhere the rules do not put it is flagged
with the instruction that ends it — too few, too many, wrong direction, wrong dial, a spin nobody
caused, moved while the host was away, a refused dial decision, a sensor fault. No decision is
taken while any dial disagrees: the game waits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialtray.tracker import marks as mk
from dialtray.tracker.state import PLAY, START, SlotState, clicks, turn

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker


def judge(t: Tracker, st: SlotState, now: float) -> None:
    """The reader has rested: read it as a decision (an input dial) or flag what is wrong."""
    st.judged = True
    if t.phase == START or st.offset == 0 or st.lost:  # (lost: flagged until confirmed)
        return
    st.refused = st.failed
    if st.exp is None and not st.away and not st.failed and not st.restored and \
            st.eyed is None and st.dial.kind in t.input_kinds:
        why = t._dial_input(st, now)
        if why is None:
            return
        st.refused = why
    kind, text = classify(t, st)
    if st.flag is not None and st.flag.kind == kind:
        st.flag.text = text
        return
    if st.flag is not None:
        resolve(t, st, now, f"now {kind}")
    raise_flag(t, st, kind, text, now)


def classify(t: Tracker, st: SlotState) -> tuple[str, str]:
    """What is wrong with a reader that disagrees, and the exact turn that puts it right."""
    if st.restored:
        return mk.CHECK, check_text(t, st)
    if st.eyed is not None:
        return mk.AWAY, eyed_text(t, st)
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
    for other in t.slots.values():
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


def rules_click(t: Tracker, st: SlotState) -> int | None:
    """The click the rules put ``st``'s dial at now (None: not set yet)."""
    setting = t.dials().get(st.dial)
    return setting.click if setting is not None else None


def check_text(t: Tracker, st: SlotState) -> str:
    """A dial restored from its sensor after a refused replay (``restored``): which dial, why
    it must be checked, and what confirms it."""
    click = rules_click(t, st)
    head = (f"{st.label}: check it — its clicks while the host was away could not be "
            "replayed (the tray's log no longer held them), so it was read from the sensor")
    if st.offset == 0:
        if click is None:
            return f"{head}; the rules have not set it yet: turn it one click and back"
        return (f"{head} at click {click}, where the rules put it: if it shows click {click}, "
                "turn it one click and back (if not, call the judge)")
    exp = st.exp
    due = "" if exp is None else \
        f" ({turn(exp.total)} {'was' if abs(exp.total) == 1 else 'were'} due: {exp.cause_text()})"
    to = "" if click is None else f" to click {click}"
    return f"{head}{due}: turn it {turn(-st.offset)}{to}"


def eyed_text(t: Tracker, st: SlotState) -> str:
    """A dial confirmed by eye at another click than the rules' (``eye``): the turn that puts
    it right."""
    click = rules_click(t, st)
    to = "" if click is None else f" to click {click}"
    return (f"{st.label}: confirmed by eye at click {st.eyed}, not where the rules put it: "
            f"turn it {turn(-st.offset)}{to}")


def raise_flag(t: Tracker, st: SlotState, kind: str, text: str, now: float) -> None:
    if st.flag is not None:
        resolve(t, st, now, f"now {kind}")
    flag = mk.Flag(kind, st.label, text, now)
    st.flag = flag
    t.flags.append(flag)
    t.lines.append(f"# flag {kind}: {text}")


def resolve(t: Tracker, st: SlotState, now: float, how: str) -> None:
    flag, st.flag = st.flag, None
    if flag is not None and flag.resolved is None:
        flag.resolved = now
        flag.resolution = how
        t.lines.append(f"# put right ({flag.kind}): {flag.label}")


def remind(t: Tracker, now: float) -> None:
    """Someone tries to go on while clicks are still due on untouched dials: those are
    clicks forgotten (too few), flagged now with what to turn."""
    for st in t._slot_list:
        if st.exp is not None and st.flag is None and st.seen == st.exp.start and \
                t.phase == PLAY:
            kind, text = classify(t, st)
            raise_flag(t, st, kind, text, now)


__all__ = ["check_text", "classify", "eyed_text", "judge", "raise_flag", "remind", "resolve",
           "rules_click"]
