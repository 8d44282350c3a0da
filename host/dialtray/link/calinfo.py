"""Which calibration the tray keeps on its flash: its HELLO flags and the CAL_INFO checksum.

The tray stores its dials' settings on flash (``dialrig.calstore``) and reports, at boot, whether
it found a sound file (HELLO flags) and, on request, the file's CRC-32 (CAL_INFO; 0 when it has
none). The host compares that checksum with the one of its own copy
(``dialtray.builder.calibration_check``) to say when the two differ. This module only asks the tray.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from dialrig import proto

from dialtray.link.messages import Ack, Hello


class SessionLike(Protocol):
    """What this needs of a ``TraySession`` (kept narrow so a test can see what is used)."""

    hello: Hello | None

    def request(self, mtype: int, fmt: str, *fields: int | bytes,
                timeout: float = 3.0) -> Ack: ...


@dataclass(frozen=True)
class BoardCalibration:
    """What the tray says about the calibration on its flash.

    ``crc`` is the CRC-32 of the stored calibration (``dialrig.calstore.checksum``), 0 when the
    tray has none. ``damaged``: a file was there at boot but failed its checksum, so the tray
    ignored it and reads with the defaults.
    """

    uid: str
    docks: int
    crc: int
    damaged: bool = False

    @property
    def stored(self) -> bool:
        return self.crc != 0


def calibration_info(session: SessionLike, timeout: float = 3.0) -> BoardCalibration:
    """Ask a synchronised session's tray (CAL_INFO) which calibration it keeps.

    Raises ``CommandFailed`` from a firmware that does not know CAL_INFO (older than the
    calibration store), TimeoutError when the tray does not answer, RuntimeError when the
    session has not met the tray yet.
    """
    hello = session.hello
    if hello is None:
        raise RuntimeError("the tray has not said hello yet: wait_synced() first")
    ack = session.request(proto.C_CAL_INFO, proto.CMD_ID_FMT, timeout=timeout)
    crc = ack.info & 0xFFFFFFFF  # the tray packs the unsigned CRC into a signed field
    # A save since boot makes the CRC non-zero; the boot's flags say why there was none.
    return BoardCalibration(hello.uid, hello.docks, crc, damaged=crc == 0 and hello.cal_damaged)
