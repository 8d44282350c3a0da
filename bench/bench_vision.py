"""Benchmark the camera: ms per 1280x720 frame on one core, and accuracy by distortion type.

    .venv/bin/python bench/bench_vision.py [--frames N] [--speed-frames N]

1. **Speed** (``cv2.setNumThreads(1)``, one core): an 8-dock tray of captured sample figures
   (Air Action planes read two windows, Aces figures one), frames of the training profile.
   ``full`` = find the markers + homography + every window's crop and read; ``steady`` = the
   same with the registration kept from the first frame (camera and tray do not move; a live
   loop re-registers now and then) and each window's alignment kept from the frame before when
   it still fits: one scene (``testset.steady_frames``) whose dials turn from frame to frame;
   ``live`` = what a live loop does per frame: ``TrayReader.follow`` (every marker corner
   re-refined where it was; the registration kept while they stay put) + the read, on those
   frames (every dial turned every frame: the worst case for a live loop, which then has no
   still window to skip; these three read every window, ``reuse=False``); ``game`` = the same
   live loop on a game (``game_frames``: one scene, each frame its own sensor noise, a dial
   turned one click over 3 frames twice a second at 30 frames a second, handed over at that
   rate), where still windows keep their reads (``vision/still.py``) and an unsure window's
   synthesis runs on the worker thread (``vision/synth_worker.py``), not in the frame's time.
   Target <= 5 ms per frame. Times are CPU time of the reading thread (``time.thread_time``:
   other work on a shared machine does not count) and wall clock (``perf_counter``), each
   kind's best of ``--repeat`` passes (a shared machine's load comes and goes).
2. **Accuracy** on rendered photographs with ground truth: each held-back distortion alone,
   then all together (``held-back``), and the training profile the confidence threshold was
   chosen on. exact = the right click (or "between" for a dial caught mid-turn); wrong = a
   read above the threshold that is not the truth; unknown = below it. The issue asks >= 99.9 %
   exact and 0 wrong on the held-back set.

Prints a table and writes bench/results/vision.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: numpy's BLAS too
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.decision import CONFIDENCE_THRESHOLD
from dialtray.vision.layout import load_layout
from dialtray.vision.reader import TrayReader

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60, help="trays per accuracy row (8 docks)")
    ap.add_argument("--speed-frames", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3, help="speed passes (best one reported)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    layout = load_layout()
    figures = testset.all_sample_figures()
    t0 = time.perf_counter()
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    capture_s = time.perf_counter() - t0
    reader = TrayReader(layout, refs, reuse=False)  # every window read every frame
    frames = list(testset.tray_sets(layout, figures, rp.train, args.speed_frames, seed=5))
    steady_frames = list(testset.steady_frames(layout, figures, args.speed_frames, seed=6))
    game = game_frames(layout, figures, 3 * args.speed_frames, seed=61)
    for _, docks in frames[:1]:  # build every classifier before timing
        for s in docks.values():
            reader.classifiers(s.figure)
    for fid in figures:
        reader.classifiers(fid)
    clocks = {"cpu": time.thread_time, "wall": time.perf_counter}
    kinds = ("full", "reg", "steady", "live", "follow", "game")
    best: dict[str, list[float]] = {}
    windows = 0
    steady_score, live_score, game_score = testset.Score(), testset.Score(), testset.Score()
    reused = 0
    start: dict[str, float] = {}
    t: dict[str, dict[str, list[float]]] = {}

    def go() -> None:
        start.update({c: f() for c, f in clocks.items()})

    def lap(kind: str) -> None:
        for c, f in clocks.items():
            t[c][kind].append((f() - start[c]) * 1e3)
        go()

    for n in range(args.repeat):  # a shared machine: each kind's best pass is reported
        t.clear()
        t.update({c: {k: [] for k in kinds} for c in clocks})
        for shot, docks in frames:  # every frame a new scene: registration and reading
            assignment = {d: s.figure for d, s in docks.items()}
            windows += sum(len(s.faces) for s in docks.values()) if n == 0 else 0
            go()
            reg = reader.register(shot.image)
            lap("reg")
            reader.read(shot.image, assignment, reg)
            lap("full")
            for c in clocks:
                t[c]["full"][-1] += t[c]["reg"][-1]
        reg0 = reader.register(steady_frames[0][0].image)
        for shot, docks in steady_frames:  # one scene, the dials turning: registration kept
            assignment = {d: s.figure for d, s in docks.items()}
            go()
            reads = reader.read(shot.image, assignment, reg0)
            lap("steady")
            if n == 0:
                _score(steady_score, reads, docks, "steady")
        for shot, docks in steady_frames:  # the live loop: follow the markers, then read
            assignment = {d: s.figure for d, s in docks.items()}
            go()
            reg = reader.follow(shot.image)
            lap("follow")
            reads = reader.read(shot.image, assignment, reg)
            lap("live")
            for c in clocks:
                t[c]["live"][-1] += t[c]["follow"][-1]
            if n == 0:
                _score(live_score, reads, docks, "live")
        game_reader = TrayReader(layout, refs)  # a live loop from its first frame
        for fid in figures:
            game_reader.classifiers(fid)
        t_game = time.perf_counter()
        for i, (shot, docks) in enumerate(game):  # at a webcam's 30 frames a second: the
            assignment = {d: s.figure for d, s in docks.items()}  # synthesis worker runs
            go()  # while the frame thread waits for the next frame
            reads = game_reader.read(shot, assignment, game_reader.follow(shot))
            lap("game")
            time.sleep(max(0.0, t_game + (i + 1) / 30 - time.perf_counter()))
            if n == 0:
                _score(game_score, reads, docks, "game")
                reused += len(game_reader.reused)
        for c in clocks:
            for k in kinds:
                key = f"{c}:{k}"
                if key not in best or statistics.median(t[c][k]) < statistics.median(best[key]):
                    best[key] = t[c][k]
    speed: dict[str, Any] = {"frames": len(frames), "windows_per_frame": windows / len(frames),
                             "target_ms": 5.0, "steady_exact": steady_score.exact,
                             "steady_wrong": steady_score.wrong,
                             "steady_dials": steady_score.total, "live_exact": live_score.exact,
                             "live_wrong": live_score.wrong, "game_frames": len(game),
                             "game_exact": game_score.exact, "game_wrong": game_score.wrong,
                             "game_dials": game_score.total, "game_reused": reused}
    speed["passes"] = args.repeat
    for key, xs in best.items():
        c, kind = key.split(":")
        speed[f"{kind}_ms_median_{c}"] = statistics.median(xs)
        speed[f"{kind}_ms_p95_{c}"] = _p95(xs)
    print(f"capture of {len(figures)} figures from rendered photos: {capture_s:.1f} s")
    print(f"speed, one core, 1280x720, 8 docks ({speed['windows_per_frame']:.1f} windows/frame)"
          f", ms per frame: median (p95) of the best of {args.repeat} passes, CPU time | "
          f"wall clock")
    for kind, what in (("full", "full (markers + read)"), ("reg", "  of which markers"),
                       ("steady", "steady (registration kept)"),
                       ("live", "live, every dial turning"), ("follow", "  of which follow"),
                       ("game", "live, a game (reuse)")):
        print(f"  {what:28s} {speed[f'{kind}_ms_median_cpu']:6.2f} "
              f"({speed[f'{kind}_ms_p95_cpu']:6.2f}) | {speed[f'{kind}_ms_median_wall']:6.2f} "
              f"({speed[f'{kind}_ms_p95_wall']:6.2f})")
    print(f"  target <= 5 ms; steady reads {steady_score.exact}/{steady_score.total} exact, "
          f"{steady_score.wrong} wrong; live {live_score.exact}/{live_score.total} exact, "
          f"{live_score.wrong} wrong; game {game_score.exact}/{game_score.total} exact, "
          f"{game_score.wrong} wrong, {reused} window reads reused")
    rows = []
    plans: list[tuple[str, Any, str | None]] = [(f"held-back {k}", rp.held_back, k)
                                                for k in rp.DISTORTION_TYPES]
    plans += [("held-back (all together)", rp.held_back, None),
              ("train (all together)", rp.train, None)]
    print(f"\naccuracy (confidence threshold {CONFIDENCE_THRESHOLD})")
    print(f"  {'set':28s} {'dials':>6s} {'exact %':>8s} {'wrong':>6s} {'unknown':>8s}")
    for i, (name, prof, only) in enumerate(plans):
        score = testset.Score()
        for shot, docks in testset.tray_sets(layout, figures, prof, args.frames, seed=900 + i,
                                             only=only):
            testset.score_frame(reader, shot, docks, score)
        row = {"set": name, "dials": score.total, "exact": score.exact, "wrong": score.wrong,
               "unknown": score.unknown, "exact_pct": 100.0 * score.exact / score.total,
               "wrong_cases": score.wrong_cases[:5]}
        rows.append(row)
        print(f"  {name:28s} {score.total:6d} {row['exact_pct']:8.2f} {score.wrong:6d} "
              f"{score.unknown:8d}", flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"speed": speed, "accuracy": rows,
                                   "confidence_threshold": CONFIDENCE_THRESHOLD,
                                   "frames_per_row": args.frames}, indent=1) + "\n",
                       encoding="utf-8")
    print(f"\nwrote {RESULTS}")


def game_frames(layout: Any, figures: dict[str, Any], n: int, seed: int
                ) -> list[tuple[Any, dict[int, Any]]]:
    """``n`` frames of one scene during a game, filmed at 30 frames a second: each frame its
    own sensor noise and JPEG; every 15 frames one dial (drawn at random) turns one click,
    seen a third and two thirds of the way on the two frames before it settles."""
    scene = testset.LiveScene(layout, figures, seed)
    rng = np.random.default_rng(seed)
    dials = [(d, k) for d, f in scene.cast.items() for k in scene.faces[f]]
    turning, start = dials[0], 0.0
    out = []
    for i in range(n):
        step = i % 15
        if step == 12:
            turning = dials[int(rng.integers(len(dials)))]
            start = scene.pos[turning[0]][turning[1]]
        if step >= 12:  # a third, two thirds, then exactly the next click
            d, k = turning
            scene.turn(d, k, start + (step - 11) / 3 - scene.pos[d][k] if step < 14
                       else start + 1 - scene.pos[d][k])
        out.append((scene.photo(), scene.docks()))
    return out


def _score(score: testset.Score, reads: Any, docks: Any, what: str) -> None:
    for dock, spec in docks.items():
        for dial, pos in spec.positions.items():
            score.add(reads[dock][dial], pos, len(spec.faces[dial]), spec.faces[dial],
                      f"{what} dock {dock}")


def _p95(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))]


if __name__ == "__main__":
    main()
