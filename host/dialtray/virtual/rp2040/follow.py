"""Where the emulated Pico's firmware last found each dial (``Rp2040Tray.seen``), from the
bench's ``at`` events: an AS5600's magnet angle as the firmware read it, an encoder's count as
its contacts moved. The virtual camera films these positions (``DialWorld.follow``), so camera
and encoder see one motion on the chip's clock, as with the unix-port tray's ``at`` lines.

Positions are kept in ticks (1000 a click), unwrapped: an angle is followed the short way from
the last one (the firmware reads a dial every few ms of chip time; no turn of the bench goes
half a revolution in that), an encoder's count is relative to the bench's start."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from dialrig import config

AS5600_COUNTS = 4096
TICKS_PER_DETENT = 1000



class DialFollow:
    """Each dial's position as last found (``ticks``: index k = dock * 2 + dial)."""

    def __init__(self, cfg: dict[str, Any], dials: list[Any]) -> None:
        self.cfg, self.dials = cfg, dials
        self.on = False  # the bench reports (``follow``) once someone asked where a dial is
        self.ticks: list[float] = [float(d.ticks) for d in dials]
        self._angle: list[float] = [0.0] * len(dials)
        self._count0: list[float] = [float(d.ticks) for d in dials]  # ticks at count 0
        self._sensor: dict[tuple[int, int], int] = {}
        self._quad: dict[int, int] = {}
        for k in range(len(dials)):
            s = cfg["docks"][k // 2][k % 2]
            if s["sensor"] == config.SENSOR_AS5600:
                self._sensor[(s["mux"], s["channel"])] = k
            elif s["sensor"] == config.SENSOR_QUADRATURE:
                self._quad[s["quad"]] = k
        self._lock = threading.Lock()

    def start(self, angle: Callable[[int], float]) -> None:
        """The bench has just placed every magnet where its dial is (``angle(k)``) and its
        encoders count from 0: positions start at the dials' own."""
        with self._lock:
            for k, d in enumerate(self.dials):
                self.ticks[k] = self._count0[k] = float(d.ticks)
                self._angle[k] = angle(k)

    def report(self, ev: dict[str, Any]) -> None:
        """One ``at`` event of the bench (its events thread)."""
        with self._lock:
            if "quad" in ev:
                k = self._quad.get(int(ev["quad"]))
                if k is not None:
                    per_click = 4 * self.cfg["docks"][k // 2][k % 2]["pulses"]
                    self.ticks[k] = self._count0[k] + \
                        float(ev["count"]) * TICKS_PER_DETENT / per_click
                return
            k = self._sensor.get((int(ev["mux"]), int(ev["ch"])))
            if k is None:
                return
            angle = float(ev["angle"])
            moved = (angle - self._angle[k] + AS5600_COUNTS / 2) % AS5600_COUNTS \
                - AS5600_COUNTS / 2
            self._angle[k] = angle
            s = self.cfg["docks"][k // 2][k % 2]
            # (the bench's magnet turns with the ticks whatever the dial's direction setting,
            # which is the firmware's reading of it: Rp2040Tray._angle)
            self.ticks[k] += moved * s["detents"] * TICKS_PER_DETENT / AS5600_COUNTS
