"""Bring a tray that line garbage left at the MicroPython REPL back to its firmware.

The tray's USB serial port is also MicroPython's REPL. A Ctrl-C (0x03) with no host connected
stops the firmware, as on any MicroPython board, so random bytes on the port can leave a tray at
the friendly REPL, in the raw REPL (0x01), in paste mode (0x05) or half-way through a line of
garbage, where it no longer speaks the protocol. A Pico gets out of every one of those states
with the same keys a person would press::

    CR Ctrl-C Ctrl-C   interrupt anything running; leave paste mode; clear the line
    Ctrl-B             leave the raw REPL (at the friendly REPL: just the banner again)
    Ctrl-C             a clean, empty line
    Ctrl-D             soft reset at an empty line: main.py, i.e. the firmware, runs again

(the virtual tray emulates the soft reset: the unix port exits on Ctrl-D and the tray's
supervisor boots the firmware again).

:class:`ReviveGuard` wraps the session's transport and watches what it reads. It sends that
sequence only when both are true:

* no valid frame (CRC-checked) has arrived for :data:`QUIET_S` — running firmware sends a
  heartbeat every 0.5 s whether or not a host is there — and
* the bytes since the last valid frame show the REPL: its prompts, banner or a traceback.

So it never touches firmware that is running: the only dangerous byte, 0x03, is never sent
while frames arrive, and the bytes it may send to learn more (:data:`WAKE`: Ctrl-B, CR) are
harmless outside a frame (the firmware counts them as noise). A REPL that prints nothing (the
raw REPL echoes nothing) is asked with :data:`WAKE`, which makes every REPL state print a prompt
or the banner. mpremote is unaffected: it never goes through the session, and it gets the REPL
with its own CR Ctrl-C (docs/protocol.md, "Ctrl-C, the REPL and mpremote").
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from dialrig import proto

from dialtray.link.transport import Transport

log = logging.getLogger("dialtray.link")

QUIET_S = 1.0  # two device heartbeats missed: the firmware is not running
REVIVE_EVERY_S = 3.0  # a soft reset and a boot take well under this
WAKE = b"\x02\r"  # Ctrl-B then CR: every REPL state answers with a prompt or the banner
REVIVE_KEYS = (b"\r\x03\x03", b"\x02", b"\x03", b"\x04")
KEY_GAP_S = 0.05  # let the REPL act on each key before the next
REPL_MARKS = (b">>> ", b"\r\n... ", b"raw REPL", b"paste mode", b"=== ",
              b"Traceback (most recent call",
              b"MicroPython ", b'Type "help()"', b"soft reboot")
TEXT_KEPT = 4096
SAMPLE_AFTER_FRAME_S = 0.25  # after a valid frame, look again only this much later


@dataclass
class ReviveGuard:
    """A transport that revives a tray found at the REPL; otherwise it only passes bytes on."""

    inner: Transport
    name: str = "tray"
    revives: int = 0
    wakes: int = 0
    _deframer: proto.Deframer = field(default_factory=proto.Deframer)
    _text: bytearray = field(default_factory=bytearray)
    _last_frame: float = field(default_factory=time.monotonic)
    _last_wake: float = 0.0
    _last_revive: float = 0.0

    def read(self) -> bytes:
        data = self.inner.read()
        now = time.monotonic()
        if data:
            self._observe(data, now)
        if now - self._last_frame >= QUIET_S:
            self._act(now)
        return data

    def write(self, data: bytes) -> None:
        self.inner.write(data)

    def close(self) -> None:
        self.inner.close()

    # ---- watching ------------------------------------------------------------------------------

    def _observe(self, data: bytes, now: float) -> None:
        self._text += data
        del self._text[:-TEXT_KEPT]
        if now - self._last_frame < SAMPLE_AFTER_FRAME_S:
            return  # frames are flowing: no need to decode every byte twice
        for _ in self._deframer.feed(data):
            self._last_frame = now  # a frame that passed the CRC: the firmware is running
            self._text.clear()
            self._deframer = proto.Deframer()  # skipped bytes must not join later ones
            return

    def at_repl(self) -> bool:
        """The bytes since the last valid frame show a MicroPython REPL."""
        text = bytes(self._text)
        return any(mark in text for mark in REPL_MARKS)

    # ---- acting --------------------------------------------------------------------------------

    def _act(self, now: float) -> None:
        if self.at_repl():
            if now - self._last_revive >= REVIVE_EVERY_S:
                self._revive(now)
        elif now - self._last_wake >= QUIET_S:
            self._last_wake = now
            self.wakes += 1
            self.inner.write(WAKE)

    def _revive(self, now: float) -> None:
        self._last_revive = now
        self.revives += 1
        log.warning("%s: the tray is at the MicroPython REPL, not running its firmware "
                    "(line garbage or a Ctrl-C): soft-resetting it", self.name)
        for keys in REVIVE_KEYS:
            self.inner.write(keys)
            time.sleep(KEY_GAP_S)
        self._text.clear()
        self._last_frame = time.monotonic()  # give the firmware its boot before judging again


def guard(transport: Transport, name: str = "tray") -> ReviveGuard:
    """Wrap a freshly opened transport (the session's connect path does this)."""
    return ReviveGuard(transport, name)
