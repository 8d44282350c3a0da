"""Measure where the live loop's "unchanged window" threshold can sit (``still.PRINT_NOISE``),
on TRAIN, its hard end and STRESS (never HELD_BACK).

    .venv/bin/python bench/calibrate_reuse.py [--scenes N] [--profiles train,train_hard,stress]

``--profiles held_back`` (or ``held_back,stress``) checks a threshold chosen on the others:
the same trials on scenes of the held-back profile (seeds of their own, never calibrated on).

Each trial: one scene (``testset.LiveScene``: each frame its own sensor noise and JPEG), a
first frame read in full (every window's pixels kept), three still frames, then one frame
where a single window changes: its dial turned by a whole click or a part of one, its base
nudged one pixel, a fingertip over it or a soft shadow. For each window compared with its
kept pixels it records the print-band energy in units of the frame's noise
(``StillWindows.print_ratio``); for a changed window also whether a fresh read of it differs
from the kept read (reuse would then be stale).

Prints the still windows' distribution, each change's smallest ratio, and the stale reads
the current threshold allows (must be 0); writes bench/results/vision_reuse.json.
"""

from __future__ import annotations

import argparse
import json
import os
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
from dialtray.vision import render_profiles as rp
from dialtray.vision import still as still_mod
from dialtray.vision import testset
from dialtray.vision.layout import load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import CLICK

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision_reuse.json"
PROFILES = {"train": rp.train, "train_hard": rp.train_hard, "stress": rp.stress,
            "held_back": rp.held_back}  # held_back: to check a threshold, never to choose it
CALIBRATION = "train,train_hard,stress"
TURNS = (1.0, 0.5, 0.3, 0.2, 0.1, 0.05)
IMAGE_CHANGES: dict[str, Any] = {
    "covered": testset.covered, "nudged": testset.nudged,
    **{f"shadow {s:g}": partial(testset.shadowed, strength=s) for s in (0.05, 0.1, 0.2)}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=12, help="scenes per profile")
    ap.add_argument("--profiles", default=CALIBRATION,
                    help=f"comma-separated, of {', '.join(PROFILES)}")
    ap.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    args = ap.parse_args()
    chosen = args.profiles.split(",")
    unknown = sorted(set(chosen) - set(PROFILES))
    if unknown:
        ap.error(f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}")
    layout = load_layout()
    figures = testset.all_sample_figures()
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    threshold = still_mod.PRINT_NOISE
    still: list[float] = []
    levels: list[tuple[float, float]] = []  # (markers, windows) noise of each still frame
    events: list[dict[str, Any]] = []
    fresh = TrayReader(layout, refs, reuse=False)
    for name, profile in PROFILES.items():
        if name not in chosen:
            continue
        for i in range(args.scenes):
            scene = testset.LiveScene(layout, figures, 5000 + 100 * list(PROFILES).index(name)
                                      + i, profile)
            kinds = [("turn", by) for by in TURNS] + [(k, 0.0) for k in IMAGE_CHANGES]
            for kind, by in kinds:
                events += _trial(scene, refs, fresh, kind, by, name, still, levels, layout)
            print(f"{name} scene {i + 1}/{args.scenes}: {len(still)} still windows, "
                  f"{len(events)} changes", flush=True)
    still_mod.PRINT_NOISE = pn = threshold
    ratios = np.array(still)
    print(f"\nstill windows ({len(still)}): print ratio p50 {np.median(ratios):.2f} "
          f"p99 {np.percentile(ratios, 99):.2f} max {ratios.max():.2f}")
    lv = np.array(levels)
    q = lv[:, 0] / lv[:, 1]
    print(f"noise of a still frame, markers / windows: p1 {np.percentile(q, 1):.2f} "
          f"p50 {np.median(q):.2f} p99 {np.percentile(q, 99):.2f} (the lower one is used)")
    reused_still = float(np.mean(ratios <= pn))
    print(f"threshold {pn}: still windows reused {100 * reused_still:.2f} %")
    print(f"\n{'change':14s} {'n':>4s} {'matters':>8s} {'min ratio':>10s} {'missed':>7s} "
          f"{'stale':>6s}")
    rows = []
    for kind in [f"turn {by:g}" for by in TURNS] + list(IMAGE_CHANGES):
        ev = [e for e in events if e["kind"] == kind]
        if not ev:
            continue
        missed = [e for e in ev if e["ratio"] <= pn]
        stale = [e for e in missed if e["matters"]]
        row = {"change": kind, "n": len(ev), "matters": sum(e["matters"] for e in ev),
               "min_ratio": min(e["ratio"] for e in ev),
               "min_ratio_matters": min((e["ratio"] for e in ev if e["matters"]), default=None),
               "missed": len(missed),
               "stale": len(stale), "stale_cases": [e["what"] for e in stale][:5]}
        rows.append(row)
        print(f"{kind:14s} {row['n']:4d} {row['matters']:8d} {row['min_ratio']:10.2f} "
              f"{row['missed']:7d} {row['stale']:6d}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "profiles": chosen, "scenes": args.scenes, "print_noise": pn,
        "still_windows": len(still),
        "still_ratio_p50": float(np.median(ratios)),
        "still_ratio_p99": float(np.percentile(ratios, 99)), "still_ratio_max": float(ratios.max()),
        "still_reused_pct": 100 * reused_still, "changes": rows}, indent=1) + "\n",
        encoding="utf-8")
    print(f"\nwrote {args.out}")


def _trial(scene: testset.LiveScene, refs: dict[str, Any], fresh: TrayReader, kind: str,
           by: float, profile: str, still: list[float], levels: list[tuple[float, float]],
           layout: Any
           ) -> list[dict[str, Any]]:
    """One trial on ``scene``: a full read, three still frames, one changed window."""
    still_mod.PRINT_NOISE = float("inf")  # keep every first read
    reader = TrayReader(layout, refs)
    cast = dict(scene.cast)
    shot = scene.photo()
    reg = reader.follow(shot)
    first = reader.read(shot, cast, reg)
    clicks = [(d, k) for d, rr in first.items() for k, r in rr.items() if r.status == CLICK]
    for _ in range(3):
        shot = scene.photo()
        reader.read(shot, cast, reader.follow(shot))
        sw = reader.still
        if not sw.changes:  # the markers jittered: registered afresh, nothing kept
            continue
        still += [sw.print_ratio(c) for c in sw.changes.values()]
        levels.append((sw.marker_level, float(np.median([c.typical
                                                         for c in sw.changes.values()]))))
    targets = [t for t in (scene.turnable() if kind == "turn" else clicks) if t in clicks]
    if not targets:
        return []
    d, k = targets[int(scene.noise.integers(len(targets)))]
    if kind == "turn":
        before = scene.pos[d][k]
        scene.turn(d, k, by)
        shot = scene.photo()
        scene.pos[d][k] = before  # the scene as it was for the next trial
        scene.turn(d, k, 0.0)
        label = f"turn {by:g}"
    else:
        shot = scene.photo(IMAGE_CHANGES[kind](scene.render(), scene.window_box(reg, d, k)))
        label = kind
    reader.read(shot, cast, reader.follow(shot))
    if not reader.still.changes:
        return []
    change = reader.still.changes[(d, scene.cast[d], k)]
    now = fresh.read(shot, {d: scene.cast[d]}, reg)[d][k]
    was = first[d][k]
    matters = (now.status, now.clicks) != (was.status, was.clicks)
    return [{"kind": label, "ratio": reader.still.print_ratio(change),
             "matters": matters, "what": f"{profile} seed {scene.seed} dock {d} {k} "
                                         f"{was.to_dict()} -> {now.to_dict()}"}]


if __name__ == "__main__":
    main()
