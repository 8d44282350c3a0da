"""Expectations: every ``DialChange`` of an applied action becomes clicks due on its reader
(``dock 4 combat dial (B2): 2 clicks clockwise — …, AA-M45``); a reader that shows what the
rules say again confirms them (or, with none due, was only peeked: AA-M81, noted for the judge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialtray.rules.core.dials import SET, DialChange
from dialtray.tracker import marks as mk
from dialtray.tracker.flags import resolve
from dialtray.tracker.state import PLAY, SlotState, nearest, turn

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker


def expect(t: Tracker, ch: DialChange, now: float) -> None:
    """The rules changed a dial: where its reader must now be, and the clicks due to get it
    there."""
    st = t._by_dial.get(ch.key)
    if st is None:
        return
    if ch.direction == SET or st.want is None or st.free:
        target = nearest(st, st.phys(ch.to_click))
        st.free = False
    else:
        target = st.want + st.phys(ch.delta)
    if st.want is not None and target == st.want:
        if ch.direction == SET and st.offset == 0:  # set by turning it there: confirmed
            t.confirmed.append(mk.Confirmation(ch.text(), st.dial, 0, now, 0, True))
        return
    old = st.want if st.want is not None else (st.seen or 0)
    st.want = target
    if st.exp is None:
        st.exp = mk.Expectation(st.label, st.dial, old, 0, [], now)
    st.exp.total += target - old
    st.exp.causes.append(ch)
    if st.exp.total == 0 or st.offset == 0:
        agrees(t, st, now, 0)
    else:
        st.judged = True  # judged once a player has turned it and let go


def agrees(t: Tracker, st: SlotState, now: float, seq: int) -> None:
    """The reader shows what the rules say again."""
    st.judged = True
    if st.exp is not None:
        exp, st.exp = st.exp, None
        free = any(c.direction == SET for c in exp.causes)
        t.confirmed.append(mk.Confirmation(exp.text(), st.dial, exp.total, now, seq, free))
        t.lines.append(f"# confirmed: {exp.text()}")
        st.grace_until = now + t.timing.grace_s
        st.grace_sign = 1 if exp.total > 0 else -1
    elif st.flag is None and st.excursion and t.phase == PLAY:
        text = peek_text(st.label, st.excursion, st.excursion * st.up > 0)
        flag = mk.Flag(mk.PEEK, st.label, text, now, now, "back where it was")
        t.flags.append(flag)
        t.notes.append(text)
        t.lines.append(f"# judge: {text}")
    if st.flag is not None and st.flag.kind != mk.FAULT:
        resolve(t, st, now, "checked: turned to where the rules put it"
                if st.flag.kind == mk.CHECK else "dial agrees")
    st.refused = st.failed = ""
    st.restored = False  # (a dial restored again by the same snapshot is flagged again)
    st.eyed = None  # confirmed by eye elsewhere, now where the rules put it
    st.excursion = 0


_PEEKS: dict[tuple[str, int, bool], str] = {}


def peek_text(label: str, excursion: int, ahead: bool) -> str:
    """AA-M81 (dials turn only when clicks are due): a dial turned and turned back while no
    click was due, in words for the judge — the same few texts over and over in a game, so
    each is made once."""
    key = (label, excursion, ahead)
    text = _PEEKS.get(key)
    if text is None:
        text = (f"{label}: turned {turn(excursion)} {'ahead ' if ahead else ''}and back while "
                "no click was due — a peek (AA-M81: dials turn only when clicks are due), "
                "recorded for the judge")
        if len(_PEEKS) >= 1024:
            _PEEKS.clear()
        _PEEKS[key] = text
    return text


__all__ = ["agrees", "expect", "peek_text"]
