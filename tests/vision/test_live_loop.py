"""A live loop skips windows whose pixels have not changed (TrayReader.read with the same
registration): it must never return a stale read. One scene (train profile), photographed
frame after frame with each frame's own sensor noise and JPEG, as a fixed webcam sees it;
dials turn one click at some frames, a window is partly covered, shadowed or its base
nudged: each is read afresh on the frame it appears, and still windows are not.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import CLICK, UNKNOWN
from dialtray.vision.still import UNSURE_FRAMES
from dialtray.vision.synth_worker import PENDING
from dialtray.vision.testset import LiveScene, covered, nudged, shadowed


def _check(reads: dict[int, dict[str, Any]], scene: LiveScene, frame: int) -> None:
    """No read names a click the dial is not at (a stale read would)."""
    for d, dials in reads.items():
        for k, r in dials.items():
            if r.status == CLICK:
                assert int(scene.pos[d][k]) in r.clicks, (
                    f"frame {frame}: dock {d} {k} read {r.clicks}, is at {scene.pos[d][k]}")


def _first_read(layout: Layout, figures: dict, refs: dict, seed: int
                ) -> tuple[LiveScene, TrayReader, Any, list[tuple[int, str]]]:
    """A scene's first frame read by a live loop (every read checked): the scene, the reader,
    its registration and the (dock, dial) windows read as a click."""
    scene = LiveScene(layout, figures, seed)
    reader = TrayReader(layout, refs)
    shot = scene.photo()
    reg = reader.follow(shot)
    reads = reader.read(shot, dict(scene.cast), reg)
    _check(reads, scene, 0)
    return scene, reader, reg, [(d, k) for d, rr in reads.items() for k, r in rr.items()
                                if r.status == CLICK]


@pytest.mark.parametrize("seed", [31, 32])
def test_a_one_click_turn_is_read_on_the_frame_it_appears(layout: Layout, figures: dict,
                                                          refs: dict, seed: int) -> None:
    """Still frames reuse kept reads; a dial turned one click is read at once (its window is
    read afresh, the new click named), on every frame where one turns."""
    scene, reader, _, clicks = _first_read(layout, figures, refs, seed)
    assignment = dict(scene.cast)
    turns = [t for t in scene.turnable() if t in clicks]
    assert len(turns) >= 3, "the scene should have dials read as clicks to turn"
    reused = 0
    for frame in range(1, 2 * len(turns) + 2):
        turned = None
        if frame % 2 == 0:  # a dial turns one click every other frame
            turned = turns[frame // 2 - 1]
            scene.turn(*turned)
        shot = scene.photo()
        reads = reader.read(shot, assignment, reader.follow(shot))
        _check(reads, scene, frame)
        if turned is not None:
            r = reads[turned[0]][turned[1]]
            assert turned not in reader.reused
            assert r.status == CLICK and int(scene.pos[turned[0]][turned[1]]) in r.clicks, \
                (frame, turned, r)
        reused += len(reader.reused)
    assert reused > 0, "the live loop never skipped a still window"


def _after_still_frames(layout: Layout, figures: dict, refs: dict, change: Any
                        ) -> Iterator[tuple[LiveScene, TrayReader, tuple[int, str], Any]]:
    """One scene (seed 41): per window read as a click, two still frames, then a frame where
    ``change`` is made to that window alone; yields (scene, reader, window, reads of it)."""
    scene, reader, reg, targets = _first_read(layout, figures, refs, 41)
    assignment = dict(scene.cast)
    clean = scene.render()
    assert len(targets) >= 4
    for d, k in targets:
        for _ in range(2):  # still frames: reused
            shot = scene.photo(clean)
            reader.read(shot, assignment, reader.follow(shot))
        shot = scene.photo(change(clean, scene.window_box(reg, d, k)))
        assert reader.follow(shot) is reg
        yield scene, reader, (d, k), reader.read(shot, assignment, reg)
        shot = scene.photo(clean)  # back as it was
        reader.read(shot, assignment, reg)


@pytest.mark.parametrize("change", [covered, nudged])
def test_a_window_covered_or_moved_is_read_again(layout: Layout, figures: dict, refs: dict,
                                                 change: Any) -> None:
    """After still frames, one window partly covered or its base nudged one pixel: that
    window is read afresh on that frame, and still windows around it are not."""
    for frame, (scene, reader, window, reads) in enumerate(
            _after_still_frames(layout, figures, refs, change), start=1):
        assert window not in reader.reused, f"{change.__name__} {window} not read again"
        assert reader.reused, f"frame {frame}: one changed window made every window read again"
        _check(reads, scene, frame)


@pytest.mark.parametrize("strength", [0.05, 0.2, 0.5])
def test_a_shadow_over_a_still_window_leaves_every_read_right(layout: Layout, figures: dict,
                                                              refs: dict, strength: float
                                                              ) -> None:
    """A soft shadow (a hand above, a lamp dimmed) changes no click: whether the window is
    read again or its kept read returned, every read names the click the dial is at."""
    shadow = partial(shadowed, strength=strength)
    for frame, (scene, _, _, reads) in enumerate(
            _after_still_frames(layout, figures, refs, shadow), start=1):
        _check(reads, scene, frame)


def test_every_dial_turned_in_the_same_frame_is_read_again(layout: Layout, figures: dict,
                                                          refs: dict) -> None:
    """Every dial turned one click at once (a throttle phase: every speed dial set
    together): no window keeps its old read. (Where every window changes as a whole, the
    windows' own noise median would say "noise": test_accuracy's live-loop test, whose
    figures and shadows move every frame, fails when the markers' noise is not used.)"""
    scene = LiveScene(layout, figures, 33)
    reader = TrayReader(layout, refs)
    cast = dict(scene.cast)
    for _ in range(3):
        shot = scene.photo()
        _check(reader.read(shot, cast, reader.follow(shot)), scene, 0)
    assert reader.reused
    turned = scene.turnable()
    assert len(turned) >= 6
    for d, k in turned:
        scene.turn(d, k)
    shot = scene.photo()
    reads = reader.read(shot, cast, reader.follow(shot))
    assert not reader.reused & set(turned), sorted(reader.reused & set(turned))
    _check(reads, scene, 1)


def test_no_kept_read_without_the_markers_confirmed_on_that_frame(layout: Layout,
                                                                  figures: dict, refs: dict
                                                                  ) -> None:
    """A registration passed in by hand may be stale (the camera moved): only a frame that
    ``follow`` confirmed the markers on gets kept reads."""
    scene = LiveScene(layout, figures, 34)
    reader = TrayReader(layout, refs)
    cast = dict(scene.cast)
    shot = scene.photo()
    reg = reader.follow(shot)
    reader.read(shot, cast, reg)
    for _ in range(2):
        reader.read(scene.photo(), cast, reg)  # same registration, no follow: read afresh
        assert not reader.reused
    shot = scene.photo()
    reader.read(shot, cast, reader.follow(shot))
    assert reader.reused


def test_a_still_window_left_unsure_is_read_again_every_few_frames(layout: Layout,
                                                                   figures: dict,
                                                                   refs: dict) -> None:
    """A hand held over half a window: the reader cannot name the dial. While the hand stays
    put the unsure read is kept for a few frames (each unsure read may run the synthesis),
    then read afresh (a new frame's noise may name it); the hand lifted, the window is read
    at once and names the click."""
    scene, reader, reg, targets = _first_read(layout, figures, refs, 41)
    assignment = dict(scene.cast)
    d, k = targets[0]
    ys, xs = scene.window_box(reg, d, k)
    clean = scene.render()
    hand = clean.copy()
    hand[ys.start:ys.stop, xs.start:(xs.start + xs.stop) // 2 + 2] = (110, 140, 190)
    fresh = []
    for frame in range(1, 3 * UNSURE_FRAMES + 2):
        shot = scene.photo(hand)
        r = reader.read(shot, assignment, reader.follow(shot))[d][k]
        assert r.status == UNKNOWN, (frame, r)
        if (d, k) not in reader.reused:
            fresh.append(frame)
        assert reader.settle()  # a webcam's next frame comes after the worker has answered
    assert fresh == list(range(1, 3 * UNSURE_FRAMES + 2, UNSURE_FRAMES)), fresh
    shot = scene.photo(clean)
    r = reader.read(shot, assignment, reader.follow(shot))[d][k]
    assert (d, k) not in reader.reused
    assert r.status == CLICK and int(scene.pos[d][k]) in r.clicks, r


def _hand_over(scene: LiveScene, reg: Any, d: int, k: str) -> Any:
    """The scene with a hand held over the left half of one window."""
    ys, xs = scene.window_box(reg, d, k)
    hand = scene.render().copy()
    hand[ys.start:ys.stop, xs.start:(xs.start + xs.stop) // 2 + 2] = (110, 140, 190)
    return hand


def test_the_synthesis_runs_on_the_worker_and_its_answer_is_kept(layout: Layout,
                                                                 figures: dict,
                                                                 refs: dict) -> None:
    """A window the correlation leaves unsure (a hand over half of it): the frame thread
    does not synthesise it. The frame's read is unknown and says the synthesis is still
    reading it; the worker's answer (here: no look explains the window) is the window's
    read from the next frame on while the hand stays put, without reading it again."""
    scene, reader, reg, targets = _first_read(layout, figures, refs, 41)
    assignment = dict(scene.cast)
    d, k = targets[0]
    c = reader.classifiers(scene.cast[d])[k]
    threads: list[str] = []
    synthesise = c.synthesise

    def recorded(*a: Any, **kw: Any) -> Any:
        threads.append(threading.current_thread().name)
        return synthesise(*a, **kw)

    c.synthesise = recorded  # type: ignore[method-assign]
    hand = _hand_over(scene, reg, d, k)
    shot = scene.photo(hand)
    r = reader.read(shot, assignment, reader.follow(shot))[d][k]
    assert r.status == UNKNOWN and PENDING in r.reason, r
    assert (d, k) not in reader.reused
    assert reader.settle()
    assert threads and threading.current_thread().name not in threads, threads
    shot = scene.photo(hand)
    r = reader.read(shot, assignment, reader.follow(shot))[d][k]
    assert (d, k) in reader.reused
    assert r.status == UNKNOWN and PENDING not in r.reason and "by synthesis" in r.reason, r


def test_a_synthesis_for_pixels_that_changed_is_dropped(layout: Layout, figures: dict,
                                                        refs: dict) -> None:
    """The hand lifted before the worker answered: the window is read afresh on that frame
    and names its click; the answer for the covered pixels is never returned."""
    scene, reader, reg, targets = _first_read(layout, figures, refs, 41)
    assignment = dict(scene.cast)
    d, k = targets[0]
    shot = scene.photo(_hand_over(scene, reg, d, k))
    reader.read(shot, assignment, reader.follow(shot))
    pending = reader.still.pending()
    assert pending, "the covered window's synthesis went to the worker"
    for frame in range(3):
        shot = scene.photo()
        r = reader.read(shot, assignment, reader.follow(shot))[d][k]
        assert r.status == CLICK and int(scene.pos[d][k]) in r.clicks, (frame, r)
        assert frame > 0 or (d, k) not in reader.reused
        assert reader.settle()
    assert all(p.cancelled for p in pending)
