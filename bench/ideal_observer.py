"""How legible the held-back photographs are: an observer that knows everything about a photo
but the dial (the renderer's own scene, light, blur, lens and figure) picks the click whose
noise-free render is nearest the photo.

    .venv/bin/python bench/ideal_observer.py [--frames N] [--seed S]

For each settled dial of each held-back tray, every other look of that dial is rendered into
the same scene without noise or JPEG, and the photo's distance to each is compared with its
distance to the truth's render: a normalised margin D = (|x - other|^2 - |x - truth|^2) /
|other - truth|^2, 1 on average and below 0 when the observer would pick the other look.
Reads nothing of the reader's; tunes nothing (the reader never sees these numbers). Prints
the errors and the smallest margins; writes bench/results/vision_ideal.json.

It bounds what any reader could do from these photos: where this observer errs, the photo
does not hold the answer; where it does not, a reader that errs lacks knowledge of the scene,
not pixels.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from benchout import print_table, write_results
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.layout import load_layout
from dialtray.vision.render import DockSpec, render_tray

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision_ideal.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60, help="held-back trays (8 docks each)")
    ap.add_argument("--seed", type=int, default=9613)
    args = ap.parse_args()
    layout = load_layout()
    figures = testset.all_sample_figures()
    margins: list[float] = []
    for f, (shot, docks) in enumerate(testset.tray_sets(layout, figures, rp.held_back,
                                                        args.frames, seed=args.seed)):
        seed = args.seed * 100_000 + f  # the render seed tray_sets used for this photo
        clean = replace(shot.params, noise=0.0, jpeg=100)
        x = shot.image.astype(np.float32)
        truth = render_tray(layout, docks, clean, seed).image.astype(np.float32)
        for dock, spec in docks.items():
            for dial, pos in spec.positions.items():
                if pos != int(pos):
                    continue  # settled dials only: every other look is a distinct print
                faces = spec.faces[dial]
                looks = {faces[int(pos)].key()}
                worst = np.inf
                for other in range(len(faces)):
                    if faces[other].key() in looks:
                        continue
                    looks.add(faces[other].key())
                    moved = dict(docks)
                    moved[dock] = DockSpec(spec.figure, spec.base_type, spec.faces,
                                           {**spec.positions, dial: float(other)})
                    alt = render_tray(layout, moved, clean, seed).image.astype(np.float32)
                    changed = np.any(alt != truth, axis=2)
                    sep = float(np.sum((alt[changed] - truth[changed]) ** 2))
                    d = float(np.sum((x[changed] - alt[changed]) ** 2
                                     - (x[changed] - truth[changed]) ** 2))
                    worst = min(worst, d / max(sep, 1e-9))
                if worst < np.inf:
                    margins.append(worst)
        print(f"tray {f + 1}/{args.frames}: {len(margins)} settled dials", flush=True)
    m = np.array(margins)
    errors = int(np.sum(m < 0))
    print_table([("settled held-back dials", str(len(m)), f"seed {args.seed}"),
                 ("the ideal observer's errors", str(errors), "margin below 0"),
                 ("smallest margin", f"{m.min():.2f}", "1 = as without noise"),
                 ("margins below 0.5", str(int(np.sum(m < 0.5))), ""),
                 ("1st percentile", f"{np.percentile(m, 1):.2f}", "")], 28, 8)
    write_results(RESULTS, {"seed": args.seed, "frames": args.frames, "dials": len(m),
                            "errors": errors, "min_margin": float(m.min()),
                            "p1": float(np.percentile(m, 1)),
                            "below_half": int(np.sum(m < 0.5))})


if __name__ == "__main__":
    main()
