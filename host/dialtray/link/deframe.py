"""The host's deframer: what ``proto.Deframer`` returns and counts, a read's frames in one pass.

Why (issue 35): the tray hands the host a burst of EVENT frames in one read (a replay, a busy
table), and the firmware's codec checks each frame with a chain of small functions (unescape,
COBS, unwhiten, CRC) written to run under MicroPython too. Almost every frame on the wire is one
COBS block with no escape in it; for those the host unwhitens the whole read at once and checks
each frame's CRC where it lies. Any other frame — escaped, several COBS blocks, too short, too
long, a CRC that does not fit (damage or noise) — goes through the codec's own ``check``, so the
payloads, the counts and the reasons for a rejection are the codec's (tested:
``tests/test_link_deframe.py``).
"""

from __future__ import annotations

import binascii

from dialrig import proto

_UNWHITEN = bytes(b ^ proto.WHITEN for b in range(256))
_DLE = proto.DLE
_MIN_WIRE = 1 + 6  # a COBS code byte, then at least the version, type and CRC (``check``)


class HostDeframer(proto.Deframer):
    """``proto.Deframer`` with ``feed`` taking the common frame in one pass."""

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        out: list[bytes] = []
        if not data:
            return out
        buf = self.partial + bytes(data)
        chunks = buf.split(b"\x00")
        self.partial = chunks.pop()
        if len(self.partial) > self.max_wire:
            self.partial = b""
            self.overflow += 1
            self.last_reject = proto.R_OVERFLOW
        plain = buf.translate(_UNWHITEN)  # (COBS code bytes garbled too: never read from here)
        crc32, top, append = binascii.crc32, self.max_wire, out.append
        at = 0  # where chunk starts in buf
        for chunk in chunks:
            n = len(chunk)
            if n:
                # one COBS block (its code byte is its length: no zero inside), no escape
                if chunk[0] == n and _MIN_WIRE <= n <= top and _DLE not in chunk:
                    p = plain[at + 1:at + n - 4]
                    if crc32(p) == int.from_bytes(plain[at + n - 4:at + n], "little"):
                        self.ok += 1
                        append(p)
                        at += n + 1
                        continue
                q = _blocks(chunk) if n <= top else None
                if q is not None and len(q) >= 6 and crc32(q[:-4]) == int.from_bytes(
                        q[-4:], "little"):
                    self.ok += 1
                    append(q[:-4])
                else:
                    q = self.check(chunk)  # the codec's way: counted, rejected, or a payload
                    if q is not None:
                        append(q)
            at += n + 1
        return out


def _blocks(chunk: bytes) -> bytes | None:
    """An escaped or several-block frame unescaped, COBS-decoded and unwhitened (payload and
    CRC), or None where the codec would find it malformed (then ``check`` counts it)."""
    raw = proto.unescape(chunk) if _DLE in chunk else chunk
    if raw is None:
        return None
    n, i = len(raw), 0
    parts = []
    while i < n:
        code = raw[i]
        if code == 0 or code == 0xFF or i + code > n:
            return None  # (0xFF, a block of 254 with no zero after it: the codec's way)
        parts.append(raw[i + 1:i + code])
        i += code
    return b"\x00".join(parts).translate(_UNWHITEN)
