"""A camera-only tray at the table (``play``/``serve --sim --camera virtual --no-encoders``,
issue 33): a tray with a camera and no electronics, its dial events the camera's reads.

* ``unreadable``: the bound dials the camera has no window for: every dial a figure or card
  can have on a dock has one in the sample layout (a plane's two, an Aces figure's, an Ace
  card's; a one-dial piece on a dock's second reader in the dock's holder), so this is only
  a tray layout without holders or a base type, or a piece with no references: a camera-only
  table refuses such dials before the game starts, naming them (``CameraOnlyError``).
* ``virtual_camera_tray``: the virtual camera filming a ``DialWorld`` of the tracker's
  figures, read by a ``CameraTray`` (``vision.camera_tray``); its hand turns the world's dials
  (a bot's, or a person's typed ``turn``), and a dial the camera could not read is re-seated
  by the virtual player as the table asks.
* ``CameraLink``: that tray where a ``TraySession`` stands for the store's ``StoredTable``
  and the web UI's ``LiveTable`` (always live, one boot, nothing to acknowledge: there is no
  tray log to replay), carrying the camera (``CameraOnly``) whose ``pump`` (on the table's
  thread, as ``TableCamera.pump``) tells the camera which click the rules want of each dial
  (clicks that print alike, ``CameraTray.expect``) and writes its reads into the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dialtray.link.messages import Snapshot, TrayEvent
from dialtray.link.state import SessionState
from dialtray.tracker.binding import READERS, Slot
from dialtray.tracker.tracker import Tracker

PROFILES = ("held-back", "train", "clean")
FIRST_READ_S = 300.0  # every dial's first read: a hard window is read 3 times, re-seated, again
GRIP = 3  # clicks a person turns in one grip (``tracker.runner.CHUNK``'s)
CLICK_S = 0.04  # seconds a click of the virtual player's hand
REGRIP_S = 0.3  # a person's pause between two grips of one turn
LOOK_S, LOOK_FRAMES = 1.0, 8  # a dial turned again after a look (a peek: turned, read, turned
# back) is held this long, and at least this many frames: a camera sees no peek shorter than
# the frames it needs to read a still window (3 still, a burst of 2 or more)


class CameraOnlyError(ValueError):
    """What a camera-only tray cannot do, said before the game starts."""


def unreadable(kind: str, tracker: Tracker, layout: Any = None) -> list[str]:
    """The bound dials no camera window shows, as ``dock N reader R (kind dial of FIGURE:
    why)``: a piece the camera does not know, a place or window the tray ``layout`` (default:
    the sample's) does not have, two pieces in one place, a piece with no references."""
    from dialtray.table.camera import camera_pieces
    from dialtray.vision.faces import base_type_of
    from dialtray.vision.layout import load_layout, place_text
    from dialtray.vision.refs import SAMPLE_REFS
    from dialtray.vision.testset import sample_ace_cards, sample_figures

    layout = layout or load_layout()
    pieces = camera_pieces(kind, tracker)
    docs = {**sample_figures(kind), **(sample_ace_cards() if kind == "airaction" else {})}
    first: dict[int, str] = {}
    out = []
    for slot, st in sorted(tracker.slots.items()):
        p = pieces.get(slot)
        why = ""
        if p is None:
            why = "the camera knows no piece with this dial"
        elif p.place not in layout.places:
            why = f"the tray layout {layout.file} has no {place_text(p.place)}"
        elif first.setdefault(p.place, p.figure) != p.figure:
            why = f"{first[p.place]} already sits in {place_text(p.place)}"
        elif p.figure not in docs or not (SAMPLE_REFS / kind / f"{p.figure}.npz").exists():
            why = f"no reference crops for {p.figure}"
        else:
            bt = layout.base_types.get(base_type_of(docs[p.figure]))
            if bt is None or p.window not in bt.windows:
                why = f"the tray layout {layout.file} has no {p.window} window for it"
        if why:
            out.append(f"dock {slot.dock} reader {slot.dial} ({st.dial.kind} dial of "
                       f"{st.dial.figure}: {why})")
    return out


def refuse_unreadable(kind: str, tracker: Tracker, layout: Any = None) -> None:
    """Raise ``CameraOnlyError`` naming every dial the camera cannot read."""
    bad = unreadable(kind, tracker, layout)
    if bad:
        raise CameraOnlyError(
            "a camera-only tray reads only the dials the camera sees (each dock's seat and "
            "its holder, through the windows of the tray layout); it has no window for "
            + "; ".join(bad) + " (play this game with the encoders: --camera virtual without "
            "--no-encoders)")


def wants(tracker: Any, dials: dict[tuple[int, int], Any]) -> dict[tuple[int, int], int]:
    """(dock, dial) -> the printed click the rules want of each dial not yet there."""
    out = {}
    for slot, st in tracker.slots.items():
        d = dials.get((slot.dock, slot.dial))
        if d is not None and st.want is not None and st.want != st.seen:
            # a token's one printed click: the clicks unwrapped (``CameraTray.expect``)
            out[(slot.dock, slot.dial)] = st.want * st.up if d.clicks == 1 else \
                (st.want * st.up) % d.clicks
    return out


@dataclass
class CameraOnly:
    """The camera of a camera-only tray, as a table drives it (``TableCamera``'s calls)."""

    tray: Any  # vision.camera_tray.CameraTray
    world: Any  # vision.virtual_camera.DialWorld
    film: Callable[[int, str, int], None] | None = None  # a person's typed turn
    reseats: list[Any] = field(default_factory=list)
    told: int = 0
    closed: bool = False

    @property
    def witness(self) -> Any:
        return self.tray.witness

    def pump(self, tracker: Any) -> list[Any]:
        """On the table's thread: the clicks the rules want told to the camera, then its new
        reads written into the game (``# camera`` lines; an unsure read a note; a patrol's
        read that found the dial where it was is not news)."""
        from dialtray.table.camera import write

        self.tray.expect(wants(tracker, self.tray.dials))
        new = list(self.witness.results[self.told:])
        self.told += len(new)
        news = [w for w in new if id(w) not in self.tray.quiet]  # not a patrol's "unchanged"
        write(news, tracker)
        return news

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.tray.close()


@dataclass
class CameraHand:
    """The virtual player's hand over a camera-only tray: a turn is a person's motions, a few
    clicks a grip with a regrip between, and a dial it turns again is first looked at
    (``look_s``). ``whole_moves``: the table hands it a bot's whole move at once (a person
    does not wait for the tray between grips; the camera reports a dial only once it is
    still, so a turn waited on in parts would be judged short between them)."""

    dials: dict[tuple[int, int], Any]  # (dock, dial) -> vision.camera_tray.CameraDial
    world: Any  # vision.virtual_camera.DialWorld
    look_s: float = LOOK_S
    whole_moves: bool = True

    def __call__(self, slot: Slot, n: int) -> None:
        d = self.dials[(slot.dock, slot.dial)]
        after, left = self.look_s, n
        while left:
            step = max(-GRIP, min(GRIP, left))
            left -= step
            self.world.turn(d.place, d.name, step * d.up, CLICK_S * abs(step), after=after)
            after = REGRIP_S


class CameraLink:
    """A ``CameraTray`` where a ``TraySession`` stands (see the module docstring)."""

    ack_policy = "manual"
    boot_id = 1
    name = "camera"

    def __init__(self, camera: CameraOnly, hand: CameraHand) -> None:
        self.camera, self.hand = camera, hand
        self.tray = camera.tray
        self._state = SessionState.CONNECTING

    @property
    def state(self) -> SessionState:
        return self._state

    def start(self) -> CameraLink:
        if self._state is SessionState.CONNECTING:
            self.tray.start()
            self._state = SessionState.LIVE
        return self

    def stop(self) -> None:
        if self._state is not SessionState.STOPPED:
            self._state = SessionState.STOPPED
            self.camera.close()

    def __enter__(self) -> CameraLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_synced(self, timeout: float = 0.0) -> None:
        """Wait for every dial's first read and deliver it to the listeners as a tray's
        connect snapshot (a ``TraySession`` sends one when it syncs; ``play`` asks for it
        with ``sync`` instead)."""
        self.tray.tell(self.snapshot(timeout))

    def set_timing(self, *_args: int) -> None:
        """No encoders: nothing settles but what the camera sees still."""

    def acknowledge(self, boot_id: int, seq: int) -> None:
        """No tray log: the game's store is the only record of the camera's events."""

    def subscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        self.tray.subscribe(listener)

    def unsubscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        self.tray.unsubscribe(listener)

    def snapshot(self, timeout: float = 5.0) -> Snapshot:
        """Every dial's first read (waiting long enough for a hard window's re-reads)."""
        snap: Snapshot = self.tray.snapshot(max(timeout, FIRST_READ_S))
        return snap


def virtual_camera_tray(kind: str, tracker: Tracker, seed: int, profile: str = "held-back",
                        fps: float = 30.0, layout: Any = None) -> CameraLink:
    """The virtual camera-only tray of ``tracker``'s figures (not started); raises
    ``CameraOnlyError`` naming any bound dial the camera cannot read."""
    from dialtray.table.camera import camera_dials, catalogue_figures
    from dialtray.vision.camera_tray import CameraTray
    from dialtray.vision.layout import load_layout
    from dialtray.vision.virtual_scene import virtual_scene
    from dialtray.vision.witness import CameraWitness, Witnessed

    layout = layout or load_layout()
    refuse_unreadable(kind, tracker, layout)
    figs = catalogue_figures(kind, tracker)
    world, cam, reader, docks = virtual_scene(layout, kind, figs, profile, seed, fps)
    witness = CameraWitness(cam, reader, figs, watch=True, camera_only=True)
    rng = np.random.default_rng(seed + 1)
    reseats: list[Witnessed] = []

    def reseat(w: Witnessed) -> None:  # the table asks for a re-seat; the player does it
        reseats.append(w)
        world.unseat(w.dock, (float(rng.uniform(-3, 3)), float(rng.uniform(-0.8, 0.8)),
                              float(rng.uniform(-0.8, 0.8))))

    tray = CameraTray(witness, camera_dials(tracker, {(d, k): len(f) for d, s in docks.items()
                                                      for k, f in s.faces.items()}, kind),
                      reseat)
    hand = CameraHand(tray.dials, world, max(LOOK_S, LOOK_FRAMES / fps))

    def film(dock: int, name: str, n: int) -> None:  # ``turn DOCK DIAL N``: DIAL a reader's
        reader = READERS.index(name) if name in READERS else -1  # name, as on the tray
        d = tray.dials.get((dock, reader))
        if d is None:
            raise CameraOnlyError(f"dock {dock} has no {name} dial the camera reads")
        world.turn(d.place, d.name, n * d.up, 0.04 * max(1, abs(n)))

    return CameraLink(CameraOnly(tray, world, film, reseats), hand)
