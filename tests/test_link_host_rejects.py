"""The host refuses bad input from a device: counted, logged, no crash, no state change.

The test plays the device on the master side of a real pty; the host's TraySession opens the
slave with pyserial, as it would a Pico.
"""

from __future__ import annotations

import logging
import os
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from dialrig import proto
from dialtray.link.messages import Click, UnknownEvent
from dialtray.link.session import CommandFailed, TraySession
from dialtray.virtual.bridge import make_raw


class ScriptedDevice:
    """Just enough of a tray to be synchronised with, plus a way to say anything at all."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        make_raw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self.deframer = proto.Deframer()
        self.next_seq = 1
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def event(self, seq: int, kind: int, dock: int, dial: int, value: int, extra: int) -> None:
        self.send(proto.encode(proto.T_EVENT, proto.EVENT_FMT, seq, 0, kind, dock, dial, value,
                               extra))

    def run(self) -> None:
        last_beat = 0.0
        os.set_blocking(self.master, False)
        while not self.stop.is_set():
            try:
                data = os.read(self.master, 4096)
            except (BlockingIOError, OSError):
                data = b""
            for payload in self.deframer.feed(data):
                self.answer(*proto.parse(payload))
            if time.monotonic() - last_beat > 0.2:
                last_beat = time.monotonic()
                self.send(proto.encode(proto.T_HEARTBEAT, proto.HEARTBEAT_FMT, 77,
                                       self.next_seq, 0))
            time.sleep(0.002)

    def answer(self, mtype: int, body: bytes) -> None:
        if mtype in (proto.C_ACK_EVENTS, proto.C_HEARTBEAT, proto.C_NACK):
            return
        cmd = struct.unpack_from("<H", body)[0]
        status = proto.ACK_OK
        if mtype == proto.C_ROLL_DICE and not 1 <= body[2] <= 12:
            status = proto.ACK_BAD_ARGS
        self.send(proto.encode(proto.T_ACK, proto.ACK_FMT, cmd, status, 0))
        if mtype == proto.C_HELLO:
            self.send(proto.encode(proto.T_HELLO, proto.HELLO_FMT, 0, 1, 0, proto.PROTO_VERSION,
                                   b"TESTTRAY", 77, 1, self.next_seq, 1, 0))
        elif mtype == proto.C_SNAPSHOT:
            body = struct.pack(proto.SNAP_HEAD_FMT, 77, self.next_seq, 2) + struct.pack(
                proto.SNAP_DIAL_FMT, 0, 0, 1, proto.ST_OK, 12, 0) + struct.pack(
                proto.SNAP_DIAL_FMT, 0, 1, 1, proto.ST_OK, 12, 0)
            self.send(proto.encode_body(proto.T_SNAPSHOT, body))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def linked() -> Iterator[tuple[ScriptedDevice, TraySession]]:
    dev = ScriptedDevice()
    with TraySession(dev.port, name="rejects") as session:
        session.wait_synced(10)
        yield dev, session
    dev.close()


def _delivered(session: TraySession) -> list[object]:
    out = []
    while not session.events.empty():
        out.append(session.events.get())
    return out


def test_garbage_truncated_and_unknown_frames_are_counted_and_change_nothing(
        linked: tuple[ScriptedDevice, TraySession], caplog: pytest.LogCaptureFixture) -> None:
    dev, session = linked
    _delivered(session)
    expected_before = session.expected
    caplog.set_level(logging.WARNING, logger="dialtray.link")
    valid = proto.encode(proto.T_EVENT, proto.EVENT_FMT, 1, 0, proto.EV_CLICK, 0, 0, 1, 1)
    dev.send(b"\x00\xde\xad\xbe\xef\x17\x00")                      # garbage
    dev.send(valid[:-6] + b"\x00")                                 # truncated
    dev.send(b"MicroPython v1.29 on rp2\r\n>>> ")                  # REPL text
    dev.send(proto.encode(0x3E, "<I", 5))                          # unknown type, valid CRC
    dev.send(proto.encode(proto.C_SNAPSHOT, proto.CMD_ID_FMT, 1))  # a host-only type
    dev.send(proto.encode_body(proto.T_EVENT, b"\x01\x00"))        # wrong length
    time.sleep(0.5)
    assert _delivered(session) == []
    assert session.expected == expected_before
    rejected = session.rejection_counts()
    assert rejected["rejected: corrupt"] >= 2
    assert rejected["rejected: noise"] >= 1
    assert rejected["rejected: protocol"] == 3
    assert len([r for r in caplog.records if "rejected frame" in r.getMessage()]) == 3
    # And the link still works: the next good event is delivered, once.
    dev.send(valid + valid)
    time.sleep(0.3)
    got = _delivered(session)
    assert got == [Click(1, 0, 0, 1, 1, 0)]


def test_an_unknown_event_kind_is_delivered_as_unknown_not_guessed(
        linked: tuple[ScriptedDevice, TraySession]) -> None:
    dev, session = linked
    _delivered(session)
    dev.event(1, 99, 0, 0, 5, 0)
    time.sleep(0.3)
    assert _delivered(session) == [UnknownEvent(1, 99)]


def test_out_of_range_commands_are_refused_before_or_by_the_device(
        linked: tuple[ScriptedDevice, TraySession]) -> None:
    _, session = linked
    with pytest.raises(ValueError, match="at most 12 dice"):
        session.show_dice([1] * 13, [0] * 13)
    with pytest.raises(CommandFailed, match="bad arguments"):
        session.roll_dice(13, timeout=3)
