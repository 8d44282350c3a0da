"""A tray with a webcam and no electronics (``--no-encoders``): the camera's reads are the dial
events.

``CameraTray`` stands where the tray's link session stands for a ``tracker.runner.TrackedTray``
(``subscribe``, ``unsubscribe``, ``snapshot``): a ``CameraWitness`` in camera-only mode watches
every docked window, burst-reads a dial once its window has changed and is still again, and
each new click it reads becomes a ``Click`` event (the signed clicks from the last one read,
the shorter way round, as an encoder would count them); ``snapshot`` is every dial's last
read. A dial the camera cannot read surely sends nothing (it is read again; the tracker keeps
waiting for it, as for a dial not yet turned): never a guess.

Dials are in the figure's printed clicks: a reader turns ``up`` (+1 when a rising click is
clockwise, -1 for an Air Action speed dial) and has as many detents as its dial prints. Each
is seen at a *place* (its dock, or the dock's holder: a one-dial piece on the dock's second
reader, ``layout.HOLDER``) through a window. Two
clicks that print alike look the same to the camera: a dial read as one of them is taken to be
at the one the rules want (``expect``), listed in ``assumed`` -- once the person has turned
it: the camera saw its window move and read it again since the rules wanted it there, or
``ASSUME_S`` went by (a turn between two clicks that print alike may show no change at all).
Taken at once, the tray stopped asking for the turn before anyone made it: the dial stayed a
click behind the game, and the next turn, from there, ended on a click alike too and was never
seen (an Aces figure's clicks 0 and 1 print alike: its second click of damage stalled a
camera-only Aces game). A token's dial (one printed click: Aces' one-click figures, whose
knock-out is a click) looks the same wherever it rests: it is taken on the rules' word at
once. A dial the camera has no
window for (a layout without holders, a piece without references) cannot be on a camera-only
tray: ``CameraTray`` refuses it, naming it.

A turn whose window change the camera missed (a frame too few, a change under the noise) would
leave the dial's event unsent for good: while the camera has nothing else to read, ``expect``
(each pump) asks it to read one dial again every ``PATROL_S``, in turn, so a missed turn is
found within a round of the dials.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dialtray.link.messages import Click, DialState, Snapshot, TrayEvent
from dialtray.vision.errors import VisionError
from dialtray.vision.layout import place_text
from dialtray.vision.witness import CAMERA_ONLY, CameraWitness, Witnessed

DIAL_NAMES = ("combat", "speed")  # a plane's windows, by the link's dial index
PATROL_S = 0.5  # while the camera is idle, one dial read again this often, in turn
ASSUME_S = 2.0  # a click alike with where the dial rests: taken on the rules' word after this


@dataclass(frozen=True)
class CameraDial:
    """One reader of a camera-only tray: its dock, link dial index, the window's name, which
    way a rising click turns, the clicks its dial prints and the place the camera sees it at
    (the dock, or its holder ``layout.HOLDER + dock``; None: the dock)."""

    dock: int
    dial: int
    name: str
    up: int
    clicks: int
    at: int | None = None

    @property
    def place(self) -> int:
        return self.dock if self.at is None else self.at


class CameraTray:
    """See the module docstring. ``dials``: (dock, link dial index) -> ``CameraDial``."""

    def __init__(self, witness: CameraWitness, dials: Mapping[tuple[int, int], CameraDial],
                 on_unsure: Callable[[Witnessed], None] | None = None) -> None:
        """``on_unsure``: told of a dial the camera could not read (the table asks the player
        to re-seat that figure; the camera reads it again by itself)."""
        for (dock, dial), d in dials.items():
            figure = witness.docks.get(d.place)
            if figure is None or d.name not in witness.reader.classifiers(figure):
                raise VisionError(f"dock {dock} reader {dial} ({d.name}): "
                                  "the camera has no window for it (a camera-only tray reads "
                                  "the dials the tray layout shows: each dock's seat and, for a "
                                  "one-dial piece on its second reader, its holder)")
        self.witness = witness
        self.on_unsure = on_unsure
        self.dials = dict(dials)
        self._by_name = {(d.place, d.name): d for d in dials.values()}
        self._listeners: list[Callable[[TrayEvent], None]] = []
        self._lock = threading.Lock()
        self._seq = 0
        self._pos: dict[tuple[int, int], int] = {}  # physical position, unwrapped
        self.events: list[Click] = []
        self._alike: dict[tuple[int, int], tuple[int, ...]] = {}  # the last read's clicks
        self.assumed: list[tuple[int, str, int]] = []  # turns taken on the rules' word
        self.patrols = 0  # dials read again by the patrol
        self._patrolled = float("-inf")
        self._patrolling: set[tuple[int, str]] = set()
        self.quiet: set[int] = set()  # ids of patrol reads that changed nothing (not news)
        self._moved: dict[tuple[int, int], float] = {}  # read after its window moved, no news:
        # when (a move before the rules wanted the click is not the turn they asked for)
        self._wanted: dict[tuple[int, int], tuple[int, float]] = {}  # alike click, since when
        witness.on_result = self._on_read
        witness.camera_only = True

    def start(self) -> CameraTray:
        self.witness.start()
        for d in self.dials.values():
            self.witness.settled(d.place, d.name, None)  # every dial read once at the start
        return self

    def close(self) -> None:
        self.witness.stop()

    def __enter__(self) -> CameraTray:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def subscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def tell(self, ev: TrayEvent) -> None:
        """Deliver ``ev`` to every listener (a tray's connect snapshot, ``CameraLink``)."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(ev)

    def snapshot(self, timeout: float = 30.0) -> Snapshot:
        """Every dial's position as last read (waiting for each dial's first read); raises
        TimeoutError naming the dials the camera could not read."""
        if not self.witness.wait(lambda: len(self._pos) == len(self.dials), timeout):
            missing = [f"{place_text(d.place)} {d.name}" for k, d in self.dials.items()
                       if k not in self._pos]
            raise TimeoutError("the camera could not read " + ", ".join(missing)
                               + (f" ({self.witness.error})" if self.witness.error else ""))
        with self._lock:
            return Snapshot(0, 1, self._seq + 1, tuple(
                DialState(d.dock, d.dial, "camera", 0, d.clicks, self._pos[k] % d.clicks)
                for k, d in sorted(self.dials.items())), "camera")

    def expect(self, wants: Mapping[tuple[int, int], int]) -> None:
        """The clicks the rules want now ((dock, dial) -> click): a dial whose last read
        names that click among others that print alike (the camera cannot see a turn between
        them) is taken to be there; and the patrol (see the module docstring). (Called by the
        thread that runs the tracker.)"""
        self._patrol()
        for key, click in wants.items():
            alike = self._alike.get(key, ())
            d = self.dials.get(key)
            if d is not None and d.clicks == 1 and key in self._pos:
                # a token (an Aces figure whose dial prints one click: a knock-out is a click
                # of it): no camera sees it turn; ``click`` is unwrapped (``wants``)
                if click * d.up != self._pos[key]:
                    self.assumed.append((d.dock, d.name, click))
                    self._shift(d, click * d.up - self._pos[key], 0.0)
                continue
            if d is not None and key in self._pos and click in alike and len(alike) > 1 \
                    and (self._pos[key] * d.up) % d.clicks != click:
                now = self.witness.clock()
                if self._wanted.get(key, (None,))[0] != click:
                    self._wanted[key] = (click, now)
                since = self._wanted[key][1]
                if self._moved.get(key, -1.0) >= since or now - since >= ASSUME_S:
                    self._moved.pop(key, None)
                    self._wanted.pop(key, None)
                    self.assumed.append((d.dock, d.name, click))
                    self._move(d, click, 0.0)

    def _patrol(self) -> None:
        now = self.witness.clock()
        if now - self._patrolled < PATROL_S or len(self._pos) < len(self.dials) \
                or not self.witness.idle():
            return
        self._patrolled = now
        keys = sorted(self.dials)
        d = self.dials[keys[self.patrols % len(keys)]]
        self.patrols += 1
        self._patrolling.add((d.place, d.name))
        self.witness.settled(d.place, d.name, None)

    def _on_read(self, w: Witnessed) -> None:
        patrol = (w.dock, w.dial) in self._patrolling
        self._patrolling.discard((w.dock, w.dial))
        before = len(self.events)
        d = self._by_name.get((w.dock, w.dial))
        known = d is not None and (d.dock, d.dial) in self._pos
        self._read(w)
        if d is not None and known and not patrol and w.state == CAMERA_ONLY:
            if len(self.events) == before:  # moved, then read where it was (or alike)
                self._moved[(d.dock, d.dial)] = w.at
            else:
                self._moved.pop((d.dock, d.dial), None)
        if patrol and w.state == CAMERA_ONLY and len(self.events) == before:
            self.quiet.add(id(w))

    def _read(self, w: Witnessed) -> None:
        d = self._by_name.get((w.dock, w.dial))
        if d is not None and w.state != CAMERA_ONLY and self.on_unsure is not None:
            self.on_unsure(w)
        if d is None or w.state != CAMERA_ONLY:
            return
        key = (d.dock, d.dial)
        self._alike[key] = w.camera
        click = w.click
        if click is None:  # look-alike clicks, none of them the last: where it was is kept
            with self._lock:
                here = (self._pos[key] * d.up) % d.clicks if key in self._pos else None
            if here is None and w.camera:  # a first read: the first of them (the rules'
                here = min(w.camera)  # start check, then ``expect``, put it right)
                self.assumed.append((d.dock, d.name, here))
            if here is None or here not in w.camera:
                return
            click = here
        self._move(d, click, w.at)

    def _move(self, d: CameraDial, click: int, at: float) -> None:
        key = (d.dock, d.dial)
        phys = (click * d.up) % d.clicks
        with self._lock:
            if key not in self._pos:
                self._pos[key] = phys
                return
            delta = (phys - self._pos[key]) % d.clicks
            if delta > d.clicks // 2:
                delta -= d.clicks
        self._shift(d, delta, at)

    def _shift(self, d: CameraDial, delta: int, at: float) -> None:
        """A ``Click`` of ``delta`` clicks for ``d`` to every listener (none for 0)."""
        key = (d.dock, d.dial)
        with self._lock:
            if delta == 0:
                return
            self._pos[key] += delta
            self._seq += 1
            ev = Click(self._seq, d.dock, d.dial, self._pos[key] % d.clicks, delta,
                       int(at * 1000))
            self.events.append(ev)
            listeners = list(self._listeners)
        for listener in listeners:
            listener(ev)
