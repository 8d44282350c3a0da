"""The tray on an emulated Pico: the same physical world and console as the unix-port tray.

:class:`Rp2040Tray` has the interface :class:`dialtray.virtual.tray.VirtualTray` offers the
console (``virtual/script.py``), ``dialtray sim`` and the demo: the dials' positions, magnets,
sensors that stop answering, the roll button, contact bounce, the power switch and the USB
cable. Here the firmware is the real one on the official MicroPython for the Pico, its
``hw_rp2`` backend included, and each of these acts on the chip's pins and buses through the
bench's device models (``devices.mjs``): a turn moves an AS5600's magnet or steps an encoder's
contacts, in the chip's own time.

The serial port is a pseudo-terminal (the same cable as the unix-port tray's, see
``virtual/bridge.py``) joined to the emulated USB CDC; :attr:`socket_url` reaches the CDC
directly. The LEDs are what the WS2812 data pin carried, decoded (:mod:`.leds`).
"""

from __future__ import annotations

import contextlib
import secrets
import shutil
import socket
import tempfile
import threading
from pathlib import Path
from typing import Any

from dialrig import config

from dialtray.link.faults import FaultInjector
from dialtray.virtual.bridge import UsbBridge
from dialtray.virtual.rp2040.follow import DialFollow
from dialtray.virtual.rp2040.image import build_image
from dialtray.virtual.rp2040.pico import EmulatedPico, LedFrame
from dialtray.virtual.tray import DEFAULT_TURN_MS, TICKS_PER_DETENT, PhysicalDial, dial_index

AS5600_COUNTS = 4096
# The emulated chip runs at 0.1-0.45x real time (less on a loaded machine): a host in this
# process waits this many times longer for it (dialtray.link.engine.PATIENCE).
LINK_PATIENCE = 10.0


class Rp2040Tray:
    """``with Rp2040Tray(cfg) as tray: tray.port``: the firmware on an emulated Pico.

    flash_file   the board's flash (default: in the work folder): a tray built again on the
                 same file finds what the firmware wrote there (its calibration) and what was
                 flashed. Created from the UF2 plus, unless ``blank``, a littlefs image of what
                 ``dialtray flash`` copies (and the config as /dialrig.json when not the default).
    blank        a Pico with only MicroPython on it, as from micropython.org: `dialtray flash`
                 puts the firmware on it.
    """

    def __init__(self, cfg: dict[str, Any] | None = None, *, workdir: Path | None = None,
                 seed: int | None = None, bounce: bool = False,
                 to_host: FaultInjector | None = None, to_device: FaultInjector | None = None,
                 uid: str = "e660583883724a32", flash_file: Path | None = None,
                 blank: bool = False, realtime: bool = True) -> None:
        self.cfg = cfg or config.default_config()
        problems = config.validate(self.cfg)
        if problems:
            raise ValueError("invalid tray config: " + "; ".join(problems))
        self._own_dir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="dialtray-rp2040-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = str(self.workdir / "ttyDIALTRAY0")
        self.flash_file = Path(flash_file or self.workdir / "flash.bin")
        # no seed: the ring oscillator differs at every power-on, as on a Pico (a game's dice
        # are fresh); a seed makes a test's run repeat
        self.seed = seed if seed is not None else secrets.randbits(31) + 1
        self.bounce = bounce
        self.uid = uid
        self.dials = [PhysicalDial() for _ in range(len(self.cfg["docks"]) * 2)]
        self.leds = b""
        self.frames = 0
        self.resets: list[str] = []
        self.notes: list[str] = []
        self.errors: list[str] = []
        self._lock = threading.RLock()
        self._sock: socket.socket | None = None
        image = None
        if not blank and not self.flash_file.exists():
            custom = self.cfg if self.cfg != config.default_config(len(self.cfg["docks"])) \
                or len(self.cfg["docks"]) != config.DEFAULT_DOCKS else None
            image = build_image(custom)
        self.pico = EmulatedPico(self.flash_file, lfs_image=image, uid=uid, seed=self.seed,
                                 realtime=realtime, on_frame=self._on_frame)
        self.pico.on_at = self._on_at
        self._follow = DialFollow(self.cfg, self.dials)
        self.bridge = UsbBridge(Path(self.port), to_host, to_device)

    # ---- life cycle ----------------------------------------------------------------------------

    def start(self) -> Rp2040Tray:
        from dialtray.link import engine

        self._patience = engine.PATIENCE
        engine.PATIENCE = max(engine.PATIENCE, LINK_PATIENCE)
        self.pico.start()
        self._sock = self.pico.connect()
        self._sock.setblocking(False)
        self.bridge.attach_device(self._sock.fileno())
        self.bridge.plug()
        self._wire()
        return self

    def __enter__(self) -> Rp2040Tray:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        from dialtray.link import engine

        engine.PATIENCE = getattr(self, "_patience", engine.PATIENCE)
        self.bridge.close()
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None
        self.pico.close()
        if self._own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    @property
    def socket_url(self) -> str:
        return self.pico.socket_url

    @property
    def running(self) -> bool:
        return self.pico.alive and self._powered

    _powered = True

    @property
    def boots(self) -> int:
        return len(self.pico.events.boots)

    def power_on(self) -> None:
        self._powered = True
        self.pico.send("power", on=True)

    def power_off(self) -> None:
        self._powered = False
        self.pico.send("power", on=False)

    def reboot(self) -> None:
        """Pull the power and restore it: RAM is lost; flash and the dials' positions stay."""
        self.resets.append("power")
        self.pico.send("reset")

    def unplug(self) -> None:
        self.bridge.unplug()

    def replug(self) -> str:
        return self.bridge.plug()

    # ---- the physical world --------------------------------------------------------------------

    def dial_index(self, dock: int, dial: int | str) -> int:
        return dial_index(self.cfg, dock, dial)

    def _setting(self, k: int) -> dict[str, Any]:
        setting: dict[str, Any] = self.cfg["docks"][k // 2][k % 2]
        return setting

    def _angle(self, k: int) -> float:
        s = self._setting(k)
        per_rev = s["detents"] * TICKS_PER_DETENT
        return float((s["zero"] + self.dials[k].ticks % per_rev * AS5600_COUNTS // per_rev)
                     % AS5600_COUNTS)

    def _wire(self) -> None:
        """Put every AS5600 where its dial is (before the firmware first looks)."""
        self._follow.start(self._angle)
        for k in range(len(self.dials)):
            s = self._setting(k)
            if s["sensor"] == config.SENSOR_AS5600:
                self.pico.send("sensor", mux=s["mux"], ch=s["channel"], angle=self._angle(k))

    def turn(self, dock: int, dial: int | str, clicks: int, ms: int | None = None) -> None:
        """A person turns a dial by ``clicks`` detents (positive = clockwise) over ``ms``."""
        k = self.dial_index(dock, dial)
        ms = ms if ms is not None else DEFAULT_TURN_MS * max(1, abs(clicks))
        s = self._setting(k)
        with self._lock:
            self.dials[k].ticks += clicks * TICKS_PER_DETENT
            if s["sensor"] == config.SENSOR_AS5600:
                delta = clicks * AS5600_COUNTS / s["detents"]
                self.pico.send("rotate", mux=s["mux"], ch=s["channel"], delta=delta, ms=ms)
            elif s["sensor"] == config.SENSOR_QUADRATURE:
                self.pico.send("quad", n=s["quad"], steps=clicks * 4 * s["pulses"], ms=ms,
                               bounce=self.bounce)

    def _sensor(self, k: int, **state: Any) -> None:
        s = self._setting(k)
        if s["sensor"] != config.SENSOR_AS5600:
            raise ValueError(f"dock {k // 2} {config.DIAL_NAMES[k % 2]} has no AS5600")
        self.pico.send("sensor", mux=s["mux"], ch=s["channel"], **state)

    def set_magnet(self, dock: int, dial: int | str, present: bool) -> None:
        k = self.dial_index(dock, dial)
        self.dials[k].magnet = present
        self._sensor(k, magnet=present)

    def set_nak(self, dock: int, dial: int | str, nak: bool) -> None:
        k = self.dial_index(dock, dial)
        self.dials[k].nak = nak
        self._sensor(k, nak=nak)

    def set_gap(self, dock: int, dial: int | str, mm: float | None) -> None:
        k = self.dial_index(dock, dial)
        self.dials[k].gap = mm
        self._sensor(k, gap=mm)

    def set_mux_nak(self, addr: int, nak: bool) -> None:
        if addr not in config.MUX_ADDRS:
            raise ValueError(f"no multiplexer at 0x{addr:02x} (they are "
                             + ", ".join(f"0x{a:02x}" for a in config.MUX_ADDRS) + ")")
        self.pico.send("mux", addr=addr, nak=nak)

    def remove_mux(self, addr: int) -> None:
        """The multiplexer is not on the board at all (not fitted, or its cable is off)."""
        self.pico.send("mux", addr=addr, present=False)

    def set_dead_encoder(self, n: int, dead: bool = True) -> None:
        """Encoder n's common lead is broken: both contacts open whatever the shaft does."""
        self.pico.send("quad", n=n, dead=dead)

    def press_button(self, hold_ms: int = 60) -> None:
        self.pico.send("press", ms=hold_ms)

    def set_bounce(self, on: bool) -> None:
        self.bounce = on

    def wedge_sensor(self, dock: int, dial: int | str) -> None:
        """The dial's AS5600 wedges: the next time it is addressed it stretches SCL for ever
        (until a multiplexer reset or a power-on cuts it off the bus)."""
        self._sensor(self.dial_index(dock, dial), wedge=True)

    def hang(self, ms: int) -> None:
        """The CPU stops running the firmware for ``ms`` of its time (a task that never yields,
        interrupts off): nothing feeds the watchdog, which keeps counting."""
        self.pico.send("stall", ms=ms)

    def detent(self, dock: int, dial: int | str) -> int:
        return self.dials[self.dial_index(dock, dial)].detent

    def seen(self, dock: int, dial: int | str) -> float:
        """Where the dial physically is as the firmware last found it, in clicks (a fraction:
        mid-turn), on the chip's clock: an AS5600's magnet as the firmware last read it, an
        encoder's shaft as its contacts last moved (the PIO sees each). The emulated chip runs
        at a fraction of real time, so this lags the turns asked of it (``detent``); a camera
        filming the same tray shows this (``vision.virtual_camera.DialWorld.follow``), as it
        does the unix-port tray's (``VirtualTray.seen``). The first call starts the bench's
        reports (``at`` events); what the bench has reported is taken as its event thread
        reads it (the unix-port tray drains its channel first: here the firmware's read comes
        settle_ms of chip time before its click, far more than that thread's delay)."""
        k = self.dial_index(dock, dial)
        if not self._follow.on:
            self._follow.on = True
            self.pico.send("follow", on=True)
        return round(self._follow.ticks[k] / TICKS_PER_DETENT, 6)

    def _on_at(self, ev: dict[str, Any]) -> None:
        self._follow.report(ev)

    def _on_frame(self, frame: LedFrame) -> None:
        self.leds = frame.grb
        self.frames += 1
