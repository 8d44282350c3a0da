"""Choose where a read by synthesis counts (``classify.SYNTH_MARGIN``, ``SYNTH_BETWEEN``,
``SYNTH_AGREED``, ``SYNTH_WEAK``), on the STRESS profile (never HELD_BACK).

    .venv/bin/python bench/calibrate_synthesis.py [--frames N] [--seeds 8801,8802,8803]

Reads STRESS trays (8 docks each) with every synthesis accepted, and records for each read the
correlation left unsure: the synthesis' lead (z), whether its best look is a click or mid-turn,
whether the correlation's likeliest look was the same (agreed; weak when that look scored
below the correlation's MIN_SCORE), and whether the read is right. Then, over a grid of the
four thresholds, counts the reads each would add and the wrong ones among them. The rule: the
thresholds that add the most reads and no wrong one on STRESS (the reader without synthesis
already has its own few there); of those adding the same reads, the strictest. The grid's
floor is a lead of one noise unit (less is no lead), and a look both readings name never
needs more than one the synthesis alone names (agreed <= weak <= margin). Prints the best
thresholds for each click margin and the choice; writes bench/results/vision_synthesis.json.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
from benchout import print_table, write_results
from dialtray.vision import classify, prints, synth, testset, warpfit
from dialtray.vision import render_profiles as rp
from dialtray.vision.layout import load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import BETWEEN, UNKNOWN

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision_synthesis.json"
STEPS = tuple(1.0 + i / 4 for i in range(11))  # 1.0 .. 3.5 noise units, each threshold


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200, help="trays per seed (8 docks)")
    ap.add_argument("--seeds", default="8801,8802,8803")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="try another value of a synth.py, warpfit.py or prints.py constant (a "
                         "Python literal, e.g. OUTLIER=5.0 or WARP_LOOKS=12)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    for item in args.set:
        name, _, value = item.partition("=")
        module = next((m for m in (synth, warpfit, prints) if hasattr(m, name)), None)
        if module is None:
            ap.error(f"--set {item}: no constant {name} in synth.py, warpfit.py or prints.py")
        try:
            setattr(module, name, ast.literal_eval(value))
        except (ValueError, SyntaxError):
            ap.error(f"--set {item}: {value!r} is not a Python literal (e.g. 5.0, (1, 2), "
                     f"'text')")
    cv2.setNumThreads(1)
    names = ("margin", "between", "agreed", "weak")
    chosen = (classify.SYNTH_MARGIN, classify.SYNTH_BETWEEN, classify.SYNTH_AGREED,
              classify.SYNTH_WEAK)
    floor = classify.SYNTH_EXPLAINED  # applied below, with the thresholds
    classify.SYNTH_MARGIN = classify.SYNTH_BETWEEN = classify.SYNTH_AGREED = \
        classify.SYNTH_WEAK = 1e-9
    classify.SYNTH_EXPLAINED = 0.0
    layout = load_layout()
    figures = testset.all_sample_figures()
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    reader = TrayReader(layout, refs, reuse=False)
    plain = testset.Score()  # reads the synthesis did not touch
    rows: list[dict[str, Any]] = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for shot, docks in testset.tray_sets(layout, figures, rp.stress, args.frames, seed):
            for _, spec, dial, pos, c, read in testset.window_reads(reader, shot, docks):
                faces = spec.faces[dial]
                if c.last_synthesis is None:
                    plain.add(read, pos, len(faces), faces, "")
                    continue
                one = testset.Score()
                one.add(read, pos, len(faces), faces, "")
                syn, agreed = c.last_synthesis
                rows.append({"z": syn.z, "explained": syn.explained,
                             "between": syn.best.kind == BETWEEN,
                             "agreed": agreed, "made": read.status != UNKNOWN,
                             "right": one.exact == 1, "figure": spec.figure, "dial": dial,
                             "truth": pos, "seed": seed})
        print(f"seed {seed}: {plain.total + len(rows)} dials so far", flush=True)
    total = plain.total + len(rows)
    grid = []
    for m, b, a, w in itertools.product(STEPS, STEPS, STEPS, STEPS):
        if not a <= w <= m:
            continue
        made = [r for r in rows if r["made"] and r["z"] >= _need(r, m, b, a, w)
                and r["explained"] >= floor]
        wrong = sum(not r["right"] for r in made)
        grid.append({"margin": m, "between": b, "agreed": a, "weak": w, "added": len(made),
                     "wrong": wrong, "exact": (plain.exact + len(made) - wrong) / total})
    safe = [g for g in grid if g["wrong"] == 0]
    # the most reads added; of thresholds adding the same reads, the strictest
    best = max(safe, key=lambda g: (g["added"], *(g[n] for n in names)))
    table = [("plain reads: exact / wrong / unknown", f"{plain.exact}/{plain.wrong}/"
              f"{plain.unknown}", f"{total} STRESS dials, seeds {args.seeds}"),
             ("unsure reads the synthesis made again", str(len(rows)),
              f"right look {sum(r['right'] for r in rows)}")]
    # for each click margin, the best safe thresholds with it and the first unsafe looser one
    for m in STEPS:
        ok = [g for g in safe if g["margin"] == m]
        if ok:
            g = max(ok, key=lambda g: (g["added"], *(g[n] for n in names)))
            table.append((f"margin {m:g} between {g['between']:g} agreed {g['agreed']:g} "
                          f"weak {g['weak']:g}", f"+{g['added']}",
                          f"exact {100 * g['exact']:.2f} %"))
    table.append(("chosen by the rule (no wrong read added)",
                  "/".join(f"{best[n]:g}" for n in names),
                  f"+{best['added']} reads; in classify.py now: "
                  + "/".join(f"{v:g}" for v in chosen)))
    poor = [r for r in rows if r["made"] and r["explained"] < floor
            and r["z"] >= _need(r, *(best[n] for n in names))]
    table.append((f"reads left out: best look explains < {floor:g} of the window",
                  str(len(poor)), f"right {sum(r['right'] for r in poor)}"))
    wrong_rows = sorted((r for r in rows if r["made"] and not r["right"]),
                        key=lambda r: -r["z"])
    table += [(f"wrong look: {r['figure']} {r['dial']} truth {r['truth']:g}",
               f"z {r['z']:.2f}", r["agreed"] or ("mid-turn" if r["between"] else "click"))
              for r in wrong_rows[:5]]
    print_table(table, 48, 10)
    write_results(args.out, {"set": args.set, "seeds": args.seeds, "frames": args.frames,
                             "dials": total,
                             "plain": {"exact": plain.exact, "wrong": plain.wrong,
                                       "unknown": plain.unknown},
                             "safe_frontier": [g for g in safe if g["added"] >= best["added"]
                                               - 10][:200],
                             "chosen_by_rule": best,
                             "in_classify": dict(zip(names, chosen, strict=True)),
                             "synthesis_wrong": wrong_rows})


def _need(row: dict[str, Any], margin: float, between: float, agreed: float, weak: float
          ) -> float:
    """The lead a synthesis read needs under these thresholds."""
    return agreed if row["agreed"] == classify.AGREED else weak \
        if row["agreed"] == classify.WEAK else between if row["between"] else margin


if __name__ == "__main__":
    main()
