"""Dials restored from the sensor after a refused replay: flagged until the players check them.

When the host is away (the cable out, the host crashed) for longer than the tray's ring log
lasts, the tray refuses the replay and the link restores each dial from the tray's snapshot
(``link.reconcile``): the clicks it missed are delivered as *recovered* clicks, the difference
between where the host last saw each dial and where its sensor reads it now. An absolute dial
(AS5600) knows its angle, not how many turns it made, so one moved more than half a turn is
read the nearer way round: its restored clicks may be wrong in amount and direction; only where
it is now is certain. The players must not be told "moved 4 clicks counter-clockwise" of a dial
turned 8 clockwise, nor be left unaware that the tray's record of it has a hole.

So every dial whose position changed in such a snapshot is flagged ``check`` (``marks.CHECK``,
blocking like every flag): which dial, that its clicks while the host was away could not be
replayed and that it was read from the sensor, and what puts it right — turned to the click the
rules say, or, when it already shows that click, turned one click and back (the players have
looked at it and touched it: the tray sees it go and come back). A judge's ruling on the dial
(``set-dial``, ``undo``) clears it too. A dial the snapshot finds where the host left it is not
flagged: an absolute sensor reads the same click (a whole turn changes nothing a player sees)
and an encoder's count is exact within a boot. A note for the judge says that the replay was
refused and how many events it lost, flagged dials or none, and goes into the game's record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialtray.link.messages import UNREPLAYED, Snapshot
from dialtray.tracker import marks as mk
from dialtray.tracker.flags import check_text, raise_flag
from dialtray.tracker.state import SlotState

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker


def restoring(t: Tracker) -> bool:
    """A snapshot that stands in for events never replayed is held: the recovered clicks that
    follow it are restored from the dials' sensors."""
    held = t._held
    return held is not None and held.reason in UNREPLAYED


def note_restored(t: Tracker, st: SlotState) -> None:
    """``st`` moved in the held snapshot (its recovered click is about to be applied)."""
    st.restored = True
    if st not in t._restored:
        t._restored.append(st)


def settle(t: Tracker, snap: Snapshot, now: float) -> None:
    """The held snapshot's recovered clicks are in: flag each restored dial, note the gap."""
    slots, t._restored = t._restored, []
    if snap.reason not in UNREPLAYED:
        return
    labels = []
    for st in slots:
        if st.fault or st.seen is None:  # flagged as a fault; or never read before: the
            st.restored = False  # snapshot is its first reading
            continue
        st.restored = True
        labels.append(st.label)
        text = check_text(t, st)
        if st.flag is not None and st.flag.kind == mk.CHECK:
            st.flag.text = text
        else:
            raise_flag(t, st, mk.CHECK, text, now)
        st.judged = True
    lost = f"{snap.missed} of the tray's events" if snap.missed else "the tray's events"
    note = (f"the host was away longer than the tray's ring log lasts: {lost} could not be "
            f"replayed ({snap.reason}), so the dials were read from their sensors; " +
            (f"to be checked by the players: {', '.join(labels)}" if labels else
             "every dial reads where the host last saw it"))
    t.notes.append(note)
    t.lines.append(f"# judge: {note}")
    t._changed(now)


def recheck(t: Tracker, labels: list[str], now: float) -> list[str]:
    """A resumed game: the dials (by label) whose check was still open when the last host
    stopped are flagged again (``store.resume.carry_checks``); the labels flagged."""
    done = []
    for st in t.slots.values():
        if st.label in labels and st.seen is not None:
            st.restored = True
            text = f"{check_text(t, st)} (still to be checked when the host restarted)"
            raise_flag(t, st, mk.CHECK, text, now)
            st.judged = True
            done.append(st.label)
    if done:
        t._changed(now)
    return done


__all__ = ["note_restored", "recheck", "restoring", "settle"]
