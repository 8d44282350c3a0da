"""How legible the held-back photographs are: an observer that knows everything about a photo
but the dial (the renderer's own scene, light, blur, lens and figure) picks the click whose
noise-free render is nearest the photo.

    .venv/bin/python bench/ideal_observer.py [--frames N] [--seed S] [--noise-draws K]

For each settled dial of each held-back tray, every other look of that dial is rendered into
the same scene without noise or JPEG, and the photo's distance to each is compared with its
distance to the truth's render: a normalised margin D = (|x - other|^2 - |x - truth|^2) /
|other - truth|^2, 1 on average and below 0 when the observer would pick the other look.
Reads nothing of the reader's; tunes nothing (the reader never sees these numbers). Prints
the errors and the smallest margins; writes bench/results/vision_ideal.json.

The same lead is also measured in units of the photo's *true* noise, as the reader's own
thresholds are: z = (|x - other|^2 - |x - truth|^2) / (2 sd(e . d)), d = other - truth, with
sd(e . d) from ``--noise-draws`` fresh draws of the photo's noise and JPEG on the truth's
clean render (a blurred, JPEG-blocked photo's noise is smooth, like d, and is worth less than
white noise of the same power). A reader that needs a lead of t such units before it names a
click, and knows the scene as well as this observer, still leaves every dial whose z is
below t unknown: the table gives how many, for a few t. That is a ceiling on the share read
exactly at that safety.

It bounds what any reader could do from these photos: where this observer errs, the photo
does not hold the answer; where it does not, a reader that errs lacks knowledge of the scene,
not pixels.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from benchout import print_table, write_results
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.layout import load_layout
from dialtray.vision.render import DockSpec, render_tray, sensed

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision_ideal.json"
LEADS = (1.5, 2.0, 2.5, 3.0)  # noise units a reader may need before it names a click


def noise_draws(clean: Any, p: rp.Params, n: int, rng: np.random.Generator) -> list[Any]:
    """``n`` draws of what the photo's noise and JPEG add to ``clean`` (float, per pixel),
    made as the renderer makes them."""
    light = clean.astype(np.float32)
    return [sensed(light, p, rng).astype(np.float32) - light for _ in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60, help="held-back trays (8 docks each)")
    ap.add_argument("--seed", type=int, default=9613)
    ap.add_argument("--noise-draws", type=int, default=24,
                    help="fresh noise draws per photo for the lead in true-noise units")
    ap.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    args = ap.parse_args()
    if args.frames < 1 or args.noise_draws < 2:
        ap.error("--frames must be at least 1 and --noise-draws at least 2")
    rng = np.random.default_rng(args.seed)
    leads: list[float] = []
    layout = load_layout()
    figures = testset.all_sample_figures()
    margins: list[float] = []
    for f, (shot, docks) in enumerate(testset.tray_sets(layout, figures, rp.held_back,
                                                        args.frames, seed=args.seed)):
        seed = args.seed * 100_000 + f  # the render seed tray_sets used for this photo
        clean = replace(shot.params, noise=0.0, jpeg=100)
        x = shot.image.astype(np.float32)
        clean_image = render_tray(layout, docks, clean, seed).image
        truth = clean_image.astype(np.float32)
        draws = noise_draws(clean_image, shot.params, args.noise_draws, rng)
        for dock, spec in docks.items():
            for dial, pos in spec.positions.items():
                if pos != int(pos):
                    continue  # settled dials only: every other look is a distinct print
                faces = spec.faces[dial]
                looks = {faces[int(pos)].key()}
                worst, least = np.inf, np.inf
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
                    diff = alt[changed] - truth[changed]
                    sd = float(np.std([float(np.sum(e[changed] * diff)) for e in draws]))
                    least = min(least, d / (2.0 * max(sd, 1e-9)))
                if worst < np.inf:
                    margins.append(worst)
                    leads.append(least)
        print(f"tray {f + 1}/{args.frames}: {len(margins)} settled dials", flush=True)
    if not margins:
        raise SystemExit("no settled dial in these trays: nothing to measure (more --frames)")
    m, z = np.array(margins), np.array(leads)
    errors = int(np.sum(m < 0))
    rows = [("settled held-back dials", str(len(m)), f"seed {args.seed}"),
            ("the ideal observer's errors", str(errors), "margin below 0"),
            ("smallest margin", f"{m.min():.2f}", "1 = as without noise"),
            ("margins below 0.5", str(int(np.sum(m < 0.5))), ""),
            ("1st percentile", f"{np.percentile(m, 1):.2f}", ""),
            ("smallest lead in true-noise units", f"{z.min():.2f}",
             f"{args.noise_draws} noise draws per photo")]
    below = {t: int(np.sum(z < t)) for t in LEADS}
    for t in LEADS:
        rows.append((f"leads below {t:g}", str(below[t]),
                     f"needing {t:g}, at most {100 * (1 - below[t] / len(z)):.2f} % exact"))
    print_table(rows, 34, 8)
    write_results(args.out, {"seed": args.seed, "frames": args.frames, "dials": len(m),
                            "errors": errors, "min_margin": float(m.min()),
                            "p1": float(np.percentile(m, 1)),
                            "below_half": int(np.sum(m < 0.5)),
                            "noise_draws": args.noise_draws, "min_lead": float(z.min()),
                            "leads_below": {f"{t:g}": below[t] for t in LEADS}})


if __name__ == "__main__":
    main()
