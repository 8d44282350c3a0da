# dialrig.proto — the wire format between the tray and the host, written once.
#
# This module runs unchanged under MicroPython (on the Pico and the unix port) and CPython (the
# host imports it as `dialrig.proto`), so the two ends can never disagree about a byte. It uses
# only what both interpreters have: struct, binascii.crc32, bytes/bytearray/memoryview.
#
# Framing (docs/protocol.md has the full description):
#   payload = version:u8 type:u8 body... crc32:u32le(over version..body)
#   wire    = 0x00  escape(cobs(whiten(payload)))  0x00
# Whitening XORs every payload byte with 0xA5 first: real payloads are full of zeros and small
# numbers (dock 3, 1 click, sequence 0x00000102), which would otherwise become short COBS blocks
# and escaped control bytes, making frames longer and so likelier to be hit by line noise.
# COBS removes every 0x00 from the frame so 0x00 always means "frame boundary": a receiver that
# lands mid-stream (after a reconnect, a dropped byte or REPL chatter) resynchronises at the next
# 0x00. The escape step then removes the bytes the MicroPython REPL acts on (0x01-0x05: raw REPL,
# friendly REPL, Ctrl-C, Ctrl-D, paste mode) and the escape byte itself: DLE (0x10) followed by
# the byte XOR 0x20. So a frame can never interrupt the firmware or drive the REPL, while a real
# Ctrl-C from mpremote still stops the firmware. Leading 0x00 isolates any text the REPL printed
# between frames; such text fails the CRC and is counted as noise, never acted on.

import binascii
import struct

from dialrig.cobs import cobs_decode, cobs_encode_into  # proto's API: COBS is a step of its framing

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module; annotations are never evaluated
    from typing import Any

PROTO_VERSION = 1
MAX_PAYLOAD = 320  # a snapshot of 16 docks (32 dials) is the largest message
MAX_WIRE = 2 * (MAX_PAYLOAD + MAX_PAYLOAD // 254 + 2) + 2
DELIM = 0x00
DLE = 0x10
ESCAPE_XOR = 0x20
WHITEN = 0xA5
# Bytes that must never appear inside a frame on the wire.
ESCAPED = (0x01, 0x02, 0x03, 0x04, 0x05, DLE)

# ---- message types -------------------------------------------------------------------------
# device -> host
T_HELLO = 0x01
T_EVENT = 0x02
T_HEARTBEAT = 0x03
T_ACK = 0x04
T_SNAPSHOT = 0x05
T_DIAG = 0x06
T_REPLAY_GAP = 0x07
T_STATS = 0x08
# host -> device
C_HELLO = 0x41
C_ACK_EVENTS = 0x42
C_REPLAY = 0x43
C_SNAPSHOT = 0x44
C_ROLL_DICE = 0x45
C_SHOW_DICE = 0x46
C_SET_DIAL = 0x47
C_DIAG = 0x48
C_HEARTBEAT = 0x49
C_REBOOT = 0x4A
C_STATS = 0x4B
C_SET_TIMING = 0x4C
C_NACK = 0x4D  # "I am missing this event": resend from it (not acknowledged)
C_FAIR_BEGIN = 0x4E  # open a committed dice session (dialrig.fairdice)
C_FAIR_ROLL = 0x4F  # roll n dice of `sides` faces from the committed seed
C_FAIR_REVEAL = 0x50  # close the session: reveal its seed
C_FAIR_MIX = 0x51  # the host's nonce, mixed into the committed seed before the first roll
C_CAL_INFO = 0x52  # which calibration is on the flash: ACK info = its CRC-32 (0: none)
C_SELFTEST = 0x53  # probe every sensor (EV_SENSOR each), lamp-test the LEDs, then EV_SELFTEST
C_ROLL_SIDED = 0x54  # `rolls` rolls of n dice of `sides` sides: an EV_DICE each, the last shown
C_STALL = 0x55  # watchdog test: a task (STALL_*) stops making progress; the board must reset

# Body layouts (little-endian). A body must have exactly this length or the frame is rejected.
# fw major, minor, patch, proto version, uid, boot_id, oldest seq, next seq, docks, flags
HELLO_FMT = "<BBBB8sIIIBB"
EVENT_FMT = "<IIBBBih"  # seq, t_ms, kind, dock, dial, value, extra
HEARTBEAT_FMT = "<III"  # boot_id, next_seq, uptime_ms
ACK_FMT = "<HBi"  # cmd_id, status, info
SNAP_HEAD_FMT = "<IIB"  # boot_id, next_seq, n_dials ; then n_dials x SNAP_DIAL_FMT
SNAP_DIAL_FMT = "<BBBBBi"  # dock, dial, sensor, status, detents, position
DIAG_HEAD_FMT = "<IB"  # t_ms, n_dials ; then n_dials x "<i" raw readings
REPLAY_GAP_FMT = "<II"  # requested, oldest available
STATS_FMT = "<IIIIIII"  # frames_ok, corrupt, noise, unknown, bad_args, tx_frames, overflows

CMD_ID_FMT = "<H"
HOST_HELLO_FMT = "<HB"  # cmd_id, host proto version
ACK_EVENTS_FMT = "<I"  # every event with seq < this has arrived
REPLAY_FMT = "<HI"  # cmd_id, from_seq
ROLL_FMT = "<HBB"  # cmd_id, n dice, request id
SHOW_DICE_FMT = "<HB12s12s"  # cmd_id, n, faces[12], colours[12]
# cmd_id, dock, dial, sensor, mux, channel, quad, detents, pulses, direction, zero
SET_DIAL_FMT = "<HBBBBBbBBbi"
DIAG_CMD_FMT = "<HBH"  # cmd_id, on, period_ms
HOST_HEARTBEAT_FMT = "<I"  # next expected seq (doubles as an ack)
SET_TIMING_FMT = "<HHB"  # cmd_id, settle_ms, sample_ms
NACK_FMT = "<I"  # the first sequence number the host is missing
FAIR_SESSION_FMT = "<HB"  # cmd_id, session 1..255 (FAIR_BEGIN, FAIR_REVEAL)
FAIR_ROLL_FMT = "<HBBB"  # cmd_id, n dice, sides, request id
ROLL_SIDED_FMT = "<HBBBH"  # cmd_id, n dice per roll, sides, request id, rolls
FAIR_MIX_FMT = "<HB16s"  # cmd_id, session, host nonce
SELFTEST_FMT = "<HB"  # cmd_id, lamps (0: sensors only, 1: also walk every LED in R, G, B)
STALL_FMT = "<HB"  # cmd_id, task: STALL_SAMPLER, STALL_LINK or STALL_HEARTBEAT
# C_STALL's tasks: the bits the firmware's supervisor sees set when each task makes progress.
STALL_SAMPLER = 1
STALL_LINK = 2
STALL_HEARTBEAT = 4
MAX_WIRE_FACE = 15  # EV_DICE carries faces as 4-bit nibbles

EVENT_SIZE = struct.calcsize(EVENT_FMT)

# Event kinds (EVENT body field `kind`).
EV_BOOT = 1  # value = boot reason (BOOT_*); first event of every boot
EV_CLICK = 2  # dock, dial, value = settled position, extra = signed clicks since last report
EV_FAULT = 3  # dock, dial, value = FAULT_* code
EV_FAULT_CLEARED = 4  # dock, dial, value = FAULT_* code that cleared
EV_BUTTON = 5  # the roll button: value 1 pressed, 0 released
EV_DICE = 6  # dock = n dice, dial = request id (0: the button), value/extra = faces (nibbles)
EV_SELFTEST = 7  # value = bitmask of dials that failed (bit = dock*2+dial), extra = 1 if LEDs ok
EV_FAIR_COMMIT = 8  # dock = part 0..7, dial = session, value = SHA-256(seed)[4*part:4*part+4]
EV_FAIR_ROLL = 9  # dock = n dice, dial = session, value = roll counter, extra = sides; EV_DICE next
EV_FAIR_REVEAL = 10  # dock = part 0..7: value = seed[4*part:...]; part 8: value = rolls made
EV_FAIR_MIX = 11  # dock = part 0..3, dial = session, value = host nonce[4*part:4*part+4]
EV_SENSOR = 12  # self-test of one dial: value = agc | magnitude << 8 | channel << 20 |
#                 mux address << 23 (quadrature: the count), extra = SENSE_* | sensor kind << 8

# HELLO flags
HELLO_CAL_STORED = 0x01  # a calibration was loaded from the flash (or saved since)
HELLO_CAL_BAD = 0x02  # a calibration file was on the flash but unsound: ignored

BOOT_POWER_ON = 0
BOOT_WATCHDOG = 1
BOOT_SOFT = 2

# Dial status (snapshot) and fault codes (events) share one numbering.
ST_OK = 0
ST_LOST_TRACK = 1  # incremental encoder since boot: position is relative, not absolute
ST_NO_MAGNET = 2  # AS5600 reports no magnet (or too weak/strong)
ST_NAK = 3  # the sensor does not answer on I2C
ST_NONE = 4  # no sensor fitted

# EV_SENSOR checks (dialrig.selftest): what the self-test found at one dial's sensor.
SENSE_OK = 0  # AS5600: magnet detected, field in range
SENSE_NO_MAGNET = 1  # STATUS.MD clear
SENSE_WEAK = 2  # STATUS.ML: magnet too far (or too weak), AGC at maximum gain
SENSE_STRONG = 3  # STATUS.MH: magnet too close (or too strong), AGC at minimum gain
SENSE_NAK = 4  # the AS5600 does not answer behind its multiplexer channel
SENSE_MUX_NAK = 5  # the multiplexer itself does not answer
SENSE_NONE = 6  # no sensor configured for this dial
SENSE_COUNTER = 7  # a quadrature encoder: only turning it tells (value = its count now)

SENSOR_CODES = {"none": 0, "as5600": 1, "quadrature": 2}

# ACK status codes.
ACK_OK = 0
ACK_BAD_ARGS = 1
ACK_UNKNOWN = 2
ACK_REJECTED = 3  # valid request the device cannot do now (e.g. config invalid)
ACK_IN_USE = 4  # SET_DIAL onto a sensor another dial reads; info = that dial (dock * 2 + dial)

# Dice LED colours (SHOW_DICE).
COLOUR_OFF = 0
COLOUR_MISS = 1
COLOUR_HIT = 2
COLOUR_SIX = 3

# Rejection reasons counted by Deframer.
R_CORRUPT = 1
R_NOISE = 2
R_OVERFLOW = 3

BODY_FORMATS = {
    T_HELLO: HELLO_FMT,
    T_EVENT: EVENT_FMT,
    T_HEARTBEAT: HEARTBEAT_FMT,
    T_ACK: ACK_FMT,
    T_REPLAY_GAP: REPLAY_GAP_FMT,
    T_STATS: STATS_FMT,
    C_HELLO: HOST_HELLO_FMT,
    C_ACK_EVENTS: ACK_EVENTS_FMT,
    C_REPLAY: REPLAY_FMT,
    C_SNAPSHOT: CMD_ID_FMT,
    C_ROLL_DICE: ROLL_FMT,
    C_SHOW_DICE: SHOW_DICE_FMT,
    C_SET_DIAL: SET_DIAL_FMT,
    C_DIAG: DIAG_CMD_FMT,
    C_HEARTBEAT: HOST_HEARTBEAT_FMT,
    C_REBOOT: CMD_ID_FMT,
    C_STATS: CMD_ID_FMT,
    C_SET_TIMING: SET_TIMING_FMT,
    C_NACK: NACK_FMT,
    C_FAIR_BEGIN: FAIR_SESSION_FMT,
    C_FAIR_ROLL: FAIR_ROLL_FMT,
    C_FAIR_REVEAL: FAIR_SESSION_FMT,
    C_FAIR_MIX: FAIR_MIX_FMT,
    C_CAL_INFO: CMD_ID_FMT,
    C_SELFTEST: SELFTEST_FMT,
    C_ROLL_SIDED: ROLL_SIDED_FMT,
    C_STALL: STALL_FMT,
}
BODY_SIZES: dict[int, int] = {}
for _t in BODY_FORMATS:
    BODY_SIZES[_t] = struct.calcsize(BODY_FORMATS[_t])


class ProtoError(ValueError):
    """A frame that decoded but does not follow the protocol (unknown type, wrong length...)."""


def crc32(data: bytes | bytearray | memoryview) -> int:
    return binascii.crc32(data) & 0xFFFFFFFF


# ---- escaping of REPL control bytes ----------------------------------------------------------


def _escape_table() -> bytes:
    t = bytearray(256)
    for b in ESCAPED:
        t[b] = 1
    return bytes(t)


NEEDS_ESCAPE = _escape_table()
_UNWHITEN = bytes(bytearray([b ^ WHITEN for b in range(256)]))
_HAS_TRANSLATE = hasattr(b"", "translate")  # CPython has it (fast), MicroPython does not


def unwhiten(data: bytes) -> bytes:
    if _HAS_TRANSLATE:
        return data.translate(_UNWHITEN)
    out = bytearray(data)
    for i in range(len(out)):
        out[i] ^= WHITEN
    return bytes(out)


def unescape(data: bytes) -> bytes | None:
    """Undo the DLE escaping. Returns bytes, or None if a DLE is dangling or escapes a byte
    that never needed it (a sign of corruption)."""
    if DLE not in data:
        return data
    parts = data.split(bytes((DLE,)))
    out = bytearray(parts[0])
    for k in range(1, len(parts)):
        p = parts[k]
        if not p:
            return None
        b = p[0] ^ ESCAPE_XOR
        if not NEEDS_ESCAPE[b]:
            return None
        out.append(b)
        out.extend(p[1:])
    return bytes(out)


# ---- frames ----------------------------------------------------------------------------------


class FrameWriter:
    """Builds wire frames in preallocated buffers: `frame(type, fmt, *fields)` returns a
    memoryview of the wire bytes, valid until the next call.

    One writer per sending task; the firmware keeps one for the whole run so framing an event
    allocates nothing but the struct field values it is given.
    """

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.payload = bytearray(max_payload + 4)
        self.cobs = bytearray(max_payload + 4 + max_payload // 254 + 3)
        self.wire = bytearray(2 * len(self.cobs) + 2)
        self._pmv = memoryview(self.payload)
        self._wmv = memoryview(self.wire)

    def begin(self, mtype: int) -> bytearray:
        """Start a payload; the caller packs the body at offset 2 and calls finish(body_len)."""
        self.payload[0] = PROTO_VERSION
        self.payload[1] = mtype
        return self.payload

    def finish(self, body_len: int) -> memoryview:
        n = 2 + body_len
        c = binascii.crc32(self._pmv[:n]) & 0xFFFFFFFF
        struct.pack_into("<I", self.payload, n, c)
        n += 4
        m = cobs_encode_into(self.payload, n, self.cobs, 0, WHITEN)
        wire = self.wire
        cobs = self.cobs
        table = NEEDS_ESCAPE
        wire[0] = DELIM
        w = 1
        for i in range(m):
            b = cobs[i]
            if table[b]:
                wire[w] = DLE
                wire[w + 1] = b ^ ESCAPE_XOR
                w += 2
            else:
                wire[w] = b
                w += 1
        wire[w] = DELIM
        return self._wmv[: w + 1]

    def frame(self, mtype: int, fmt: str, *fields: int | bytes) -> memoryview:
        struct.pack_into(fmt, self.begin(mtype), 2, *fields)
        return self.finish(struct.calcsize(fmt))

    def frame_bytes(self, mtype: int, body: bytes | bytearray | memoryview) -> memoryview:
        """Frame an already packed body (variable-length messages: snapshot, diag)."""
        p = self.begin(mtype)
        p[2 : 2 + len(body)] = body
        return self.finish(len(body))


def encode(mtype: int, fmt: str, *fields: int | bytes) -> bytes:
    """Convenience for the host and tests: one frame as bytes."""
    return bytes(FrameWriter().frame(mtype, fmt, *fields))


def encode_body(mtype: int, body: bytes) -> bytes:
    return bytes(FrameWriter(max(MAX_PAYLOAD, len(body) + 8)).frame_bytes(mtype, body))


class Deframer:
    """Splits a byte stream into verified payloads.

    feed(data) returns the list of payloads (version..body, CRC stripped) completed by `data`.
    Everything that is not a valid frame is counted, never returned: `corrupt` (bad COBS,
    escape or CRC), `noise` (printable text such as REPL output between frames), `overflow`
    (a run longer than any frame: something is streaming without delimiters).
    """

    def __init__(self, max_wire: int = MAX_WIRE * 4) -> None:
        self.max_wire = max_wire
        self.partial: bytes = b""
        self.ok = 0
        self.corrupt = 0
        self.noise = 0
        self.overflow = 0
        self.last_reject = 0

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        out: list[bytes] = []
        if not data:
            return out
        chunks = (self.partial + bytes(data)).split(b"\x00")
        self.partial = chunks.pop()
        if len(self.partial) > self.max_wire:
            self.partial = b""
            self.overflow += 1
            self.last_reject = R_OVERFLOW
        for chunk in chunks:
            if chunk:
                p = self.check(chunk)
                if p is not None:
                    out.append(p)
        return out

    def check(self, chunk: bytes) -> bytes | None:
        """Verify one delimiter-free chunk; return its payload or None (counted)."""
        if len(chunk) > self.max_wire:
            self.overflow += 1
            self.last_reject = R_OVERFLOW
            return None
        raw = unescape(chunk)
        p = cobs_decode(raw) if raw is not None else None
        if p is not None:
            p = unwhiten(p)
        if p is None or len(p) < 6 or (binascii.crc32(p[:-4]) & 0xFFFFFFFF) != struct.unpack(
            "<I", p[-4:]
        )[0]:
            if is_text(chunk):
                self.noise += 1
                self.last_reject = R_NOISE
            else:
                self.corrupt += 1
                self.last_reject = R_CORRUPT
            return None
        self.ok += 1
        return p[:-4]


def is_text(chunk: bytes) -> bool:
    """True when a rejected chunk looks like REPL/console text rather than a damaged frame."""
    for b in chunk:
        if not (b == 9 or b == 10 or b == 13 or 32 <= b < 127):
            return False
    return True


def parse(payload: bytes) -> tuple[int, bytes]:
    """Split a verified payload into (type, body bytes); ProtoError when it breaks the rules."""
    if len(payload) < 2:
        raise ProtoError("short payload")
    if payload[0] != PROTO_VERSION:
        raise ProtoError("protocol version %d, expected %d" % (payload[0], PROTO_VERSION))
    mtype = payload[1]
    body = payload[2:]
    if mtype == T_SNAPSHOT:
        if len(body) < 9:
            raise ProtoError("snapshot too short")
        n = body[8]
        if len(body) != 9 + n * struct.calcsize(SNAP_DIAL_FMT):
            raise ProtoError("snapshot length %d for %d dials" % (len(body), n))
        return mtype, body
    if mtype == T_DIAG:
        if len(body) < 5 or len(body) != 5 + 4 * body[4]:
            raise ProtoError("diag length")
        return mtype, body
    size = BODY_SIZES.get(mtype)
    if size is None:
        raise ProtoError("unknown message type 0x%02x" % mtype)
    if len(body) != size:
        raise ProtoError("type 0x%02x body is %d bytes, expected %d" % (mtype, len(body), size))
    return mtype, body


def fields(mtype: int, body: bytes) -> "tuple[Any, ...]":
    """Unpack a fixed-layout body into its field tuple."""
    return struct.unpack(BODY_FORMATS[mtype], body)


def snapshot_dials(body: bytes) -> tuple[int, int, list[tuple[int, int, int, int, int, int]]]:
    """(boot_id, next_seq, [(dock, dial, sensor, status, detents, position), ...])."""
    boot_id, next_seq, n = struct.unpack_from(SNAP_HEAD_FMT, body, 0)
    size = struct.calcsize(SNAP_DIAL_FMT)
    dials: list[tuple[int, int, int, int, int, int]] = []
    for i in range(n):
        dials.append(struct.unpack_from(SNAP_DIAL_FMT, body, 9 + i * size))
    return boot_id, next_seq, dials


def diag_readings(body: bytes) -> tuple[int, list[int]]:
    t_ms, n = struct.unpack_from(DIAG_HEAD_FMT, body, 0)
    return t_ms, [struct.unpack_from("<i", body, 5 + 4 * i)[0] for i in range(n)]


def pack_faces(faces: bytes | bytearray | list[int], n: int) -> tuple[int, int]:
    """Dice faces (1..15) as nibbles: faces 0-7 in `value` (int32), 8-11 in `extra` (int16;
    a face of 8 or more at die 11 sets its sign bit, so it is stored two's complement)."""
    value = 0
    extra = 0
    for i in range(n):
        if i < 8:
            value |= (faces[i] & 0xF) << (4 * i)
        else:
            extra |= (faces[i] & 0xF) << (4 * (i - 8))
    if value >= 0x80000000:
        value -= 0x100000000
    if extra >= 0x8000:
        extra -= 0x10000
    return value, extra


def unpack_faces(n: int, value: int, extra: int) -> list[int]:
    value &= 0xFFFFFFFF
    extra &= 0xFFFF
    out: list[int] = []
    for i in range(n):
        if i < 8:
            out.append((value >> (4 * i)) & 0xF)
        else:
            out.append((extra >> (4 * (i - 8))) & 0xF)
    return out
