"""From a snapshot to recovered clicks: what the dials did while the host was not watching.

The host remembers every dial's last delivered position. A snapshot after a reboot or a lost
replay window says where the dials are now; for absolute sensors (AS5600) the difference is the
net movement the host missed, delivered as *recovered* clicks (certain in amount, not in timing,
up to half a revolution: an absolute sensor knows its angle, not how many turns it made, so a
dial moved further is read the nearer way round).
Incremental encoders cannot know what happened while the tray was off: they report that they
lost track instead; within one boot their count is exact, so a lost replay window restores them
in full. A snapshot that stands in for a refused replay says so (``Snapshot.reason`` in
``UNREPLAYED``, ``missed``): the tracker flags each dial it restored to be checked
(``dialtray.tracker.restored``). Pure functions over a dict, so the arithmetic is tested without
a tray.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from dialrig import proto

from dialtray.link.messages import Click, DialFault, DialState, RawEvent, Snapshot, TrayEvent


@dataclass
class DialMemory:
    sensor: str
    detents: int
    position: int


def wrap(d: DialState, position: int) -> int:
    """An absolute dial's position modulo its detents; incremental counts are unbounded."""
    return position % d.detents if d.sensor == "as5600" and d.detents else position


def at_boot(snap: Snapshot, events: Iterable[RawEvent]) -> Snapshot:
    """The positions at boot: the snapshot minus every click logged before it."""
    moved: Counter[tuple[int, int]] = Counter()
    for raw in events:
        if raw.kind == proto.EV_CLICK:
            moved[(raw.dock, raw.dial)] += raw.extra
    dials = tuple(replace(d, position=wrap(d, d.position - moved[(d.dock, d.dial)]))
                  for d in snap.dials)
    return replace(snap, dials=dials)


def reconcile(memory: dict[tuple[int, int], DialMemory], snap: Snapshot, rebooted: bool,
              counters: Counter[str]) -> list[TrayEvent]:
    """The events that bring a consumer from ``memory`` to ``snap`` (the snapshot itself first);
    ``memory`` is updated to the snapshot."""
    out: list[TrayEvent] = [snap]
    for d in snap.dials:
        key = (d.dock, d.dial)
        old = memory.get(key)
        memory[key] = DialMemory(d.sensor, d.detents, d.position)
        if d.sensor == "none" or old is None or old.sensor != d.sensor:
            continue
        if d.status == proto.ST_LOST_TRACK and rebooted:
            out.append(DialFault(0, d.dock, d.dial, proto.ST_LOST_TRACK))
            continue
        if d.status in (proto.ST_NAK, proto.ST_NO_MAGNET):
            out.append(DialFault(0, d.dock, d.dial, d.status))
            continue
        delta = d.position - old.position
        if d.sensor == "as5600" and d.detents:
            delta %= d.detents
            if delta > d.detents // 2:
                delta -= d.detents
        if delta:
            counters["recovered clicks"] += abs(delta)
            out.append(Click(0, d.dock, d.dial, d.position, delta, recovered=True))
    return out


def remember(memory: dict[tuple[int, int], DialMemory], ev: TrayEvent) -> None:
    """A delivered click moves the remembered position."""
    if isinstance(ev, Click):
        mem = memory.get((ev.dock, ev.dial))
        if mem is not None:
            mem.position = ev.position
