"""Every window read of bench_vision.py's accuracy sets, before and after a change to the reader.

A change meant to make the reader faster must leave its reads as they were (issue 35): this
renders bench_vision's accuracy sets once (seeds 900-910: each held-back distortion alone, all
together, train; 60 trays each) and 60 ``STRESS`` trays (seed 950) to PNG files (lossless: a
read of the file is a read of the render), then reads them with whichever ``dialtray`` is
imported (a checkout's ``host`` first on ``PYTHONPATH`` reads them with that checkout's
reader), and compares two such runs window by window: status, clicks and confidence.

    python bench/compare_reads.py render [--dir DIR]
    PYTHONPATH=OLD/host python bench/compare_reads.py read old.json [--dir DIR]
    python bench/compare_reads.py read new.json [--dir DIR]
    python bench/compare_reads.py diff old.json new.json

``read`` prints each set's score (exact / wrong / unknown, as bench_vision.py counts them) and
writes every window's read to the JSON; ``diff`` prints per set both scores, how many reads
changed status or clicks (each one listed) and how many confidences moved by more than 0.01.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2

DIR = Path("/tmp/dialtray-compare-reads")
FRAMES = 60


def plans() -> Iterator[tuple[str, Callable[..., Any], str | None, int]]:
    """bench_vision.py's accuracy rows (name, profile, distortion, seed), then STRESS."""
    from dialtray.vision import render_profiles as rp

    kinds = rp.DISTORTION_TYPES
    for i, k in enumerate(kinds):
        yield f"held-back {k}", rp.held_back, k, 900 + i
    yield "held-back (all together)", rp.held_back, None, 900 + len(kinds)
    yield "train (all together)", rp.train, None, 901 + len(kinds)
    yield "stress", rp.stress, None, 950


def render(d: Path) -> None:
    from dialtray.vision import testset
    from dialtray.vision.layout import load_layout

    d.mkdir(parents=True, exist_ok=True)
    layout, figures = load_layout(), testset.all_sample_figures()
    if not (d / "refs.pkl").exists():
        refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
        (d / "refs.pkl").write_bytes(pickle.dumps(refs))
    for name, profile, only, seed in plans():
        if (d / f"{seed}.pkl").exists():
            continue
        cast = []
        for f, (shot, docks) in enumerate(testset.tray_sets(layout, figures, profile, FRAMES,
                                                            seed=seed, only=only)):
            cv2.imwrite(str(d / f"{seed}_{f:03d}.png"), shot.image,
                        [cv2.IMWRITE_PNG_COMPRESSION, 1])
            cast.append(docks)
        (d / f"{seed}.pkl").write_bytes(pickle.dumps((name, cast)))
        print(f"rendered {name}", flush=True)


def read(d: Path, out: Path) -> None:
    from dialtray.vision import testset
    from dialtray.vision.layout import load_layout
    from dialtray.vision.reader import TrayReader

    cv2.setNumThreads(1)
    reader = TrayReader(load_layout(), pickle.loads((d / "refs.pkl").read_bytes()), reuse=False)
    res: dict[str, Any] = {}
    t0 = time.perf_counter()
    for _, _, _, seed in plans():
        name, cast = pickle.loads((d / f"{seed}.pkl").read_bytes())
        score, rows = testset.Score(), []
        for f, docks in enumerate(cast):
            reads = reader.read(cv2.imread(str(d / f"{seed}_{f:03d}.png")),
                                {k: s.figure for k, s in docks.items()})
            for dock, spec in sorted(docks.items()):
                for dial, pos in sorted(spec.positions.items()):
                    r, faces = reads[dock][dial], spec.faces[dial]
                    score.add(r, pos, len(faces), faces, f"{name} {f} dock {dock} {dial}")
                    rows.append([f, dock, dial, pos, r.status, list(r.clicks),
                                 round(r.confidence, 4)])
        res[name] = {"exact": score.exact, "wrong": score.wrong, "unknown": score.unknown,
                     "total": score.total, "wrong_cases": score.wrong_cases, "rows": rows}
        print(f"{name:28s} {score.total:5d} {100 * score.exact / score.total:7.2f} % exact, "
              f"{score.wrong} wrong, {score.unknown} unknown", flush=True)
    print(f"read in {time.perf_counter() - t0:.0f} s")
    out.write_text(json.dumps(res), encoding="utf-8")


def diff(a: Path, b: Path) -> None:
    old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
    changed = 0
    for name, was in old.items():
        now = new[name]
        pairs = list(zip(was["rows"], now["rows"], strict=True))
        moved = [(x, y) for x, y in pairs if (x[4], x[5]) != (y[4], y[5])]
        shifted = sum(abs(x[6] - y[6]) > 0.01 for x, y in pairs)
        print(f"{name:28s} {was['exact']}/{was['total']} w{was['wrong']} u{was['unknown']} -> "
              f"{now['exact']}/{now['total']} w{now['wrong']} u{now['unknown']}; "
              f"{len(moved)} changed, {shifted} confidences moved > 0.01")
        for x, y in moved:
            print(f"    tray {x[0]} dock {x[1]} {x[2]} (truth {x[3]:.2f}): {x[4]} {x[5]} "
                  f"-> {y[4]} {y[5]}")
        changed += len(moved)
    print(f"reads that changed status or clicks: {changed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("render", "read", "diff"))
    ap.add_argument("files", nargs="*", type=Path, help="read: OUT.json; diff: A.json B.json")
    ap.add_argument("--dir", type=Path, default=DIR, help="where the rendered sets are")
    args = ap.parse_args()
    if args.command == "render":
        render(args.dir)
    elif args.command == "read" and len(args.files) == 1:
        read(args.dir, args.files[0])
    elif args.command == "diff" and len(args.files) == 2:
        diff(*args.files)
    else:
        ap.error(f"{args.command}: wrong number of files")


if __name__ == "__main__":
    main()
