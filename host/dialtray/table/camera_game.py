"""A bot game on the virtual tray filmed by the virtual camera: what ``demo --camera virtual``
plays, and what the camera's game test and live-loop bench run.

The virtual tray (the real firmware under MicroPython, its encoders, the link, the tracker)
and a ``TrayScene`` of the same figures on the same docks, drawn under a photograph profile;
the hand turns the tray's dials and the camera films those very dials (``follow_tray``: the
encoder and the camera see one motion on one clock). With
``encoders=False`` the tray has no electronics: the camera's reads are the dial events
(``CameraTray``). Every dial is filmed: a one-dial piece on a dock's second reader (an Ace
card or a second Aces figure sharing the dock) sits in the dock's holder.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from dialrig import config

from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.table.camera import (
    CameraTrackedTray,
    EncoderWitness,
    WitnessedTray,
    camera_dials,
    catalogue_figures,
)
from dialtray.table.camera_only import FIRST_READ_S, virtual_camera_tray
from dialtray.table.start import Table, make_dice, new_table
from dialtray.tracker import Timing
from dialtray.tracker.binding import Slot
from dialtray.tracker.hands import Hands, Mistakes
from dialtray.tracker.runner import TrackedTray, play_out
from dialtray.vision import testset
from dialtray.vision.camera_tray import CameraDial, CameraTray
from dialtray.vision.layout import Layout, load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.virtual_camera import DialWorld
from dialtray.vision.virtual_scene import virtual_scene
from dialtray.vision.witness import CameraWitness, Witnessed

TIMING = Timing(judge_s=0.25, grace_s=0.5)
# How long a disagreeing read waits for a report the virtual tray's firmware has on its way
# (``unreported``): far beyond a loaded machine's delays (seconds), short of the camera
# tests' 120 s wait for every answer.
UNREPORTED_S = 30.0


@dataclass
class CameraGame:
    """What a camera game left: the table, the camera's answers and what it cost."""

    table: Any  # table.start.Table (camera_game) or dialtray.table.Table
    witness: CameraWitness
    world: DialWorld
    seconds: float
    camera_tray: CameraTray | None = None
    reseats: list[Witnessed] = field(default_factory=list)


def camera_game(game: str, seed: int, turns: int, *, encoders: bool = True,
                profile: str = "held-back", mistakes: bool = True, fps: float = 30.0,
                layout: Layout | None = None, make: Any = None,
                on_change: Callable[[Any], None] | None = None,
                figures: list[str] | None = None, rp2040: bool = False) -> CameraGame:
    """Play a bot game to its end (``play_out``); raises ``runner.Stuck`` if it cannot.
    ``figures``: the docks' order (``--figures``: when the cast outnumbers the docks, the
    last share docks, in their holders). ``rp2040``: the tray's firmware on the emulated
    Pico (``Rp2040Tray``), whose dials the camera follows as it does the unix-port tray's."""
    from dialtray.virtual.factory import sync_timeout, virtual_tray

    layout = layout or load_layout()
    started = time.monotonic()
    if not encoders:
        table = new_table(game, SeededDice(seed), seed, turns, 8, figures=figures,
                          timing=TIMING, make=make)
        return _camera_only(table, game, seed, profile, fps, layout, started)
    with virtual_tray(config.default_config(8), rp2040=rp2040, seed=seed) as vtray:
        session = TraySession(vtray.port, name="camera", ack_policy="auto")
        with session:
            session.wait_synced(sync_timeout(rp2040))
            session.set_timing(5, 2)
            source, _ = make_dice("seeded", session, seed)
            table = new_table(game, source, seed, turns, 8, figures=figures, timing=TIMING,
                              make=make)
            t = table.tracker
            t.on_change = on_change
            figs = catalogue_figures(game, t)
            world, cam, reader, docks = virtual_scene(layout, game, figs, profile, seed, fps)
            witness = CameraWitness(cam, reader, figs, watch=True)
            dials = camera_dials(t, {(d, k): len(f) for d, s in docks.items()
                                     for k, f in s.faces.items()}, game)

            follow_tray(world, dials, set(figs), vtray)  # the camera films the tray's dials

            def turn(slot: Slot, n: int) -> None:
                vtray.turn(slot.dock, slot.dial, n, 6 * max(1, abs(n)))

            with witness:
                tracked = WitnessedTray(t, session, witness, dials)
                witness.unreported = unreported(vtray, tracked.listener, dials)
                _play(tracked, table, turn, mistakes)
                witness.wait(witness.idle, 120)
                tracked.pump()
                tracked.close()
    return CameraGame(table, witness, world, time.monotonic() - started)


def _camera_only(table: Table, game: str, seed: int, profile: str, fps: float,
                 layout: Layout, started: float) -> CameraGame:
    t = table.tracker
    link = virtual_camera_tray(game, t, seed, profile, fps, layout)
    out = CameraGame(table, link.camera.witness, link.camera.world, 0.0, link.tray,
                     link.camera.reseats)
    with link:
        tracked = CameraTrackedTray(t, link.tray)
        tracked.sync(FIRST_READ_S)  # a hard window: 3 bursts, a re-seat, read again
        _play(tracked, table, link.hand, mistakes=False)
        tracked.close()
    out.seconds = time.monotonic() - started
    return out


def _play(tracked: TrackedTray, table: Table, turn: Callable[[Slot, int], None],
          mistakes: bool) -> None:
    if not isinstance(tracked, CameraTrackedTray):
        tracked.sync()
    hands = Hands(tracked.tracker, table.setup.brain, Mistakes() if mistakes
                  else Mistakes(kinds=[]))
    play_out(tracked, hands, turn, timeout=900, step_timeout=60)


def camera_only_table(game: str, seed: int, turns: int, roles: list[str], *,
                      profile: str = "held-back", fps: float = 30.0,
                      layout: Layout | None = None, make: Any = None,
                      mistakes: Mistakes | None = None) -> tuple[Any, CameraGame]:
    """A ``dialtray.table.Table`` on a camera-only virtual tray (the front ends' one table,
    issue 30): its link is a ``CameraTrackedTray`` (the camera's reads are the dial events),
    its hand turns the virtual world's dials (``fps``: the camera's frame rate, a slow
    webcam's or a loaded laptop's when low; ``mistakes``: the bots' deliberate ones).
    Returns (table, what the camera keeps); the caller pumps the table and closes it (and
    ``camera_tray``)."""
    from dialtray.table import Table
    from dialtray.table.build import binding_for, tracker_for
    from dialtray.table.games import new_game
    from dialtray.tracker.dice import TableDice

    dice = TableDice(SeededDice(seed))
    setup = make(dice) if make is not None else new_game(game, dice, seed, turns)
    tracker = tracker_for(setup, binding_for(setup, 8), dice, TIMING)
    link = virtual_camera_tray(game, tracker, seed, profile, fps, layout).start()
    table = Table(setup, roles, CameraTrackedTray(tracker, link.tray), hand=link.hand,
                  mistakes=mistakes)
    return table, CameraGame(table, link.camera.witness, link.camera.world, 0.0, link.tray,
                             link.camera.reseats)


@contextlib.contextmanager
def camera_table(game: str, seed: int, turns: int, roles: list[str], *,
                 profile: str = "held-back", fps: float = 30.0, layout: Layout | None = None,
                 mistakes: Mistakes | None = None, click_s: float = 0.006
                 ) -> Iterator[tuple[Any, CameraGame]]:
    """A ``dialtray.table.Table`` on the virtual tray with the virtual camera (issue 30's one
    table): its link is a ``WitnessedTray`` (the encoders' clicks, each confirmed by the
    camera, every answer a ``# camera`` line), its hand turns the virtual tray's dial and the
    camera's world together, ``click_s`` seconds a click (a person's pace lets the camera see
    a peek: a dial turned and back within a frame is seen by no camera). Yields (table, what
    the camera keeps); the caller pumps it."""
    from dialtray.table import Table
    from dialtray.table.build import binding_for, tracker_for
    from dialtray.table.games import new_game
    from dialtray.tracker.dice import TableDice
    from dialtray.virtual.tray import VirtualTray

    layout = layout or load_layout()
    started = time.monotonic()
    with VirtualTray(config.default_config(8), seed=seed) as vtray:
        session = TraySession(vtray.port, name="camera", ack_policy="auto")
        with session:
            session.wait_synced(30)
            session.set_timing(5, 2)
            dice = TableDice(SeededDice(seed))
            setup = new_game(game, dice, seed, turns)
            tracker = tracker_for(setup, binding_for(setup, 8), dice, TIMING)
            witness, world, dials = virtual_witness(game, tracker, seed, profile, fps, layout)
            follow_tray(world, dials, set(witness.docks), vtray)  # the camera films the tray

            def hand(slot: Slot, n: int) -> None:
                vtray.turn(slot.dock, slot.dial, n, round(1000 * click_s * max(1, abs(n))))

            with witness:
                link = WitnessedTray(tracker, session, witness, dials)
                witness.unreported = unreported(vtray, link.listener, dials)
                table = Table(setup, roles, link, hand=hand, mistakes=mistakes)
                out = CameraGame(table, witness, world, 0.0)
                try:
                    yield table, out
                    witness.wait(witness.idle, 120)
                    link.pump()
                finally:
                    out.seconds = time.monotonic() - started
                    table.close("camera table closed")


def unreported(vtray: Any, listener: EncoderWitness,
               dials: dict[tuple[int, int], CameraDial], *, most_s: float = UNREPORTED_S,
               clock: Callable[[], float] = time.monotonic) -> Callable[[tuple[int, str]], bool]:
    """For ``CameraWitness.unreported``: the virtual tray's firmware has found a filmed dial
    (``seen``, what the camera shows: ``follow_tray``) somewhere other than where the clicks
    it reported leave it (``listener.pos``): its report is on the way. A Pico reports a dial
    within milliseconds of its coming to rest; a MicroPython process or an emulated chip on a
    loaded machine can take seconds, and the camera, filming the firmware's own view of the
    dial, would call the click it is still to report a disagreement. An encoder that reported
    a wrong click (the firmware saw the dial where it says) is no report on the way: it is
    still a disagreement, and so is a report still not there ``most_s`` after the mismatch
    began (a firmware that saw a click and never said so: the fault the camera is there to
    catch, flagged late rather than never). Both counted from now (the dials at rest where
    the game starts)."""
    tray_dial = {(d.place, d.name): k for k, d in dials.items()}
    base = {k: float(vtray.seen(*k)) - listener.pos[k] for k in tray_dial.values()}
    since: dict[tuple[int, int], float] = {}

    def waiting(key: tuple[int, str]) -> bool:
        k = tray_dial.get(key)
        if k is None:
            return False
        if float(vtray.seen(*k)) - base[k] == listener.pos[k]:
            since.pop(k, None)
            return False
        return clock() - since.setdefault(k, clock()) < most_s
    return waiting


def virtual_witness(game: str, tracker: Any, seed: int, profile: str = "held-back",
                    fps: float = 30.0, layout: Layout | None = None
                    ) -> tuple[CameraWitness, DialWorld, dict[tuple[int, int], CameraDial]]:
    """The virtual camera over a tracker's figures (not started): the camera's witness, the
    world its hand turns, the tracker's readers as camera dials."""
    figs = catalogue_figures(game, tracker)
    world, cam, reader, docks = virtual_scene(layout or load_layout(), game, figs, profile, seed,
                                               fps)
    witness = CameraWitness(cam, reader, figs, watch=True)
    dials = camera_dials(tracker, {(d, k): len(f) for d, s in docks.items()
                                   for k, f in s.faces.items()}, game)
    return witness, world, dials


def webcam_witness(spec: str, game: str, tracker: Any, layout: Layout | None = None
                   ) -> tuple[CameraWitness, dict[tuple[int, int], CameraDial]]:
    """A real webcam (``--camera N``) over a tracker's figures: the sample references of
    the catalogue's figures, the tray layout shipped with the package (or given). Raises
    ``VisionError`` naming the camera when it cannot be opened."""
    from dialtray.vision.virtual_camera import open_camera

    figs = catalogue_figures(game, tracker)
    layout = layout or load_layout()
    reader = TrayReader(layout, testset.sample_refs(set(figs.values()), game))
    cam = open_camera(spec)
    return CameraWitness(cam, reader, figs, watch=True), camera_dials(tracker, {}, game)


def filmed_hand(world: DialWorld, dials: dict[tuple[int, int], CameraDial], docks: set[int],
                hand: Callable[[Slot, int], None], click_s: float = 0.006
                ) -> Callable[[Slot, int], None]:
    """One hand for the virtual tray and its camera: the encoder counts the turn (``hand``),
    the camera films the same dial turning, ``click_s`` seconds a click."""
    def turn(slot: Slot, n: int) -> None:
        d = dials.get((slot.dock, slot.dial))
        if d is not None and d.place in docks:
            world.turn(d.place, d.name, n * d.up, click_s * max(1, abs(n)))
        hand(slot, n)
    return turn


def follow_tray(world: DialWorld, dials: dict[tuple[int, int], CameraDial], docks: set[int],
                vtray: Any) -> None:
    """The camera films the virtual tray's own dials (``DialWorld.follow``): each filmed dial
    where the tray's firmware last looked at it (``VirtualTray.seen``: mid-turn too, on the
    dial's own clock), in its figure's clicks. Turned as a second world beside the tray, a
    frame under load could show a dial the encoder had not reached and the camera call an
    honest turn a disagreement."""
    for (dock, reader), d in dials.items():
        if d.place not in docks:
            continue
        base = world.positions[d.place][d.name] - d.up * float(vtray.seen(dock, reader))

        def at(dock: int = dock, reader: int = reader, up: int = d.up,
               base: float = base) -> float:
            return base + up * float(vtray.seen(dock, reader))
        world.follow[(d.place, d.name)] = at
