# dialrig.cobs — Consistent Overhead Byte Stuffing, the step of the wire format that removes
# every 0x00 from a frame so that 0x00 always means "frame boundary" (see dialrig.proto, which
# re-exports these two functions). Runs unchanged under MicroPython and CPython.
#
# The encoder writes into a caller's buffer so that the firmware frames events without touching
# the heap; the decoder (host side and command frames) may allocate.

def cobs_encode_into(src: bytes | bytearray | memoryview, n: int, dst: bytearray, at: int,
                     xor: int = 0) -> int:
    """COBS-encode src[:n] (each byte XOR `xor` first) into dst from index `at`; return the
    index after the last byte.

    Allocation-free so the firmware can frame events without touching the heap.
    """
    code_at = at
    out = at + 1
    code = 1
    for i in range(n):
        b = src[i] ^ xor
        if b == 0:
            dst[code_at] = code
            code_at = out
            out += 1
            code = 1
        else:
            dst[out] = b
            out += 1
            code += 1
            if code == 0xFF:
                dst[code_at] = code
                code_at = out
                out += 1
                code = 1
    dst[code_at] = code
    return out


def cobs_decode(data: bytes) -> bytes | None:
    """Decode one COBS block (no delimiters). Returns bytes, or None when malformed."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
