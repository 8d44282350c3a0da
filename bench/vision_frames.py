"""What reading a still dial from several frames would do: held-back trays, each photographed
N times (the same scene, each frame its own sensor noise and JPEG, as a webcam's stream of a
still tray), the N frames averaged, and the average read by the reader as one photo.

    .venv/bin/python bench/vision_frames.py [--seeds 9811,...] [--trays N] [--frames-per-read 1,4]

A measure for a decision the issue leaves open, not a feature: the acceptance counts single
photos, and the reader reads each photo alone (the live loop only reads a still, unsure window
afresh on a later frame, docs/vision.md). N = 1 is the control: a single photo whose noise is
drawn here instead of by the renderer (it should read as the held-back set does). The
frames share the scene's light, shadows, blur and motion; only the noise and the JPEG's
rounding of it average out. Prints exact / wrong / unknown per N and writes
bench/results/vision_frames.json.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np
from benchout import print_table, write_results
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.layout import load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.render import Rendered, render_tray, sensed
from dialtray.vision.render_profiles import Params

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision_frames.json"


def averaged(clean: Any, p: Params, n: int, rng: np.random.Generator) -> Any:
    """The mean of ``n`` frames of ``clean``, each with its own noise and JPEG, as the
    renderer adds them."""
    acc = np.zeros(clean.shape, np.float32)
    for _ in range(n):
        acc += sensed(clean, p, rng)
    return np.clip(np.round(acc / n), 0, 255).astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="9811,9812", help="held-back seeds, comma-separated")
    ap.add_argument("--trays", type=int, default=100, help="trays (8 docks) per seed")
    ap.add_argument("--frames-per-read", default="1,4", help="N values, comma-separated")
    args = ap.parse_args()
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
        counts = [int(s) for s in args.frames_per_read.split(",")]
    except ValueError:
        ap.error("--seeds and --frames-per-read take whole numbers separated by commas")
    if args.trays < 1 or not counts or min(counts) < 1:
        ap.error("--trays and every --frames-per-read must be at least 1")
    cv2.setNumThreads(1)
    layout = load_layout()
    figures = testset.all_sample_figures()
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    reader = TrayReader(layout, refs, reuse=False)
    scores = {n: testset.Score() for n in counts}
    for seed in seeds:
        rngs = {n: np.random.default_rng(seed + 12345) for n in counts}
        for f, (shot, docks) in enumerate(testset.tray_sets(layout, figures, rp.held_back,
                                                            args.trays, seed)):
            p = shot.params
            clean = render_tray(layout, docks, replace(p, noise=0.0, jpeg=100),
                                seed * 100_000 + f).image.astype(np.float32)
            for n in counts:
                photo = Rendered(averaged(clean, p, n, rngs[n]), p, shot.truth,
                                 shot.camera_matrix, shot.dist_coeffs)
                testset.score_frame(reader, photo, docks, scores[n])
        print(f"seed {seed} read", flush=True)
    rows = []
    for n, s in scores.items():
        rows.append((f"{n} frame{'s' if n > 1 else ''} averaged",
                     f"{100 * s.exact / max(s.total, 1):.2f} %",
                     f"{s.exact}/{s.total} exact, {s.wrong} wrong, {s.unknown} unknown"))
        for case in s.wrong_cases:
            print("  wrong:", case)
    print_table(rows, 22, 8)
    write_results(RESULTS, {"seeds": seeds, "trays": args.trays,
                            "reads": {str(n): {"exact": s.exact, "wrong": s.wrong,
                                               "unknown": s.unknown, "total": s.total}
                                      for n, s in scores.items()}})


if __name__ == "__main__":
    main()
