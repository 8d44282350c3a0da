"""Events in: what the tray senses, applied to the readers' state.

A snapshot is the truth at its moment. The session follows a reconnect's snapshot at once with
the *recovered* clicks that explain it, so a later snapshot is only compared once those are in
(at the next other event or tick); whatever they leave unexplained (a snapshot asked for
directly) is a dial moved while the host was away. A click that brings a reader to where the
rules put it agrees at once (``expectations.agrees``); anything else waits to be judged
(``flags.judge``) once the dial has rested.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from dialtray.link.messages import (
    LOST_TRACK,
    STATUS_NAMES,
    Click,
    DialFault,
    Snapshot,
    TrayEvent,
)
from dialtray.tracker import eye, restored
from dialtray.tracker import marks as mk
from dialtray.tracker.binding import Slot
from dialtray.tracker.expectations import agrees
from dialtray.tracker.flags import judge, raise_flag, resolve
from dialtray.tracker.restored import note_restored, restoring
from dialtray.tracker.state import DEFAULT_DETENTS, PLAY, START, ClickNote, SlotState, nearest

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker


def feed(t: Tracker, ev: TrayEvent, now: float) -> None:
    """One event from the link, in order (see ``Tracker.feed``)."""
    t.events_seen += 1
    if type(ev) is Click:
        if t._held is not None and not ev.recovered:
            settle_snapshot(t, now)
        if 0 < ev.seq < t._skip_below:
            return  # already in the first snapshot's positions
        t._skip_below = 0
        st = t._at.get((ev.dock, ev.dial))
        if st is not None:
            if ev.recovered and ev.seq == 0 and restoring(t) and not _counted(t, ev):
                note_restored(t, st)  # from the snapshot: the replay was refused
            moved(t, st, ev.delta, now, ev.seq, away=ev.recovered)
        return
    if t._held is not None:
        settle_snapshot(t, now)
    if isinstance(ev, Snapshot):
        _snapshot(t, ev, now)
    elif isinstance(ev, DialFault):
        _fault(t, ev, now)


def _counted(t: Tracker, ev: Click) -> bool:
    """The held snapshot reads this dial with an encoder (lost track: a count, not an angle):
    its clicks restored after a refused replay are exact, so they are not to be checked but
    judged like any clicks made while the host was away."""
    held = t._held
    d = held.position(ev.dock, ev.dial) if held is not None else None
    return d is not None and d.status == LOST_TRACK


def feed_many(t: Tracker, evs: Sequence[TrayEvent], now: float,
              after: Callable[[int], None] | None = None) -> None:
    """Events that arrived together, in order, at one time ``now``: exactly ``feed`` one by one
    (the same readers, lines, flags). ``after(i)`` is called after event ``i`` when the tracker
    did more with it than note a click — a line other than its ``ClickNote``, a flag, a note, a
    confirmation (so a recorder writes what it made right behind it, in order); a plain click,
    the common case, costs no call. Why: the store's batch path (issue 35) records a burst of
    events without a Python call and a look at every list per event."""
    lines, flags, notes, confirmed = t.lines, t.flags, t.notes, t.confirmed
    nl, nf, nn, nc = len(lines), len(flags), len(notes), len(confirmed)
    for i, ev in enumerate(evs):
        feed(t, ev, now)
        k = len(lines)
        if k == nl + 1 and type(lines[-1]) is ClickNote and len(flags) == nf and \
                len(notes) == nn and len(confirmed) == nc:
            nl = k  # a click noted, nothing else
            continue
        if k == nl and type(ev) is Click and len(flags) == nf and len(notes) == nn and \
                len(confirmed) == nc:
            continue  # a click already in the snapshot, or on no bound reader
        if after is not None:
            after(i)
        nl, nf, nn, nc = len(lines), len(flags), len(notes), len(confirmed)


def _snapshot(t: Tracker, snap: Snapshot, now: float) -> None:
    first = False
    t.boot = snap.boot_id
    for d in snap.dials:
        st = t.slots.get(Slot(d.dock, d.dial))
        if st is None:
            continue
        st.detents = d.detents or DEFAULT_DETENTS
        if d.status == LOST_TRACK:  # an encoder: lost unless confirmed by eye in this boot
            eye.lose(t, st, now, d.position)
        elif d.status != 0 and not st.fault:
            st.fault = f"{st.label}: sensor {STATUS_NAMES.get(d.status, d.status)}"
            raise_flag(t, st, mk.FAULT, f"{st.fault} — the game waits until it is fixed", now)
        elif d.status == 0 and st.fault:
            st.fault = ""
            resolve(t, st, now, "sensor recovered")
        if st.seen is None:
            first = True
            st.seen = d.position + st.shift
            if st.count_boot is None:
                st.count_boot = snap.boot_id  # (restored by a resumed host: its boot's)
            init_want(t, st)
            st.judged = False
            st.moved_at = now
    if first:
        t._skip_below, t._skip_boot = snap.next_seq, snap.boot_id
    else:
        if snap.boot_id != t._skip_boot:  # a new boot (a tray restarted, e.g. `play --resume
            t._skip_below = 0  # --sim`): its clicks, seq 1 on, are not in the first snapshot
        t._held = snap
    t._changed(now)


def settle_snapshot(t: Tracker, now: float) -> None:
    """Compare the held snapshot, now that the clicks recovered with it are in."""
    snap, t._held = t._held, None
    assert snap is not None
    for d in snap.dials:
        st = t.slots.get(Slot(d.dock, d.dial))
        if st is None or st.seen is None or d.status != 0:
            continue
        diff = nearest(st, d.position) - st.seen  # (the nearer way round)
        if diff:
            moved(t, st, diff, now, 0, away=True)
    restored.settle(t, snap, now)


def init_want(t: Tracker, st: SlotState) -> None:
    setting = t.dials().get(st.dial)
    if setting is None or setting.click is None or st.seen is None:
        st.want, st.free = st.seen, True  # not set yet: where it rests now is fine
        return
    st.want = nearest(st, st.phys(setting.click))


def _fault(t: Tracker, ev: DialFault, now: float) -> None:
    st = t.slots.get(Slot(ev.dock, ev.dial))
    if st is None:
        return
    if ev.cleared:
        st.fault = ""
        if st.flag is not None and st.flag.kind == mk.FAULT:
            resolve(t, st, now, "sensor recovered")
    elif ev.code == LOST_TRACK:  # the boot's own report (or the link's, at a reboot)
        eye.lose(t, st, now, None)
    else:
        st.fault = str(ev)
        raise_flag(t, st, mk.FAULT, f"{st.label}: {ev} — the game waits until it is fixed", now)
    t._changed(now)


def moved(t: Tracker, st: SlotState, delta: int, now: float, seq: int, away: bool) -> None:
    """A reader turned ``delta`` clicks (sensed, recovered or found in a snapshot)."""
    seen = st.seen
    if seen is None:
        return  # before the first snapshot positions are unknown: the snapshot has it
    if st.lost:  # its encoder lost track: counted, but nothing to judge until confirmed by eye
        st.seen = seen + delta
        t.lines.append(ClickNote(st, delta, away))
        return
    want = st.want
    was = seen - want if want is not None else 0  # (st.offset, per click kept to plain reads)
    st.seen = seen = seen + delta
    if st.free and t.phase == START:
        st.want = want = seen
    st.moved_at = now
    st.judged = False
    if was == 0 and st.exp is None:
        st.excursion = 0
        st.away = False
        st.after_confirm = now <= st.grace_until and delta * st.grace_sign > 0
    if away:
        st.away = True
    offset = seen - want if want is not None else 0
    if abs(offset) > abs(st.excursion):
        st.excursion = offset
    t.lines.append(ClickNote(st, delta, away))
    if offset == 0:
        agrees(t, st, now, seq)
        t._changed(now)  # all dials may agree now: the game may go on
    elif away and st.exp is None and t.phase == PLAY:
        judge(t, st, now)
        t._changed(now)
    elif t.phase == START:
        t._changed(now)
    elif t.on_change is not None:
        t.on_change(t)


__all__ = ["feed", "feed_many", "init_want", "moved", "settle_snapshot"]
