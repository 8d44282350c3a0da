"""One boot of the tray as the host sees it: what has been delivered, what is held past a hole.

Sequence numbers restart at 1 at every boot, so they only mean something together with the boot
they belong to. Everything that depends on them lives in one :class:`BootStream` per boot, and
the session replaces the whole object when the boot changes: nothing of boot A can leak into
boot B. (Issue 8, defect 3: a hold-back buffer that outlived its boot delivered old-boot events
as new after a reboot and dropped the new boot's real events with the same numbers as
duplicates.) Within one boot the stream survives reconnects, so a cable pulled in the middle of
a replay loses nothing that was already received.

Events are delivered only in sequence order: a later event is held (up to
:data:`REORDER_LIMIT`) while the session NACKs the first missing one; duplicates are dropped.
Counts are unbounded here; the wire's 32-bit numbers are unwrapped on the way in
(:mod:`dialtray.link.seqspace`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from dialtray.link.messages import RawEvent, Snapshot
from dialtray.link.seqspace import unwrap

REORDER_LIMIT = 4096  # events held past a hole while it is refilled


class BootStream:
    """Sequencing state of one boot (``boot_id``). ``expected`` is the next count to deliver."""

    def __init__(self, boot_id: int, expected: int, counters: Counter[str] | None = None) -> None:
        self.boot_id = boot_id
        self.expected = expected
        self.held: dict[int, RawEvent] = {}
        self.device_next = expected  # the tray's next_seq as far as we know
        self.counters: Counter[str] = counters if counters is not None else Counter()
        # A reboot replayed from seq 1: events up to this snapshot are collected, not delivered,
        # until the boot-time positions can be worked out (see TraySession._boot_replayed).
        self.boot_snapshot: Snapshot | None = None
        self.boot_events: list[RawEvent] = []

    def count(self, wire: int) -> int:
        """A 32-bit sequence number from the tray as this boot's count."""
        return unwrap(wire, self.expected)

    def saw_device_next(self, wire: int) -> None:
        """The tray said (HELLO, HEARTBEAT) which sequence number it will log next."""
        n = self.count(wire)
        if n > self.device_next:
            self.device_next = n

    @property
    def missing(self) -> bool:
        """The tray has logged events we have not delivered (a hole, or its word for it)."""
        return bool(self.held) or self.device_next > self.expected

    def offer(self, raw: RawEvent) -> list[RawEvent]:
        """Take one EVENT frame (wire seq); return the events now deliverable, in order, with
        their sequence numbers as counts. Duplicates and far-ahead events give nothing."""
        seq = self.count(raw.seq)
        if seq != raw.seq:
            raw = replace(raw, seq=seq)
        if seq < self.expected:
            self.counters["duplicates dropped"] += 1
            return []
        if seq >= self.device_next:
            self.device_next = seq + 1
        if seq > self.expected:
            if seq in self.held:
                self.counters["duplicates dropped"] += 1
            elif seq - self.expected <= REORDER_LIMIT and len(self.held) < REORDER_LIMIT:
                self.held[seq] = raw
                self.counters["held past a hole"] += 1
            else:
                self.counters["beyond hold-back, dropped"] += 1  # resent after the hole
            return []
        out = [raw]
        self.expected += 1
        while self.expected in self.held:
            out.append(self.held.pop(self.expected))
            self.expected += 1
        return out
