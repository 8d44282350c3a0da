"""The camera-only tray in the live loop (``--no-encoders``): bot games of Air Action (with
their Ace cards: each on a dock of its own) whose dial events are the virtual camera's reads
(``table.camera_game.camera_game(encoders=False)``, the tracker running).

    .venv/bin/python bench/bench_camera_only.py [--seeds 9995,9996] [--turns 2]
        [--profile held-back]

Prints, over every camera read: frames a read used (p50/p99), still -> read latency (the
window seen still -> the read's answer, wall clock, p50/p99), reads unsure (read again) and
re-seats asked for, the dial events the reads made and how many were taken on the rules' word
(clicks that print alike), every dial's last read checked against where the world left it
(wrong: a read that names a click printed differently), the reader's CPU per frame. Writes
bench/results/camera_only.json. As bench_camera_live.py: the frame rate is what the machine
gives (at up to 30 fps); latency grows with load, frames per read do not.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from benchout import print_table, write_results
from dialtray.table.camera_game import camera_game
from dialtray.table.camera_only import PROFILES
from dialtray.vision import testset
from dialtray.vision.faces import dial_faces
from dialtray.vision.witness import CAMERA_ONLY

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "camera_only.json"


def pct(v: list[float], q: float) -> float:
    return float(np.percentile(v, q)) if v else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="9995,9996", help="scenes, comma-separated")
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--profile", choices=PROFILES, default="held-back")
    args = ap.parse_args()
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error("--seeds takes whole numbers separated by commas")
    frames: list[float] = []
    latency: list[float] = []
    cpu: list[float] = []
    n = {"reads": 0, "unsure": 0, "reseats": 0, "events": 0, "assumed": 0, "dials": 0,
         "wrong": 0}
    seconds = 0.0
    printed = {**testset.sample_figures("airaction"), **testset.sample_ace_cards()}
    for seed in seeds:
        g = camera_game("airaction", seed, args.turns, encoders=False, profile=args.profile)
        w, tray = g.witness, g.camera_tray
        assert tray is not None
        seconds += g.seconds
        cpu.append(1000 * w.cpu_s / max(w.frames, 1))
        for r in w.results:
            n["reads"] += 1
            frames.append(r.frames)
            latency.append(1000 * (r.at - r.asked))
            n["unsure"] += r.state != CAMERA_ONLY
        n["reseats"] += len(g.reseats)
        n["events"] += len(tray.events)
        n["assumed"] += len(tray.assumed)
        snap = tray.snapshot(1)  # every dial's last read
        for (dock, dial), d in tray.dials.items():
            faces = dial_faces(printed[w.docks[d.place]])[d.name]
            truth = round(g.world.positions[d.place][d.name]) % d.clicks
            last = snap.position(dock, dial)
            assert last is not None
            seen = (last.position * d.up) % d.clicks
            n["dials"] += 1
            n["wrong"] += faces[seen].key() != faces[truth].key()
        print(f"seed {seed}: {len(w.results)} reads, {len(tray.events)} dial events, "
              f"{w.frames} frames, {g.seconds:.0f} s", flush=True)
    rows = [
        ("camera reads", str(n["reads"]), f"{len(seeds)} Air Action game(s), {args.turns} "
         f"turns, {args.profile} scenes, no encoders"),
        ("dial events", str(n["events"]), f"{n['assumed']} taken on the rules' word (clicks "
         "that print alike)"),
        ("unsure / re-seats", f"{n['unsure']} / {n['reseats']}", "unsure reads are read again"),
        ("last reads wrong", f"{n['wrong']} of {n['dials']}", "each dial's last read against "
         "the world (printed alike counts as right)"),
        ("frames / read p50/p99", f"{pct(frames, 50):.0f} / {pct(frames, 99):.0f}",
         "frames a read used (bursts and re-reads)"),
        ("still->read p50/p99", f"{pct(latency, 50):.0f} / {pct(latency, 99):.0f} ms",
         "wall clock, at the frame rate this machine gave"),
        ("reader CPU / frame", f"{pct(cpu, 50):.1f} ms", "camera thread, per game, median "
         f"(max {max(cpu, default=float('nan')):.1f})"),
    ]
    print_table(rows, 24, 14)
    write_results(RESULTS, {"seeds": seeds, "turns": args.turns, "profile": args.profile,
                            **n, "frames_p50": pct(frames, 50), "frames_p99": pct(frames, 99),
                            "latency_ms_p50": round(pct(latency, 50), 1),
                            "latency_ms_p99": round(pct(latency, 99), 1),
                            "reader_cpu_ms_per_frame": [round(c, 2) for c in cpu],
                            "load_average": [round(x, 1) for x in os.getloadavg()],
                            "seconds": round(seconds, 1)})


if __name__ == "__main__":
    main()
