"""A tray with a webcam and no electronics (``--no-encoders``): the camera's reads are the dial
events.

``CameraTray`` stands where the tray's link session stands for a ``tracker.runner.TrackedTray``
(``subscribe``, ``unsubscribe``, ``snapshot``): a ``CameraWitness`` in camera-only mode watches
every docked window, burst-reads a dial once its window has changed and is still again, and
a new click it reads surely becomes a ``Click`` event once the window has stayed still
``SETTLE_S`` since (a sensed board takes a move when the board is still: DGT, PicoChess): a
turn read in parts is one event of the full difference, a turn and back its two legs together
(the signed clicks the shorter way round between reads, as an encoder would count them);
``snapshot`` is every dial's first read. A dial the camera cannot read surely sends nothing
(it is read again; the tracker keeps waiting for it, as for a dial not yet turned): never a
guess.

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
SETTLE_S = 1.0  # a dial's window still this long after a sure read of it: the read is a
# dial event (docs/vision.md "The camera-only tray's settle window": longer than a person's
# regrip mid-turn, 0.2-0.6 s; the tracker's own judge_s is a person's pause too)
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
        # sure reads not yet settled, since the last event (physical, unwrapped): a turn's
        # turning points; when the last one was read (the camera's clock)
        self._path: dict[tuple[int, int], list[int]] = {}
        self._sure_at: dict[tuple[int, int], float] = {}
        self._reread: dict[tuple[int, int], float] = {}  # when a settle last asked for a read
        self.settle_s = SETTLE_S
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
        witness.on_frame = self._settle
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
                    self._emit(d, [click * d.up], self.witness.clock())
                continue
            if d is not None and key in self._pos and click in alike and len(alike) > 1 \
                    and (self._pos[key] * d.up) % d.clicks != click \
                    and not self._path.get(key):
                now = self.witness.clock()
                if self._wanted.get(key, (None,))[0] != click:
                    self._wanted[key] = (click, now)
                since = self._wanted[key][1]
                if self._moved.get(key, -1.0) >= since or now - since >= ASSUME_S:
                    self._moved.pop(key, None)
                    self._wanted.pop(key, None)
                    self.assumed.append((d.dock, d.name, click))
                    self._emit(d, [self._near(d, self._pos[key], click)], now)

    def unsettled(self) -> list[tuple[int, str]]:
        """The dials with a turn the camera has read but not yet reported (its window not
        still for ``settle_s`` since)."""
        with self._lock:
            return [(self.dials[k].dock, self.dials[k].name) for k, p in self._path.items()
                    if p]

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
        d = self._by_name.get((w.dock, w.dial))
        known = d is not None and (d.dock, d.dial) in self._pos
        news = self._read(w)
        if d is not None and known and not patrol and w.state == CAMERA_ONLY:
            if news:
                self._moved.pop((d.dock, d.dial), None)
            else:  # moved, then read where it was (or alike)
                self._moved[(d.dock, d.dial)] = w.at
        if not news and patrol and w.state == CAMERA_ONLY:
            self.quiet.add(id(w))

    def _read(self, w: Witnessed) -> bool:
        """A read of the camera's: True when it is news (a first read, a turn's new point)."""
        d = self._by_name.get((w.dock, w.dial))
        if d is not None and w.state != CAMERA_ONLY and self.on_unsure is not None:
            self.on_unsure(w)
        if d is None or w.state != CAMERA_ONLY:
            return False
        key = (d.dock, d.dial)
        self._alike[key] = w.camera
        click = w.click
        with self._lock:
            here = self._path[key][-1] if self._path.get(key) else self._pos.get(key)
        if click is None:  # look-alike clicks, none of them the last: where it was is kept
            now = (here * d.up) % d.clicks if here is not None else None
            if now is None and w.camera:  # a first read: the first of them (the rules'
                now = min(w.camera)  # start check, then ``expect``, put it right)
                self.assumed.append((d.dock, d.name, now))
            if now is None or now not in w.camera:
                return False
            click = now
        with self._lock:
            self._sure_at[key] = w.at
            if here is None:  # the dial's first read: where it starts
                self._pos[key] = (click * d.up) % d.clicks
                return True
            p = self._near(d, here, click)
            if p == here:
                return False
            path = self._path.setdefault(key, [])
            before = path[-2] if len(path) >= 2 else self._pos[key]
            if path and (p - here) * (here - before) > 0:
                path[-1] = p  # the same turn, further on: one point
            else:
                path.append(p)
            return True

    @staticmethod
    def _near(d: CameraDial, here: int, click: int) -> int:
        """The physical position (unwrapped) showing ``click`` nearest ``here``: the shorter
        way round, as an encoder would count it."""
        delta = ((click * d.up) % d.clicks - here) % d.clicks
        return here + (delta - d.clicks if delta > d.clicks // 2 else delta)

    def _settle(self, now: float) -> None:
        """(Each frame, the camera's thread.) A dial whose window has been still
        ``settle_s`` since a sure read of it (and read since it last changed): its turn's
        points become its events: one event a turn the camera saw in parts; a turn and back
        (a peek) its two legs, delivered together."""
        for key, path in list(self._path.items()):
            d = self.dials[key]
            still = self.witness.still_for(d.dock, d.name, now)
            if not path or still < self.settle_s:
                continue
            if self._sure_at.get(key, -1.0) < now - still:  # not read since it changed (the
                if now - self._reread.get(key, -1e9) >= self.settle_s:  # tray was found
                    self._reread[key] = now  # afresh, nothing to start a read): read it
                    self.witness.settled(d.dock, d.name, None)
                continue
            self._emit(d, path, now)

    def _emit(self, d: CameraDial, points: list[int], at: float) -> None:
        """The dial's events: from where it was to each of ``points`` in turn."""
        key = (d.dock, d.dial)
        out = []
        with self._lock:
            self._path.pop(key, None)
            for p in points:
                delta = p - self._pos[key]
                if delta:
                    self._pos[key] = p
                    self._seq += 1
                    out.append(Click(self._seq, d.dock, d.dial, p % d.clicks, delta,
                                     int(at * 1000)))
            self.events.extend(out)
            listeners = list(self._listeners)
        for ev in out:
            for listener in listeners:
                listener(ev)
