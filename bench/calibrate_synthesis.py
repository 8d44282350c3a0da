"""Choose where a read by synthesis counts (``synth_check.SYNTH_MARGIN``, ``SYNTH_BETWEEN``,
``SYNTH_AGREED``, ``SYNTH_WEAK``), on the STRESS profile (never HELD_BACK).

    .venv/bin/python bench/calibrate_synthesis.py [--frames N] [--seeds 8801,...] [--jobs N]

Reads STRESS trays (8 docks each) with every synthesis accepted, and records for each read the
correlation left unsure: the synthesis' lead (z), whether its best look is a click or mid-turn,
whether the correlation's likeliest look was the same (agreed; weak when that look scored
below the correlation's MIN_SCORE), and whether the read is right. Then, over a grid of the
four thresholds, counts the reads each would add and the wrong ones among them. The rule: the
thresholds that add the most reads and no wrong one on STRESS (the reader without synthesis
already has its own few there) and that clear the largest lead a wrong look of their kind
reached by GUARD (0.25) noise units; of those adding the same reads, the strictest. The grid's
floor is a lead of one noise unit (less is no lead), and a look both readings name never
needs more than one the synthesis alone names (agreed <= weak <= margin). The seeds are read
in parallel (--jobs), ~2.5 minutes on two cores. Prints the best
thresholds for each click margin and the choice; writes bench/results/vision_synthesis.json.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import multiprocessing
import os
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
from benchout import print_table, write_results
from dialtray.vision import prints, synth, synth_check, testset, warpfit
from dialtray.vision import render_profiles as rp
from dialtray.vision.layout import load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import BETWEEN, UNKNOWN

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "vision_synthesis.json"
STEPS = tuple(1.0 + i / 4 for i in range(11))  # 1.0 .. 3.5 noise units, each threshold
GUARD = 0.25  # noise units a threshold must clear the largest wrong lead of its kind by


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200, help="trays per seed (8 docks)")
    ap.add_argument("--seeds", default=",".join(str(s) for s in range(8801, 8813)),
                    help="STRESS seeds (default 8801-8812, ~24 000 dials)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="seeds read at once, one process each")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="try another value of a synth.py, warpfit.py or prints.py constant (a "
                         "Python literal, e.g. OUTLIER=5.0 or WARP_LOOKS=12)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    names = ("margin", "between", "agreed", "weak")
    chosen = (synth_check.SYNTH_MARGIN, synth_check.SYNTH_BETWEEN, synth_check.SYNTH_AGREED,
              synth_check.SYNTH_WEAK)
    floor = synth_check.SYNTH_EXPLAINED  # applied below, with the thresholds
    try:
        _set_constants(args.set)  # here only to say at once which --set cannot be taken
    except ValueError as e:
        ap.error(str(e))
    seeds = [int(s) for s in args.seeds.split(",")]
    with multiprocessing.Pool(min(args.jobs, len(seeds)), _set_constants,
                              (args.set,)) as pool:
        done = pool.imap_unordered(partial(_read_seed, frames=args.frames), seeds)
        parts = []
        for part in done:
            parts.append(part)
            print(f"seed {part[0]} read ({len(parts)} of {len(seeds)})", flush=True)
    plain = testset.Score()  # reads the synthesis did not touch
    rows: list[dict[str, Any]] = []
    for _, exact, wrong, unknown, seed_rows in sorted(parts, key=lambda p: p[0]):
        plain.exact += exact
        plain.wrong += wrong
        plain.unknown += unknown
        rows += seed_rows
    total = plain.exact + plain.wrong + plain.unknown + len(rows)
    grid = []
    for m, b, a, w in itertools.product(STEPS, STEPS, STEPS, STEPS):
        if not a <= w <= m:
            continue
        need = {"margin": m, "between": b, "agreed": a, "weak": w}
        made = [r for r in rows if r["made"] and r["z"] >= need[_kind(r)]
                and r["explained"] >= floor]
        wrong = sum(not r["right"] for r in made)
        grid.append({**need, "added": len(made), "wrong": wrong,
                     "exact": (plain.exact + len(made) - wrong) / total})
    # the largest lead a wrong look reached, per kind of read: a threshold must clear it by
    # GUARD (the largest of a sample understates the tail: at no guard, a fresh held-back
    # draw had a wrong read agreed at 1.70 where STRESS's largest was 1.07)
    top = {n: max((r["z"] for r in rows if r["made"] and not r["right"]
                   and r["explained"] >= floor and _kind(r) == n), default=-np.inf)
           for n in names}
    safe = [g for g in grid if g["wrong"] == 0
            and all(g[n] >= top[n] + GUARD for n in names)]
    if not safe:
        leads = ", ".join(f"{n} {top[n]:.2f}" for n in names if np.isfinite(top[n]))
        raise SystemExit(f"no thresholds on the grid ({STEPS[0]:g}-{STEPS[-1]:g}) are safe: "
                         f"the largest wrong leads ({leads}) plus the guard of {GUARD:g} "
                         f"reach past it, so nothing is chosen and nothing written")
    # the most reads added; of thresholds adding the same reads, the strictest
    best = max(safe, key=lambda g: (g["added"], *(g[n] for n in names)))
    table = [("plain reads: exact / wrong / unknown", f"{plain.exact}/{plain.wrong}/"
              f"{plain.unknown}", f"{total} STRESS dials, seeds {args.seeds}"),
             ("unsure reads the synthesis made again", str(len(rows)),
              f"right look {sum(r['right'] for r in rows)}")]
    # for each click margin, the best safe thresholds with it
    for m in STEPS:
        ok = [g for g in safe if g["margin"] == m]
        if ok:
            g = max(ok, key=lambda g: (g["added"], *(g[n] for n in names)))
            table.append((f"margin {m:g} between {g['between']:g} agreed {g['agreed']:g} "
                          f"weak {g['weak']:g}", f"+{g['added']}",
                          f"exact {100 * g['exact']:.2f} %"))
    table.append(("chosen by the rule (no wrong read added)",
                  "/".join(f"{best[n]:g}" for n in names),
                  f"+{best['added']} reads; in synth_check.py now: "
                  + "/".join(f"{v:g}" for v in chosen)))
    poor = [r for r in rows if r["made"] and r["explained"] < floor
            and r["z"] >= best[_kind(r)]]
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


def _set_constants(items: list[str]) -> None:
    """One thread, the constants --set names (ValueError naming the one that cannot be
    taken), and every synthesis accepted: run in main and in each worker process."""
    cv2.setNumThreads(1)
    for item in items:
        name, _, value = item.partition("=")
        module = next((m for m in (synth, warpfit, prints) if hasattr(m, name)), None)
        if module is None:
            raise ValueError(f"--set {item}: no constant {name} in synth.py, warpfit.py or "
                             f"prints.py")
        try:
            setattr(module, name, ast.literal_eval(value))
        except (ValueError, SyntaxError):
            raise ValueError(f"--set {item}: {value!r} is not a Python literal (e.g. 5.0, "
                             f"(1, 2), 'text')") from None
    synth_check.SYNTH_MARGIN = synth_check.SYNTH_BETWEEN = synth_check.SYNTH_AGREED = \
        synth_check.SYNTH_WEAK = 1e-9
    synth_check.SYNTH_EXPLAINED = 0.0


def _read_seed(seed: int, frames: int) -> tuple[int, int, int, int, list[dict[str, Any]]]:
    """One STRESS seed read with every synthesis accepted: the seed, the plain reads' exact /
    wrong / unknown, and a row per read the correlation left unsure."""
    layout = load_layout()
    figures = testset.all_sample_figures()
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    reader = TrayReader(layout, refs, reuse=False)
    plain = testset.Score()
    rows: list[dict[str, Any]] = []
    for shot, docks in testset.tray_sets(layout, figures, rp.stress, frames, seed):
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
    return seed, plain.exact, plain.wrong, plain.unknown, rows


def _kind(row: dict[str, Any]) -> str:
    """Which threshold a row's read is held to."""
    return "agreed" if row["agreed"] == synth_check.AGREED else "weak" \
        if row["agreed"] == synth_check.WEAK else "between" if row["between"] else "margin"


if __name__ == "__main__":
    main()
