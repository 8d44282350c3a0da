"""The commands the host sends the tray, as frames (what the tray says: ``link.messages``).

The bytes are defined once, in the firmware's own codec (``dialrig.proto``); this module numbers
commands so their ACKs can be matched and lays out the bodies of the ones with structured
fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dialrig import config, proto

from dialtray.link.messages import dial_name


@dataclass
class CommandEncoder:
    """Builds command frames, numbering each one so its ACK can be matched (and a resent
    command recognised by the device as already done)."""

    next_id: int = 1
    writer: proto.FrameWriter = field(default_factory=proto.FrameWriter)

    def _id(self) -> int:
        cid = self.next_id
        self.next_id = cid % 0xFFFF + 1
        return cid

    def command(self, mtype: int, fmt: str, *rest: int | bytes) -> tuple[int, bytes]:
        cid = self._id()
        return cid, bytes(self.writer.frame(mtype, fmt, cid, *rest))

    def ack_events(self, next_expected: int) -> bytes:
        return bytes(self.writer.frame(proto.C_ACK_EVENTS, proto.ACK_EVENTS_FMT, next_expected))

    def nack(self, missing: int) -> bytes:
        return bytes(self.writer.frame(proto.C_NACK, proto.NACK_FMT, missing))

    def heartbeat(self, next_expected: int) -> bytes:
        return bytes(self.writer.frame(proto.C_HEARTBEAT, proto.HOST_HEARTBEAT_FMT, next_expected))


def show_dice_fields(faces: list[int], colours: list[int]) -> tuple[int, bytes, bytes]:
    """The SHOW_DICE body after the command id: count, faces[12], colours[12]."""
    if len(faces) != len(colours) or len(faces) > config.MAX_DICE:
        raise ValueError(f"at most {config.MAX_DICE} dice, one colour per face")
    pad = config.MAX_DICE - len(faces)
    return len(faces), bytes(faces) + bytes(pad), bytes(colours) + bytes(pad)


def set_dial_fields(dial: dict[str, int | str]) -> tuple[int, ...]:
    """The SET_DIAL fields after dock and dial, from a config-style dial dict."""
    return (proto.SENSOR_CODES[str(dial["sensor"])], int(dial["mux"]) & 0xFF,
            int(dial["channel"]) & 0xFF, int(dial["quad"]), int(dial["detents"]),
            int(dial["pulses"]), int(dial["direction"]), int(dial["zero"]))


def sensor_in_use(dock: int, dial: int, settings: dict[str, int | str], other: int) -> str:
    """Why the tray refused SET_DIAL with ACK_IN_USE (``other`` = that dial, dock * 2 + dial)."""
    if settings.get("sensor") == "quadrature":
        sensor = f"quadrature decoder {settings.get('quad')}"
    else:
        sensor = f"AS5600 on mux 0x{int(settings.get('mux', 0)):02x} channel " \
                 f"{settings.get('channel')}"
    return (f"{dial_name(dock, dial)} cannot use the {sensor}: {dial_name(other >> 1, other & 1)} "
            "already reads it, and two dials on one sensor would report the same turns "
            "(the tray refused SET_DIAL; move the other dial first or pick a free sensor)")
