"""What the tray says, as typed values (the commands the host sends: ``link.commands``).

The bytes are defined once, in the firmware's own codec (``dialrig.proto``); this module only
gives the host readable names for what that codec decodes. Every event the rest of the host
sees is a :class:`TrayEvent`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from dialrig import config, proto

DIAL_NAMES = config.DIAL_NAMES
SENSOR_NAMES = {code: name for name, code in proto.SENSOR_CODES.items()}
STATUS_NAMES = {
    proto.ST_OK: "ok",
    proto.ST_LOST_TRACK: "lost track",
    proto.ST_NO_MAGNET: "no magnet",
    proto.ST_NAK: "not answering (I2C NAK)",
    proto.ST_NONE: "no sensor",
}
BOOT_NAMES = {proto.BOOT_POWER_ON: "power-on", proto.BOOT_WATCHDOG: "watchdog",
              proto.BOOT_SOFT: "soft reset"}
ACK_NAMES = {proto.ACK_OK: "ok", proto.ACK_BAD_ARGS: "bad arguments",
             proto.ACK_UNKNOWN: "unknown command", proto.ACK_REJECTED: "rejected",
             proto.ACK_IN_USE: "sensor already used by another dial"}


def dial_name(dock: int, dial: int) -> str:
    """'dock 3 speed' — how players and judges name a dial."""
    return f"dock {dock} {DIAL_NAMES[dial] if dial < len(DIAL_NAMES) else dial}"


@dataclass(frozen=True)
class TrayEvent:
    """Something the tray reported. ``seq`` is the device's sequence number (0: host-made)."""

    seq: int


@dataclass(frozen=True)
class Click(TrayEvent):
    """A dial settled on a new detent. ``delta`` > 0 is clockwise (damage, fate, throttle down).

    ``recovered`` marks clicks the host inferred from a snapshot after the device rebooted or
    the replay window was lost: the net movement is certain, the timing is not.
    """

    dock: int
    dial: int
    position: int
    delta: int
    t_ms: int = 0
    recovered: bool = False

    def __str__(self) -> str:
        way = "clockwise" if self.delta > 0 else "counter-clockwise"
        tag = " (recovered from snapshot)" if self.recovered else ""
        return (f"{dial_name(self.dock, self.dial)}: {abs(self.delta)} click(s) {way} "
                f"→ position {self.position}{tag}")


@dataclass(frozen=True)
class DialFault(TrayEvent):
    dock: int
    dial: int
    code: int
    cleared: bool = False

    def __str__(self) -> str:
        what = STATUS_NAMES.get(self.code, f"fault {self.code}")
        if self.cleared:
            return f"{dial_name(self.dock, self.dial)}: sensor recovered ({what} cleared)"
        if self.code == proto.ST_LOST_TRACK:
            return (f"{dial_name(self.dock, self.dial)}: incremental sensor lost track at boot — "
                    "check the dial by eye before play continues")
        return f"{dial_name(self.dock, self.dial)}: sensor fault: {what}"


@dataclass(frozen=True)
class Booted(TrayEvent):
    reason: int

    def __str__(self) -> str:
        return f"tray booted ({BOOT_NAMES.get(self.reason, self.reason)})"


@dataclass(frozen=True)
class SelfTest(TrayEvent):
    failed_mask: int
    dice_walked: int

    @property
    def failed(self) -> list[tuple[int, int]]:
        return [(k >> 1, k & 1) for k in range(32) if self.failed_mask >> k & 1]

    def __str__(self) -> str:
        bad = ", ".join(dial_name(d, i) for d, i in self.failed) or "none"
        return f"self-test: {self.dice_walked} dice lit, sensors failing: {bad}"


SENSE_NAMES = {
    proto.SENSE_OK: "magnet ok", proto.SENSE_NO_MAGNET: "no magnet",
    proto.SENSE_WEAK: "magnet too far (too weak)",
    proto.SENSE_STRONG: "magnet too close (too strong)",
    proto.SENSE_NAK: "sensor not answering (I2C NAK)",
    proto.SENSE_MUX_NAK: "multiplexer not answering (I2C NAK)",
    proto.SENSE_NONE: "no sensor configured", proto.SENSE_COUNTER: "encoder (turn it to test)",
}
SENSE_FAILED = (proto.SENSE_NO_MAGNET, proto.SENSE_WEAK, proto.SENSE_STRONG, proto.SENSE_NAK,
                proto.SENSE_MUX_NAK)
AGC_MAX = 128  # the AS5600's AGC range at 3.3 V


@dataclass(frozen=True)
class SensorCheck(TrayEvent):
    """One dial's sensor as the SELFTEST command found it (``dialrig.selftest``): the AS5600's
    STATUS (magnet detected / too weak / too strong), AGC and magnitude, or which part of the
    I2C path did not answer, with the multiplexer and channel it sits on."""

    dock: int
    dial: int
    check: int
    sensor: int  # proto.SENSOR_CODES value
    agc: int = 0
    magnitude: int = 0
    mux: int = 0
    channel: int = 0
    count: int = 0  # an encoder's count at the test

    @property
    def failed(self) -> bool:
        return self.check in SENSE_FAILED

    @property
    def result(self) -> str:
        what = SENSE_NAMES.get(self.check, f"check {self.check}")
        if self.sensor == proto.SENSOR_CODES["as5600"] and self.check in (
                proto.SENSE_OK, proto.SENSE_WEAK, proto.SENSE_STRONG):
            return f"{what}, AGC {self.agc}/{AGC_MAX}, magnitude {self.magnitude}"
        return what

    def fix(self) -> str:
        """What the builder does about it ('' when nothing is wrong)."""
        mux, ch = f"0x{self.mux:02x}", self.channel
        if self.check == proto.SENSE_WEAK:
            return ("magnet too far: close the air gap by 0.5 mm (shim the sensor board 0.5 mm up "
                    "under the dock, or print the dock with dock_floor 0.5 mm thinner); check "
                    "the coupler sits down on its floor and the magnet is the 6x2.5 mm one")
        if self.check == proto.SENSE_STRONG:
            return ("magnet too close: open the air gap by 0.5 mm (a 0.5 mm shim between the "
                    "dock floor and the sensor board, or dock_floor 0.5 mm thicker)")
        if self.check == proto.SENSE_NO_MAGNET:
            return ("no magnet: fit the coupler with its magnet (diametrically magnetised, "
                    "centred over the chip); a gap far over 3 mm also reads as none")
        if self.check == proto.SENSE_NAK:
            return (f"check the wiring of mux {mux} channel {ch}: the AS5600's VCC, GND, SDA "
                    f"(SD{ch}), SCL (SC{ch}), DIR to GND; and that the config names this channel")
        if self.check == proto.SENSE_MUX_NAK:
            return (f"multiplexer {mux} does not answer: check its VIN, GND, SDA, SCL, RESET "
                    "held high, and its address straps (0x70: A0-A2 to GND; 0x71: A0 to 3V3)")
        return ""

    def __str__(self) -> str:
        fix = self.fix()
        return (f"{dial_name(self.dock, self.dial)}: {self.result}"
                + (f" — {fix}" if fix else ""))


@dataclass(frozen=True)
class ButtonPressed(TrayEvent):
    def __str__(self) -> str:
        return "roll button pressed"


@dataclass(frozen=True)
class ButtonReleased(TrayEvent):
    """The roll button let go (firmware that reports it): a host times a hold from the press."""

    def __str__(self) -> str:
        return "roll button released"


@dataclass(frozen=True)
class DiceRolled(TrayEvent):
    faces: tuple[int, ...]
    request_id: int  # 0: rolled by the button

    def __str__(self) -> str:
        who = "button" if self.request_id == 0 else f"request {self.request_id}"
        return f"tray rolled {len(self.faces)} dice ({who}): {' '.join(map(str, self.faces))}"


@dataclass(frozen=True)
class FairCommit(TrayEvent):
    """One 4-byte part (0..7) of a committed dice session's commitment, SHA-256(seed)
    (``dialrig.fairdice``; checked by ``dialtray.link.fairdice``)."""

    session: int
    part: int
    data: bytes

    def __str__(self) -> str:
        return f"fair dice session {self.session}: commitment part {self.part} {self.data.hex()}"


@dataclass(frozen=True)
class FairRollTag(TrayEvent):
    """The next event (a DICE event) is roll ``counter`` of committed session ``session``."""

    session: int
    counter: int
    sides: int
    n: int

    def __str__(self) -> str:
        return (f"fair dice session {self.session}: roll #{self.counter} "
                f"({self.n}d{self.sides}) drawn from the committed seed")


@dataclass(frozen=True)
class FairMix(TrayEvent):
    """One 4-byte part (0..3) of the host's nonce as the tray took it into its roll key."""

    session: int
    part: int
    data: bytes

    def __str__(self) -> str:
        return f"fair dice session {self.session}: host nonce part {self.part} {self.data.hex()}"


@dataclass(frozen=True)
class FairReveal(TrayEvent):
    """Part 0..7 of a session's revealed seed (4 bytes each); part 8 carries the number of
    rolls the tray says it made (``data`` little-endian)."""

    session: int
    part: int
    data: bytes

    @property
    def rolls(self) -> int:
        return int.from_bytes(self.data, "little")

    def __str__(self) -> str:
        if self.part >= 8:
            return f"fair dice session {self.session}: revealed, {self.rolls} roll(s) made"
        return f"fair dice session {self.session}: seed part {self.part} {self.data.hex()}"


@dataclass(frozen=True)
class UnknownEvent(TrayEvent):
    kind: int

    def __str__(self) -> str:
        return f"unknown event kind {self.kind} (newer firmware?)"


@dataclass(frozen=True)
class DialState:
    dock: int
    dial: int
    sensor: str
    status: int
    detents: int
    position: int


@dataclass(frozen=True)
class Snapshot(TrayEvent):
    """Every dial's position at one moment; ``reason`` says why the host asked for it.

    ``missed``: how many of this boot's events the host never got one by one and the snapshot
    stands in for (a replay refused: ``UNREPLAYED``); 0 otherwise. Those events' clicks can only
    be restored from the dials' positions (``reconcile``), so a consumer flags those dials."""

    boot_id: int
    next_seq: int
    dials: tuple[DialState, ...]
    reason: str = "connect"
    missed: int = 0

    def position(self, dock: int, dial: int) -> DialState | None:
        for d in self.dials:
            if d.dock == dock and d.dial == dial:
                return d
        return None

    def __str__(self) -> str:
        parts = [f"{dial_name(d.dock, d.dial)}={d.position}"
                 + ("" if d.status == proto.ST_OK else f" ({STATUS_NAMES.get(d.status)})")
                 for d in self.dials if d.sensor != "none"]
        lost = f", {self.missed} events not replayed" if self.missed else ""
        return f"snapshot ({self.reason}{lost}): " + ", ".join(parts)


LOST_TRACK = proto.ST_LOST_TRACK  # an incremental encoder since boot: positions are relative
REPLAY_LOST = "replay window lost"  # the tray's ring log no longer held what the host missed
REPLAY_REFUSED = "replay refused"  # the tray refused the replay the host asked for
UNREPLAYED = frozenset({REPLAY_LOST, REPLAY_REFUSED})
"""A snapshot's reasons when the events the host missed were not replayed: the dials' clicks
meanwhile are only known from their positions (``reconcile``)."""


@dataclass(frozen=True)
class LinkState(TrayEvent):
    connected: bool
    detail: str = ""

    def __str__(self) -> str:
        state = "link up" if self.connected else "link down"
        return state + (f": {self.detail}" if self.detail else "")


@dataclass(frozen=True)
class Hello:
    firmware: str
    protocol: int
    uid: str
    boot_id: int
    oldest: int
    next_seq: int
    docks: int
    flags: int = 0  # proto.HELLO_CAL_*: what the tray found on its flash at boot

    @property
    def cal_stored(self) -> bool:
        """A calibration was loaded from the tray's flash at boot (or saved since)."""
        return bool(self.flags & proto.HELLO_CAL_STORED)

    @property
    def cal_damaged(self) -> bool:
        """A calibration file was on the flash but failed its checksum: the tray ignored it."""
        return bool(self.flags & proto.HELLO_CAL_BAD)


@dataclass(frozen=True)
class Heartbeat:
    boot_id: int
    next_seq: int
    uptime_ms: int


@dataclass(frozen=True)
class Ack:
    cmd_id: int
    status: int
    info: int


@dataclass(frozen=True)
class ReplayGap:
    requested: int
    oldest: int


@dataclass(frozen=True)
class Stats:
    frames_ok: int
    corrupt: int
    noise: int
    unknown: int
    bad_args: int
    tx_frames: int
    overflows: int


@dataclass(frozen=True)
class Diag(TrayEvent):
    """Raw sensor readings (diagnostics mode): AS5600 angles 0..4095, quadrature counts."""

    t_ms: int
    raw: tuple[int, ...]

    def __str__(self) -> str:
        return "raw: " + " ".join(f"{dial_name(k >> 1, k & 1)}={v}" for k, v in enumerate(self.raw))


@dataclass(frozen=True)
class RawEvent:
    """An EVENT frame before the session decides whether it is new, duplicate or out of order."""

    seq: int
    t_ms: int
    kind: int
    dock: int
    dial: int
    value: int
    extra: int

    def to_event(self) -> TrayEvent:
        s = self.seq
        if self.kind == proto.EV_CLICK:
            return _click(s, self.dock, self.dial, self.value, self.extra, self.t_ms)
        if self.kind in (proto.EV_FAULT, proto.EV_FAULT_CLEARED):
            cleared = self.kind == proto.EV_FAULT_CLEARED
            return DialFault(s, self.dock, self.dial, self.value, cleared)
        if self.kind == proto.EV_BOOT:
            return Booted(s, self.value)
        if self.kind == proto.EV_SELFTEST:
            return SelfTest(s, self.value & 0xFFFFFFFF, self.extra)
        if self.kind == proto.EV_SENSOR:
            return sensor_check(s, self.dock, self.dial, self.value, self.extra)
        if self.kind == proto.EV_BUTTON:
            return ButtonPressed(s) if self.value else ButtonReleased(s)
        if self.kind == proto.EV_DICE:
            return DiceRolled(s, tuple(proto.unpack_faces(self.dock, self.value, self.extra)),
                              self.dial)
        if self.kind in (proto.EV_FAIR_COMMIT, proto.EV_FAIR_REVEAL, proto.EV_FAIR_MIX):
            data = (self.value & 0xFFFFFFFF).to_bytes(4, "little")
            if self.kind == proto.EV_FAIR_COMMIT:
                return FairCommit(s, self.dial, self.dock, data)
            if self.kind == proto.EV_FAIR_MIX:
                return FairMix(s, self.dial, self.dock, data)
            return FairReveal(s, self.dial, self.dock, data)
        if self.kind == proto.EV_FAIR_ROLL:
            return FairRollTag(s, self.dial, self.value & 0xFFFFFFFF, self.extra & 0xFFFF,
                               self.dock)
        return UnknownEvent(s, self.kind)


def sensor_check(seq: int, dock: int, dial: int, value: int, extra: int) -> SensorCheck:
    """An EV_SENSOR event's fields (docs/protocol.md) as a SensorCheck."""
    check, sensor = extra & 0xFF, extra >> 8 & 0xFF
    if check == proto.SENSE_COUNTER:
        return SensorCheck(seq, dock, dial, check, sensor, count=value)
    return SensorCheck(seq, dock, dial, check, sensor, agc=value & 0xFF,
                       magnitude=value >> 8 & 0xFFF, mux=value >> 23 & 0x7F,
                       channel=value >> 20 & 7)


DeviceMessage = Hello | Heartbeat | Ack | ReplayGap | Stats | Diag | RawEvent | Snapshot


_EVENT_LEN = 2 + struct.calcsize(proto.EVENT_FMT)
_EVENT_FROM = struct.Struct(proto.EVENT_FMT).unpack_from
_new, _set = object.__new__, object.__setattr__


def _raw_event(seq: int, t_ms: int, kind: int, dock: int, dial: int, value: int,
               extra: int) -> RawEvent:
    """``RawEvent(...)``, equal in every way (tested), at a third of a frozen dataclass's
    ``__init__`` (a setattr per field): one per tray event, the host's hot path (issue 35)."""
    r = _new(RawEvent)
    _set(r, "__dict__", {"seq": seq, "t_ms": t_ms, "kind": kind, "dock": dock, "dial": dial,
                         "value": value, "extra": extra})
    return r


def _click(seq: int, dock: int, dial: int, position: int, delta: int, t_ms: int) -> Click:
    """``Click(...)`` (not recovered), as ``_raw_event``: one per click."""
    c = _new(Click)
    _set(c, "__dict__", {"seq": seq, "dock": dock, "dial": dial, "position": position,
                         "delta": delta, "t_ms": t_ms, "recovered": False})
    return c


def decode(payload: bytes) -> DeviceMessage:
    """A verified payload as a typed message; proto.ProtoError when it breaks the protocol."""
    if len(payload) == _EVENT_LEN and payload[0] == proto.PROTO_VERSION and \
            payload[1] == proto.T_EVENT:  # (what proto.parse checks of an event, inline)
        return _raw_event(*_EVENT_FROM(payload, 2))
    mtype, body = proto.parse(payload)
    if mtype == proto.T_EVENT:
        return RawEvent(*proto.fields(mtype, body))
    if mtype == proto.T_HEARTBEAT:
        return Heartbeat(*proto.fields(mtype, body))
    if mtype == proto.T_ACK:
        return Ack(*proto.fields(mtype, body))
    if mtype == proto.T_HELLO:
        major, minor, patch, pv, uid, boot_id, oldest, nxt, docks, flags = proto.fields(mtype,
                                                                                       body)
        return Hello(f"{major}.{minor}.{patch}", pv, uid.hex(), boot_id, oldest, nxt, docks,
                     flags)
    if mtype == proto.T_SNAPSHOT:
        boot_id, nxt, dials = proto.snapshot_dials(body)
        return Snapshot(0, boot_id, nxt, tuple(
            DialState(d, i, SENSOR_NAMES.get(s, f"sensor {s}"), st, det, pos)
            for d, i, s, st, det, pos in dials))
    if mtype == proto.T_REPLAY_GAP:
        return ReplayGap(*proto.fields(mtype, body))
    if mtype == proto.T_STATS:
        return Stats(*proto.fields(mtype, body))
    if mtype == proto.T_DIAG:
        t_ms, raw = proto.diag_readings(body)
        return Diag(0, t_ms, tuple(raw))
    raise proto.ProtoError(f"host-bound type 0x{mtype:02x} is a command, not a device message")
