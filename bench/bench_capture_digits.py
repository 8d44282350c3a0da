"""Where `dialtray capture`'s digit pre-fill thresholds come from (``vision/digits.py``).

    .venv/bin/python bench/bench_capture_digits.py [--styles N] [--profile train]

Every shipped sample figure (both games) is photographed click by click under the chosen
render profile (default ``TRAIN``: every photo its own draw of perspective, light, shadows,
blur, JPEG, noise, occlusion, seating), each time printed in ``--styles`` different prints
(the renderer picks a figure's font, digit size and ink from its id: ``<id>~k`` is the same
dial in another print). A scripted person confirms each click with the truth; before that, every
cell of the click is scored against the samples confirmed so far. The scores do not depend on
the thresholds, so the sweep is offline: for each (MIN_SCORE, MIN_MARGIN) it counts the cells
pre-filled and the wrong pre-fills, separately for cells whose value had been seen before
(could be read) and cells whose value was new (must not be read).

The rule: ``MIN_SCORE`` is the loosest score with 0 wrong pre-fills on TRAIN (seed 300, 6
prints: 0.94; the best wrong value scored 0.932) plus one step (0.01) for safety: 0.95.
``MIN_MARGIN`` decided no TRAIN cell at that score (a wrong value never came within it); it
guards the case of two known values both matching, at 0.05 (costs 2 of 682 cells). Then
checked on fresh TRAIN draws (seed 900, 4 prints): 0 wrong, 459 of 548 cells whose value
had been shown before (83.8 %; best wrong value 0.930). ``--colour-blocks`` puts a colour block
behind most cells (red, blue, purple, green in rotation): 0 wrong, but only 48 % read at 0.95
(a dark block leaves the digit less contrast against the noise). ``HELD_BACK`` is never run
here. Prints a table, writes bench/results/capture_digits.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from dialtray.vision import digits, testset
from dialtray.vision import render_profiles as rp
from dialtray.vision.faces import (
    ACES_COMBAT,
    AIRACTION_COMBAT,
    BASE_TYPE,
    Face,
    dial_faces,
    game_of,
)
from dialtray.vision.layout import Layout, load_layout
from dialtray.vision.register import MarkerFinder, register
from dialtray.vision.render import DockSpec, render_tray

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "capture_digits.json"
PROFILES = {"train": rp.train, "train_hard": rp.train_hard, "capture": rp.capture}


def colour_blocks(doc: dict[str, Any]) -> dict[str, Any]:
    """The same figure with a colour block behind most combat cells, in rotation (red, blue,
    purple, green, none): the same value then meets itself on other colours."""
    out = json.loads(json.dumps(doc))
    rows = out.get("combat_dial") or out["dial"]
    stats = AIRACTION_COMBAT if "combat_dial" in out else ACES_COMBAT
    palette = ["red", "blue", "purple", "green", None]
    for i, row in enumerate(rows):
        row["colours"] = {s: c for j, s in enumerate(stats)
                          if (c := palette[(i + j) % len(palette)]) is not None}
    return out


def photographed_crops(layout: Layout, figure: str, faces: dict[str, list[Face]],
                       base_type: str, profile: Any, seed: int, dock: int = 2
                       ) -> dict[str, list[Any]]:
    """One photo per click under ``profile`` (every dial stepped together), cropped as
    ``capture.crops_from_photos`` does."""
    bt = layout.base_type(base_type)
    finder = MarkerFinder(layout)
    rng = np.random.default_rng(seed)
    n = max(len(f) for f in faces.values())
    crops: dict[str, list[Any]] = {d: [] for d in faces}
    for i in range(n):
        pos = {d: float(i % len(f)) for d, f in faces.items()}
        shot = render_tray(layout, {dock: DockSpec(figure, base_type, faces, pos)},
                           profile(rng), seed * 1000 + i)
        reg = register(shot.image, finder)
        for d, fs in faces.items():
            if i < len(fs):
                crops[d].append(reg.crop(shot.image, layout.docks[dock], bt.windows[d],
                                         bt.name))
    return crops


def cell_scores(layout: Layout, figure: str, doc: dict[str, Any], profile: Any, seed: int
                ) -> list[dict[str, Any]]:
    """Per cell of every click after the first: truth, whether its value was seen, scores."""
    faces = dial_faces(doc)
    bt = layout.base_type(BASE_TYPE[game_of(doc)])
    crops = photographed_crops(layout, figure, faces, bt.name, profile, seed)
    out = []
    for d, fs in faces.items():
        reader = digits.PrintReader(bt.windows[d], crops[d])
        for i, face in enumerate(fs):
            if i:
                for r, name in enumerate(reader.names):
                    truth = face.values.get(name, face.marks.get(name))
                    if truth is None:
                        continue
                    sc = reader.scores(i, r)
                    out.append({"figure": figure, "dial": d, "click": i, "cell": name,
                                "truth": int(truth), "seen": int(truth) in sc, "scores": sc})
            reader.learn(i, face)
    return out


def decide(scores: dict[int, float], min_score: float, margin: float) -> int | None:
    sc = sorted(scores.items(), key=lambda kv: -kv[1])
    if not sc:
        return None
    rival = sc[1][1] if len(sc) > 1 else -1.0
    return sc[0][0] if sc[0][1] >= min_score and sc[0][1] - rival >= margin else None


def sweep(cells: list[dict[str, Any]], min_score: float, margin: float) -> dict[str, Any]:
    filled = wrong = wrong_new = seen = 0
    cases = []
    for c in cells:
        v = decide(c["scores"], min_score, margin)
        seen += c["seen"]
        if v is None:
            continue
        filled += 1
        if v != c["truth"]:
            wrong += 1
            wrong_new += not c["seen"]
            cases.append(f"{c['figure']} {c['dial']} click {c['click']} {c['cell']}: "
                         f"truth {c['truth']} read {v}")
    return {"min_score": min_score, "margin": margin, "cells": len(cells), "seen": seen,
            "filled": filled, "wrong": wrong, "wrong_new": wrong_new, "cases": cases[:5]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", type=int, default=4, help="prints per figure")
    ap.add_argument("--profile", choices=sorted(PROFILES), default="train")
    ap.add_argument("--seed", type=int, default=300)
    ap.add_argument("--colour-blocks", action="store_true",
                    help="colour blocks behind most combat cells (colour_blocks)")
    args = ap.parse_args()
    layout = load_layout()
    figures = testset.all_sample_figures()
    t0 = time.perf_counter()
    cells: list[dict[str, Any]] = []
    for k in range(args.styles):
        for j, (fid, doc) in enumerate(sorted(figures.items())):
            name = fid if k == 0 else f"{fid}~{k}"
            if args.colour_blocks:
                doc, name = colour_blocks(doc), f"{name}~colours"
            cells += cell_scores(layout, name, doc, PROFILES[args.profile],
                                 args.seed + 100 * k + j)
    elapsed = time.perf_counter() - t0
    rows = [sweep(cells, s, m) for s in (0.92, 0.93, 0.94, 0.95, 0.96, 0.97)
            for m in (0.0, 0.02, 0.04, 0.06)]
    print(f"profile {args.profile}, {args.styles} prints x {len(figures)} figures, "
          f"{len(cells)} cells after click 0 ({elapsed:.1f} s)")
    print(f"{'min_score':>9} {'margin':>6} {'seen':>5} {'filled':>6} {'% of seen':>9} "
          f"{'wrong':>5} {'of new':>6}")
    for r in rows:
        pct = 100.0 * r["filled"] / max(r["seen"], 1)
        print(f"{r['min_score']:9.2f} {r['margin']:6.2f} {r['seen']:5d} {r['filled']:6d} "
              f"{pct:9.1f} {r['wrong']:5d} {r['wrong_new']:6d}  {'; '.join(r['cases'][:2])}")
    neg = [max((s for v, s in c["scores"].items() if v != c["truth"]), default=-1.0)
           for c in cells]
    pos = [c["scores"][c["truth"]] for c in cells if c["seen"]]
    print(f"best score of a wrong value: max {max(neg):.3f}, 99.9th pct "
          f"{float(np.percentile(neg, 99.9)):.3f}; right value: 1st pct "
          f"{float(np.percentile(pos, 1)):.3f}, median {float(np.median(pos)):.3f}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"profile": args.profile, "styles": args.styles,
                                   "seed": args.seed, "colour_blocks": args.colour_blocks,
                                   "constants": {"MIN_SCORE": digits.MIN_SCORE,
                                                 "MIN_MARGIN": digits.MIN_MARGIN,
                                                 "SEARCH_PX": digits.SEARCH_PX,
                                                 "BLUR": digits.BLUR},
                                   "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
