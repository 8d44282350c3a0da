"""Acceptance (issue 14): read the held-back set — photographs whose distortions lie outside
everything the reader's thresholds were chosen on (TRAIN and STRESS, render_profiles) — and
count exact, wrong and unknown reads. Seed 9201 was first read after the correlation's thresholds
were set, and read again (never tuned on) while the synthesis was built; docs/vision.md gives
the fresh figures.

Sized to run in about half a minute (40 trays x 8 docks, ~500 dials); bench/bench_vision.py
reads a bigger set and breaks it down by distortion type.
"""

from __future__ import annotations

import pytest
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.decision import CONFIDENCE_THRESHOLD
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader

FRAMES = 40


@pytest.fixture(scope="module")
def held_back_score(layout: Layout, figures: dict, refs: dict) -> testset.Score:
    reader = TrayReader(layout, refs)
    score = testset.Score()
    for shot, docks in testset.tray_sets(layout, figures, rp.held_back, FRAMES, seed=9201):
        testset.score_frame(reader, shot, docks, score)
    return score


@pytest.mark.slow(cost=30)  # the held-back set: ~30 s of reading, started first (tests/conftest.py)
def test_no_wrong_read_above_the_confidence_threshold(held_back_score: testset.Score) -> None:
    """Wrong-but-confident = 0: a read the camera is not sure of is `unknown`, never a guess."""
    s = held_back_score
    assert s.total >= 400
    assert s.wrong == 0, "\n".join(s.wrong_cases)
    assert CONFIDENCE_THRESHOLD > 0


@pytest.mark.slow(cost=1)  # the same held-back set (its module fixture): kept on the same worker
@pytest.mark.xfail(strict=True, reason="NOT MET (issue 14 blocked on it): each held-back "
                                       "distortion alone reads 100 %, all of them together "
                                       "~99.7 % (99.71 % of 18 743 fresh dials, the rest "
                                       "`unknown`); an observer knowing each scene exactly "
                                       "reads 99.80-99.88 % if it needs a lead of 1.5-2 "
                                       "noise units (docs/vision.md); the issue asks 99.9 %")
def test_at_least_999_per_mille_read_exactly(held_back_score: testset.Score) -> None:
    s = held_back_score
    assert s.exact / s.total >= 0.999, f"{s.exact}/{s.total} exact, {s.unknown} unknown"


@pytest.mark.parametrize("kind", rp.DISTORTION_TYPES)
def test_each_held_back_distortion_alone_reads_exactly(layout: Layout, figures: dict,
                                                       refs: dict, kind: str) -> None:
    """Each held-back distortion on its own (beyond anything tuned on): every dial of a slice
    reads exactly (bench/bench_vision.py reads ~600 dials per type: 100 % each, last run)."""
    reader = TrayReader(layout, refs)
    score = testset.Score()
    seed = 3100 + rp.DISTORTION_TYPES.index(kind)
    for shot, docks in testset.tray_sets(layout, figures, rp.held_back, 2, seed=seed,
                                         only=kind):
        testset.score_frame(reader, shot, docks, score, kind)
    assert score.wrong == 0, "\n".join(score.wrong_cases)
    assert score.exact == score.total, (score.exact, score.unknown, score.total)


def test_the_training_profile_reads_nearly_everything(layout: Layout, figures: dict,
                                                      refs: dict) -> None:
    """On photographs like those the threshold was chosen on, nearly every dial reads."""
    reader = TrayReader(layout, refs)
    score = testset.Score()
    for shot, docks in testset.tray_sets(layout, figures, rp.train, 10, seed=77):
        testset.score_frame(reader, shot, docks, score)
    assert score.wrong == 0, "\n".join(score.wrong_cases)
    assert score.exact / score.total >= 0.97, (score.exact, score.unknown, score.total)


def test_a_stale_registration_never_reads_wrong(layout: Layout, figures: dict,
                                                refs: dict) -> None:
    """The camera moved (registration from another photo): windows are cropped from the wrong
    places, and no read gives a wrong value. (A window half out of place can look like a dial
    mid-turn: "between", which makes the tracker hold and ask for a re-seat — safe.)"""
    reader = TrayReader(layout, refs)
    sets = list(testset.tray_sets(layout, figures, rp.train, 6, seed=404))
    stale = reader.register(sets[0][0].image)
    score = testset.Score()
    for shot, docks in sets[1:]:
        reads = reader.read(shot.image, {d: s.figure for d, s in docks.items()}, stale)
        for dock, spec in docks.items():
            for dial, pos in spec.positions.items():
                score.add(reads[dock][dial], pos, len(spec.faces[dial]), spec.faces[dial],
                          f"dock {dock}")
    assert score.wrong_values == 0, "\n".join(score.wrong_cases)
    assert score.unknown > score.total // 2  # most windows are simply not found


def test_steady_camera_keeps_registration_and_alignment(layout: Layout, figures: dict,
                                                        refs: dict) -> None:
    """One scene, dials turning, registration and per-window alignment kept between frames:
    reads as well as registering every frame afresh."""
    reader = TrayReader(layout, refs)
    frames = list(testset.steady_frames(layout, figures, 8, seed=9))
    reg = reader.register(frames[0][0].image)
    kept, fresh = testset.Score(), testset.Score()
    for shot, docks in frames:
        testset.score_frame(reader, shot, docks, fresh)
        reads = reader.read(shot.image, {d: s.figure for d, s in docks.items()}, reg)
        for dock, spec in docks.items():
            for dial, pos in spec.positions.items():
                kept.add(reads[dock][dial], pos, len(spec.faces[dial]), spec.faces[dial], "")
    assert kept.wrong == 0 and fresh.wrong == 0
    assert kept.exact >= fresh.exact - 1


def test_live_loop_reads_every_frame_exactly(layout: Layout, figures: dict, refs: dict) -> None:
    """A live loop (``follow`` + read, registration and alignments kept) over one scene whose
    dials turn between frames, sometimes caught mid-turn: every read exact. (An alignment
    kept from a mid-turn frame, locked on the sliding boxes, read the settled click of the
    next frame as mid-turn with full confidence: 4 wrong reads in this scene.)"""
    reader = TrayReader(layout, refs)
    score = testset.Score()
    for i, (shot, docks) in enumerate(testset.steady_frames(layout, figures, 10, seed=6)):
        reads = reader.read(shot.image, {d: s.figure for d, s in docks.items()},
                            reader.follow(shot.image))
        for dock, spec in docks.items():
            for dial, pos in spec.positions.items():
                score.add(reads[dock][dial], pos, len(spec.faces[dial]), spec.faces[dial],
                          f"frame {i} dock {dock} {spec.figure} {dial}")
    assert score.wrong == 0, "\n".join(score.wrong_cases)
    assert score.exact == score.total, (score.exact, score.unknown, score.total)


def test_clicks_that_differ_only_in_colour_are_told_apart(layout: Layout, figures: dict,
                                                          refs: dict) -> None:
    """Loyle Crawford's clicks 0 and 1 print the same values and marks; only click 1's front
    gunnery sits on a colour block. In grey they are one look: the colour seen decides (a
    photo where that block cannot be read is unknown, never a guess)."""
    import numpy as np
    from dialtray.vision.faces import dial_faces
    from dialtray.vision.render import DockSpec, render_tray

    fid = "sample-loyle-crawford"
    faces = dial_faces(figures[fid])
    assert faces["combat"][0].values == faces["combat"][1].values
    assert faces["combat"][0].colours != faces["combat"][1].colours
    reader = TrayReader(layout, refs)
    score = testset.Score()
    rng = np.random.default_rng(14)
    for frame in range(3):
        docks = {d: DockSpec(fid, "airaction-plane", faces,
                             {"combat": float((d + frame) % 2), "speed": 0.0})
                 for d in sorted(layout.docks)}
        testset.score_frame(reader, render_tray(layout, docks, rp.train(rng), 70 + frame),
                            docks, score)
    assert score.wrong == 0, "\n".join(score.wrong_cases)
    assert score.exact == score.total, (score.exact, score.unknown, score.total)


@pytest.mark.parametrize("scene", [0, 1])
def test_a_live_loop_reads_as_well_as_fresh_reads_when_the_noise_changes(
        layout: Layout, figures: dict, refs: dict, scene: int) -> None:
    """A live loop over one scene whose dials turn, each frame with its own sensor noise (a
    real camera's): kept alignments that still fit the rim could sit a little off inside and
    read a settled dial as mid-turn (2 wrong and 26 unknown in 3 030 reads, where reading each
    frame afresh gave 0 and 3). A non-click read from a kept alignment is made again from a
    fresh search: no wrong read, and hardly more unknown than fresh reads."""
    import numpy as np
    from dialtray.vision.faces import BASE_TYPE, dial_faces, game_of
    from dialtray.vision.render import DockSpec, random_positions, render_tray

    rng = np.random.default_rng(6000 + scene)
    ids = sorted(figures)
    faces = {f: dial_faces(figures[f]) for f in ids}
    cast = {d: ids[int(rng.integers(len(ids)))] for d in sorted(layout.docks)}
    params = rp.train(rng)
    live_reader, fresh_reader = TrayReader(layout, refs), TrayReader(layout, refs)
    live, fresh = testset.Score(), testset.Score()
    for f in range(15):
        docks = {d: DockSpec(fid, BASE_TYPE[game_of(figures[fid])], faces[fid],
                             random_positions(faces[fid], rng, 0.1)) for d, fid in cast.items()}
        shot = render_tray(layout, docks, params, 1000 * scene + f)
        assignment = {d: s.figure for d, s in docks.items()}
        reads = live_reader.read(shot.image, assignment, live_reader.follow(shot.image))
        if live_reader.still.pending():  # unsure windows went to the synthesis worker: its
            assert live_reader.settle()  # answers are this frame's reads once it has given
            reads = live_reader.read(shot.image, assignment,  # them (a still window keeps
                                     live_reader.follow(shot.image))  # them on the next)
        again = fresh_reader.read(shot.image, assignment)
        for dock, spec in docks.items():
            for dial, pos in spec.positions.items():
                n, fs = len(spec.faces[dial]), spec.faces[dial]
                live.add(reads[dock][dial], pos, n, fs, f"frame {f} dock {dock} {dial}")
                fresh.add(again[dock][dial], pos, n, fs, "")
    assert live.wrong == 0, "\n".join(live.wrong_cases)
    # the two registrations differ a little (follow keeps the first frame's)
    assert live.unknown <= fresh.unknown + 2, (live.unknown, fresh.unknown)
