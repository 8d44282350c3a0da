"""Choose where a read by synthesis counts (``classify.SYNTH_MARGIN``, ``SYNTH_BETWEEN``,
``SYNTH_AGREED``), on the STRESS profile (never HELD_BACK).

    .venv/bin/python bench/calibrate_synthesis.py [--frames N] [--seeds 8801,8802,8803]

Reads STRESS trays (8 docks each) with every synthesis accepted, and records for each read the
correlation left unsure: the synthesis' lead (z), whether its best look is a click or mid-turn,
whether the correlation's likeliest look was the same (agreed), and whether the read is right.
Then, over a grid of the three thresholds, counts the reads each would add and the wrong ones
among them. The rule: the thresholds that add the most reads and no wrong one on STRESS (the
reader without synthesis already has its own few there); of those adding the same reads, the
strictest. Prints the grid and the choice; writes
bench/results/vision_synthesis.json.
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
MARGINS = (2.5, 3.0, 3.5, 4.0, 5.0)
BETWEENS = (1.5, 2.0, 3.0)
AGREED = (1.5, 1.75, 2.0, 2.5, 3.0)


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
    chosen = (classify.SYNTH_MARGIN, classify.SYNTH_BETWEEN, classify.SYNTH_AGREED)
    classify.SYNTH_MARGIN = classify.SYNTH_BETWEEN = classify.SYNTH_AGREED = 1e-9
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
                rows.append({"z": syn.z, "between": syn.best.kind == BETWEEN,
                             "agreed": agreed, "made": read.status != UNKNOWN,
                             "right": one.exact == 1, "figure": spec.figure, "dial": dial,
                             "truth": pos, "seed": seed})
        print(f"seed {seed}: {plain.total + len(rows)} dials so far", flush=True)
    total = plain.total + len(rows)
    grid = []
    for m, b, a in itertools.product(MARGINS, BETWEENS, AGREED):
        made = [r for r in rows if r["made"] and r["z"] >= (a if r["agreed"] else
                                                          b if r["between"] else m)]
        wrong = sum(not r["right"] for r in made)
        grid.append({"margin": m, "between": b, "agreed": a, "added": len(made),
                     "wrong": wrong, "exact": (plain.exact + len(made) - wrong) / total})
    safe = [g for g in grid if g["wrong"] == 0]
    # the most reads added; of thresholds adding the same reads, the strictest
    best = max(safe, key=lambda g: (g["added"], g["margin"], g["between"], g["agreed"]))
    table = [("plain reads: exact / wrong / unknown", f"{plain.exact}/{plain.wrong}/"
              f"{plain.unknown}", f"{total} STRESS dials, seeds {args.seeds}"),
             ("unsure reads the synthesis made again", str(len(rows)),
              f"right look {sum(r['right'] for r in rows)}")]
    table += [(f"margin {g['margin']:g} between {g['between']:g} agreed {g['agreed']:g}",
               f"+{g['added']}", f"wrong {g['wrong']}, exact {100 * g['exact']:.2f} %")
              for g in grid if g["agreed"] in (1.75, 2.0) and g["between"] == 2.0]
    table.append(("chosen by the rule (no wrong read added)",
                  f"{best['margin']:g}/{best['between']:g}/{best['agreed']:g}",
                  f"+{best['added']} reads; in classify.py now: "
                  f"{chosen[0]:g}/{chosen[1]:g}/{chosen[2]:g}"))
    print_table(table, 44, 10)
    write_results(args.out, {"set": args.set, "seeds": args.seeds, "frames": args.frames,
                             "dials": total,
                            "plain": {"exact": plain.exact, "wrong": plain.wrong,
                                      "unknown": plain.unknown},
                            "grid": grid, "chosen_by_rule": best,
                            "in_classify": dict(zip(("margin", "between", "agreed"), chosen,
                                                    strict=True)),
                            "synthesis_wrong": [r for r in rows if r["made"] and
                                                not r["right"]]})


if __name__ == "__main__":
    main()
