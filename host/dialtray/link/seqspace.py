"""Sequence numbers: 32 bits on the wire, never-ending counts at both ends.

The EVENT, HELLO, HEARTBEAT and SNAPSHOT frames carry a sequence number as ``u32``, and so do
the host's ACK_EVENTS, HEARTBEAT, NACK and REPLAY. A tray that logs events for long enough
passes 2^32 − 1. The wire number is defined as the count modulo 2^32 (RFC 1982 serial-number
arithmetic): each end keeps its own count without bound and reads a 32-bit number from the other
end as the count nearest its own. Both ends only ever talk about events within a few thousand of
each other (the ring holds 2 048, the host holds back at most 4 096), far inside the ±2^31 in
which the nearest count is the right one. The firmware does the same (``dialrig.link``).
"""

from __future__ import annotations

WIRE_MOD = 1 << 32
_HALF = 1 << 31


def to_wire(count: int) -> int:
    """The 32-bit number that stands for ``count`` on the wire."""
    return count % WIRE_MOD


def unwrap(wire: int, near: int) -> int:
    """The count whose wire number is ``wire`` and which lies nearest ``near``."""
    return near + (wire - near + _HALF) % WIRE_MOD - _HALF
