"""Dials whose encoder lost track, confirmed by eye (a player says which click one shows).

An incremental (quadrature) encoder counts steps from where the tray started: the firmware
reports each such dial *lost track* for its whole boot and its positions relative to that boot
(``firmware/dialrig/dials.py``). The host cannot tell which click such a dial shows, so it is
flagged (a ``fault`` flag: the game waits) until a player looks at it and says "dock D's combat
dial shows click C" (default: the click the rules put it at; the flag says which). From then
on the tracker adds a per-dial ``shift`` to that boot's counts and tracks the dial exactly like
an absolute one: within a boot an encoder's count is exact (a refused replay restores its
clicks in full), so one confirmation per boot is enough. A new boot (the tray restarted: a
snapshot of another boot, or the boot's own lost-track report) makes the dial lost again.

The confirmation is a player's action, not a game decision: it is logged as a comment,
recorded for the judge (``EyeCheck``, the store's ``eye`` record: who, when, which click, the
boot and the encoder's count) and never changes the rules' state. A dial confirmed at another
click than the rules' is flagged (``away``) with the turn that puts it right, like a dial moved
while the host could not see it; it is never read as a decision meanwhile. A resumed host
(``play --resume``) gets the confirmations of the boot it resumes from the store
(``restore``); another boot's are never reused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialtray.tracker import marks as mk
from dialtray.tracker.expectations import agrees
from dialtray.tracker.flags import judge, raise_flag, resolve, rules_click
from dialtray.tracker.state import PLAY, Result, SlotState, nearest

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker

READER_WORDS = ("combat", "speed")


def reader_word(reader: int) -> str:
    """A dock's reader as a player names it (``combat``, ``speed``; another by its number)."""
    return READER_WORDS[reader] if reader < len(READER_WORDS) else str(reader)


def command(st: SlotState, click: int | None = None) -> str:
    """What a player types at `dialtray play` to confirm this dial (``eye 2 combat [3]``)."""
    return f"eye {st.slot.dock} {reader_word(st.slot.dial)}" + \
        ("" if click is None else f" {click}")


def lost_text(t: Tracker, st: SlotState) -> str:
    """The flag's words: why the host cannot read the dial, and how to confirm it by eye."""
    head = (f"{st.label}: its encoder lost track (it counts only from where the tray "
            "started), so the host cannot tell which click it shows. Look at it")
    click = rules_click(t, st)
    page = "on the page: Confirm by eye"
    if click is None:
        return (f"{head} and type `{command(st)} C` with the click C it shows (0 to "
                f"{st.detents - 1}: the rules have not set it yet; {page})")
    return (f"{head}: if it shows click {click}, where the rules put it, type "
            f"`{command(st)}` to confirm it by eye (another click C: `{command(st)} C`; "
            f"{page})")


def lose(t: Tracker, st: SlotState, now: float, count: int | None) -> None:
    """The dial's encoder lost track in the tray's boot ``t.boot`` (a snapshot says so, or the
    boot's own report): flagged until confirmed by eye, unless it already was in this boot.
    ``count``: the encoder's count now, when a snapshot gives it (the tracker keeps its last
    position and the shift that maps the new boot's counts onto it)."""
    if st.eye_boot is not None and st.eye_boot == t.boot:
        return  # confirmed in this boot: its count since is exact
    if count is not None and st.seen is not None and st.count_boot != t.boot:
        # A new boot's counts, mapped onto where the host last saw the dial. Within a boot the
        # clicks keep ``seen - shift`` equal to the count (a snapshot's count already holds
        # the recovered clicks that follow it: it must not be taken again).
        st.shift, st.count_boot = st.seen - count, t.boot
    st.eye_boot = None
    if st.lost and st.flag is not None and st.flag.kind == mk.FAULT:
        return  # flagged already (a reboot reports it twice: the snapshot and its own event)
    st.lost = True
    st.eyed = None
    st.fault = lost_text(t, st)
    raise_flag(t, st, mk.FAULT, st.fault, now)


def confirm(t: Tracker, st: SlotState, click: int | None, now: float, by: str) -> Result:
    """A player says ``st`` shows ``click`` (None: the click the rules put it at)."""
    if not st.lost:
        why = "its sensor reports a fault, not lost track" if st.fault else \
            "its sensor reads it (it has not lost track)"
        return Result(False, f"{st.label}: {why}: only a dial whose encoder lost track is "
                             "confirmed by eye")
    if st.seen is None:
        return Result(False, f"{st.label}: no reading from the tray yet: wait for it")
    rules = rules_click(t, st)
    if click is None:
        if rules is None:
            return Result(False, f"{st.label}: the rules have not set it yet: say which click "
                                 f"it shows (`{command(st)} CLICK`, 0 to {st.detents - 1})")
        click = rules
    if not 0 <= click < st.detents:
        return Result(False, f"{st.label}: there is no click {click}: its dial has clicks 0 "
                             f"to {st.detents - 1}")
    count = st.seen - st.shift
    st.seen = nearest(st, st.phys(click), st.want)  # (nearest where the rules put it)
    st.shift = st.seen - count
    st.lost, st.fault, st.eye_boot = False, "", t.boot
    if st.free:
        st.want = st.seen  # not set yet: where it rests is fine
    check = mk.EyeCheck(st.label, st.slot.dock, st.slot.dial, st.dial.figure, st.dial.kind,
                        click, rules, t.boot, count, st.shift, by, now)
    t.eyes.append(check)
    t.lines.append(f"# eye: {check.text()}")
    resolve(t, st, now, f"confirmed by eye at click {click} by {by}")
    st.moved_at, st.excursion, st.away = now, 0, False
    if st.offset == 0:
        agrees(t, st, now, 0)
    elif t.phase == PLAY and st.exp is None:
        st.eyed = click
        judge(t, st, now)  # flagged: the turn that puts it where the rules say
    else:
        st.judged = True  # the start check or the clicks due say what to turn
    t._changed(now)
    return Result(True, check.text())


def restore(t: Tracker, checks: list[mk.EyeCheck], boot: int | None) -> list[str]:
    """A resumed host: the latest confirmation of each dial made in tray boot ``boot`` (the
    boot the store resumes from) holds again; the labels restored."""
    done = []
    for where, c in latest(checks, boot).items():
        st = t._at.get(where)
        if st is not None:
            st.eye_boot, st.shift, st.count_boot = c.boot, c.shift, c.boot
            done.append(st.label)
    return done


def latest(checks: list[mk.EyeCheck], boot: int | None) -> dict[tuple[int, int], mk.EyeCheck]:
    """Per (dock, reader): the latest of ``checks`` made in tray boot ``boot`` (another boot's
    counts started from elsewhere: never reused; ``boot`` None: none)."""
    if boot is None:
        return {}
    return {(c.dock, c.reader): c for c in checks if c.boot == boot}


def looked(st: SlotState) -> int:
    """The click a dial shows where the host last saw it (what a bot, which turned its own
    dials, says it sees)."""
    return (st.seen or 0) * st.up % st.detents


__all__ = ["command", "confirm", "latest", "looked", "lose", "lost_text", "reader_word",
           "restore"]
