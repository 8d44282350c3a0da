"""A cable that misbehaves on purpose, for tests and soak runs.

:class:`FaultInjector` damages a byte stream the way a bad USB link or a noisy UART does:
corrupted bytes, dropped bytes, duplicated bytes. It is deterministic for a given seed so a
failing run can be replayed. :class:`FaultyTransport` wraps any transport with one injector per
direction and cuts the connection at random intervals around ``disconnect_every_s``. The virtual
tray's USB bridge uses the same injector, so the fault model is written once.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from dialtray.link.transport import LinkDown, Transport


@dataclass
class FaultInjector:
    corrupt: float = 0.0  # probability a byte is replaced by a random one
    drop: float = 0.0  # probability a byte is lost
    duplicate: float = 0.0  # probability a byte arrives twice
    seed: int = 0
    rng: random.Random = field(init=False)
    corrupted: int = 0
    dropped: int = 0
    duplicated: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def active(self) -> bool:
        return self.corrupt > 0 or self.drop > 0 or self.duplicate > 0

    def apply(self, data: bytes) -> bytes:
        if not self.active or not data:
            return data
        rnd = self.rng.random
        out = bytearray()
        for b in data:
            r = rnd()
            if r < self.drop:
                self.dropped += 1
                continue
            if r < self.drop + self.corrupt:
                new = self.rng.randrange(256)
                if new != b:
                    self.corrupted += 1
                b = new
            out.append(b)
            if rnd() < self.duplicate:
                self.duplicated += 1
                out.append(b)
        return bytes(out)


@dataclass
class FaultyTransport:
    """Wraps a transport: damages bytes both ways and disconnects now and then."""

    inner: Transport
    to_host: FaultInjector
    to_device: FaultInjector
    disconnect_every_s: float = 0.0
    seed: int = 0
    _cut_at: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed ^ 0x5EED)
        self._schedule()

    def _schedule(self) -> None:
        if self.disconnect_every_s > 0:
            self._cut_at = time.monotonic() + self._rng.uniform(0.5, 1.5) * self.disconnect_every_s

    def _check_cut(self) -> None:
        if self.disconnect_every_s > 0 and time.monotonic() >= self._cut_at:
            self.inner.close()
            raise LinkDown("fault injector: cable cut")

    def read(self) -> bytes:
        self._check_cut()
        return self.to_host.apply(self.inner.read())

    def write(self, data: bytes) -> None:
        self._check_cut()
        self.inner.write(self.to_device.apply(data))

    def close(self) -> None:
        self.inner.close()
