"""Burst reads of settled dials on the held-back profile: what share a burst confirms, how
many frames it takes, and what a frame costs.

    .venv/bin/python bench/bench_camera_burst.py [--seeds 9901,9902] [--trays 40] [--jobs 2]

Each tray is a fresh held-back scene (``render_profiles.held_back``: camera pose, lens, light,
shadows, blur, noise, JPEG, seats, figures) of 8 docks of sample pieces (the planes and Aces
figures, and the Air Action Ace cards), and beside each dock holding a one-dial piece, half the
time, a second one-dial piece in the dock's holder (a second Aces figure or an Ace card sharing
the dock: ``layout.HOLDER``; ``--no-holders``: docks only), every dial settled on a random
click, filmed by the virtual camera (``vision/virtual_camera.py``: the scene
drawn once, each frame its own sensor noise and JPEG). The registration is made on the first
frame as the live loop makes it (``TrayReader.follow``); then every window is read by a burst
(``vision/burst.py``: frames averaged, more while unsure, at most ``MOST``), all windows from
the same frames (each window's pixels carry their own noise, so this is a burst per settled
click, read together to save renders). A burst's click is *confirmed* when it names the
truth, *wrong* when it names another click, *unsure* otherwise. Frames used per settled
click (p50/p99), the settle -> answer latency at 30 frames a second (the frames' time plus
the reading CPU), and the reader's CPU per frame (one core, ``thread_time``).

Seeds 9901+ are fresh held-back seeds (never read before this bench). Writes
bench/results/camera_burst.json.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np
from benchout import print_table, write_results
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.burst import MOST, WindowBurst
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import base_type_of, dial_faces
from dialtray.vision.layout import HOLDER, load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import CLICK
from dialtray.vision.render import DockSpec
from dialtray.vision.scene import TrayScene
from dialtray.vision.virtual_camera import DialWorld, VirtualCamera, dock_positions

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "camera_burst.json"
FPS = 30.0


KINDS = ("dock", "holder", "ace")  # a window on a dock's seat, in a holder, an Ace card's


def run_seed(seed: int, trays: int, most: int, holders: bool = True,
             cast: str = "all") -> dict[str, Any]:
    cv2.setNumThreads(1)
    layout = load_layout()
    figures = {**testset.all_sample_figures(), **testset.sample_ace_cards()}
    if cast == "airaction":  # the pieces of Air Action's standard squadrons (a bot game's)
        figures = {**testset.sample_figures("airaction"), **testset.sample_ace_cards()}
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    ids = sorted(figures)
    faces = {f: dial_faces(figures[f]) for f in ids}
    one_dial = [f for f in ids if len(faces[f]) == 1]
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"frames": [], "latency_ms": [], "cpu_ms": [], "confirmed": 0,
                           "wrong": 0, "unsure": 0, "moving": 0, "between": 0, "lost": 0,
                           "wrong_cases": [], "unsure_cases": []}
    for k in KINDS:
        out[f"{k}_settled"] = out[f"{k}_confirmed"] = 0
    out["by_figure"] = {}  # "figure window" -> [settled, confirmed]
    for t in range(trays):
        docks = {}
        for dock in sorted(layout.docks):
            fid = ids[int(rng.integers(len(ids)))]
            docks[dock] = DockSpec(fid, base_type_of(figures[fid]), faces[fid],
                                   testset.random_positions(faces[fid], rng, 0.0))
            if holders and fid in one_dial and dock in layout.holders and rng.random() < 0.5:
                hid = one_dial[int(rng.integers(len(one_dial)))]
                docks[HOLDER + dock] = DockSpec(hid, base_type_of(figures[hid]), faces[hid],
                                                testset.random_positions(faces[hid], rng, 0.0))
        params = rp.held_back(rng)
        scene = TrayScene(layout, docks, params, seed * 1000 + t)
        cam = VirtualCamera(scene, DialWorld(dock_positions(docks)), FPS, seed=seed * 7 + t)
        reader = TrayReader(layout, refs)
        _, frame = cam.read()
        try:
            reg = reader.follow(frame)
        except VisionError:
            out["lost"] += sum(len(s.positions) for s in docks.values())
            continue
        bursts = {}
        for dock, spec in docks.items():
            bt = layout.base_type(spec.base_type)
            for dial in spec.positions:
                bursts[(dock, dial)] = WindowBurst(reader.classifiers(spec.figure)[dial],
                                                   layout.places[dock], bt.windows[dial],
                                                   bt.name, most=most)
        answers: dict[tuple[int, str], Any] = {}
        cpu: dict[tuple[int, str], float] = dict.fromkeys(bursts, 0.0)
        while len(answers) < len(bursts):
            c0 = time.thread_time()
            reg = reader.follow(frame)
            follow_cpu = time.thread_time() - c0
            for key, b in bursts.items():
                if key in answers:
                    continue
                c1 = time.thread_time()
                a = b.feed(frame, reg)
                cpu[key] += time.thread_time() - c1 + follow_cpu
                if a is not None:
                    answers[key] = a
            out["cpu_ms"].append((time.thread_time() - c0) * 1000)
            if len(answers) < len(bursts):
                _, frame = cam.read()
        for (dock, dial), a in answers.items():
            truth = int(docks[dock].positions[dial])
            out["frames"].append(a.frames)
            out["latency_ms"].append(a.frames / FPS * 1000 + cpu[(dock, dial)] * 1000)
            what = f"seed {seed} tray {t} dock {dock} {docks[dock].figure} {dial} truth {truth}"
            kinds = ["dock" if dock < HOLDER else "holder"] + (["ace"] if dial == "ace" else [])
            for k in kinds:
                out[f"{k}_settled"] += 1
                out[f"{k}_confirmed"] += a.status == CLICK and truth in a.clicks
            tally = out["by_figure"].setdefault(f"{docks[dock].figure} {dial}", [0, 0])
            tally[0] += 1
            tally[1] += a.status == CLICK and truth in a.clicks
            if a.status == CLICK and truth in a.clicks:
                out["confirmed"] += 1
            elif a.status == CLICK:
                out["wrong"] += 1
                out["wrong_cases"].append(f"{what}: read {a.clicks}")
            else:
                out[{"between": "between", "moving": "moving"}.get(a.status, "unsure")] += 1
                out["unsure_cases"].append(f"{what}: {a.status} after {a.frames} frames "
                                           f"({a.reason[:120]})")
    return out


def pct(v: list[float], q: float) -> float:
    return float(np.percentile(v, q)) if v else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="9901,9902", help="held-back seeds, comma-separated")
    ap.add_argument("--trays", type=int, default=40, help="trays (8 docks) per seed")
    ap.add_argument("--most", type=int, default=MOST, help="frames a burst may use")
    ap.add_argument("--jobs", type=int, default=2, help="processes (one seed each)")
    ap.add_argument("--cast", choices=("all", "airaction"), default="all",
                    help="the pieces drawn: every sample (default), or Air Action's standard "
                         "squadrons' planes and Ace cards (what a bot game of it films)")
    ap.add_argument("--no-holders", action="store_true",
                    help="docks only (no second piece in a dock's holder)")
    args = ap.parse_args()
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error("--seeds takes whole numbers separated by commas")
    if args.trays < 1 or args.most < 1 or args.jobs < 1:
        ap.error("--trays, --most and --jobs must be at least 1")
    with ProcessPoolExecutor(args.jobs) as ex:
        parts = list(ex.map(run_seed, seeds, [args.trays] * len(seeds),
                            [args.most] * len(seeds), [not args.no_holders] * len(seeds),
                            [args.cast] * len(seeds)))
    tot: dict[str, Any] = {k: ([] if isinstance(v, list) else 0) for k, v in parts[0].items()
                           if k != "by_figure"}
    by_figure: dict[str, list[int]] = {}
    for p in parts:
        for k, v in p.items():
            if k == "by_figure":
                for f, (n_f, ok_f) in v.items():
                    t = by_figure.setdefault(f, [0, 0])
                    t[0], t[1] = t[0] + n_f, t[1] + ok_f
            else:
                tot[k] = tot[k] + v
    n = tot["confirmed"] + tot["wrong"] + tot["unsure"] + tot["moving"] + tot["between"] \
        + tot["lost"]
    rows = [
        ("settled clicks", str(n), f"{len(seeds)} held-back seeds x {args.trays} trays"),
        ("confirmed", f"{100 * tot['confirmed'] / max(n, 1):.2f} %",
         f"{tot['confirmed']} named the true click within a burst"),
        *((f"  {k} windows", f"{tot[f'{k}_confirmed']} / {tot[f'{k}_settled']}",
           "confirmed / settled") for k in KINDS),
        ("wrong", str(tot["wrong"]), "a burst that named another click"),
        ("unsure", str(tot["unsure"] + tot["moving"] + tot["between"] + tot["lost"]),
         f"{tot['unsure']} unknown, {tot['between']} mid-turn, {tot['moving']} moving, "
         f"{tot['lost']} markers lost: read again"),
        ("frames p50 / p99", f"{pct(tot['frames'], 50):.0f} / {pct(tot['frames'], 99):.0f}",
         f"per settled click (at most {args.most})"),
        ("settle->answer p50/p99", f"{pct(tot['latency_ms'], 50):.0f} / "
         f"{pct(tot['latency_ms'], 99):.0f} ms", f"frames at {FPS:.0f} fps + reading CPU"),
        ("reader CPU / frame", f"{pct(tot['cpu_ms'], 50):.1f} / {pct(tot['cpu_ms'], 99):.1f}",
         "ms p50 / p99: follow + every open burst (16 at first)"),
        ("load average", " / ".join(f"{x:.1f}" for x in os.getloadavg()),
         "1 / 5 / 15 min, at the end (the machine is shared: CPU figures grow with it)"),
    ]
    print_table(rows, 24, 14)
    for f, (n_f, ok_f) in sorted(by_figure.items()):
        if ok_f < n_f:
            print(f"  {f}: {ok_f} / {n_f} confirmed")
    for c in tot["wrong_cases"]:
        print("  wrong:", c)
    for c in tot["unsure_cases"][:40]:
        print("  unsure:", c)
    write_results(RESULTS, {
        "seeds": seeds, "trays": args.trays, "most": args.most, "settled": n,
        "confirmed": tot["confirmed"], "wrong": tot["wrong"], "unsure": tot["unsure"],
        "between": tot["between"], "moving": tot["moving"], "lost": tot["lost"],
        "holders": not args.no_holders, "cast": args.cast, "by_figure": by_figure,
        **{f"{k}_{v}": tot[f"{k}_{v}"] for k in KINDS for v in ("settled", "confirmed")},
        "confirmed_pct": round(100 * tot["confirmed"] / max(n, 1), 3),
        "frames_p50": pct(tot["frames"], 50), "frames_p99": pct(tot["frames"], 99),
        "latency_ms_p50": round(pct(tot["latency_ms"], 50), 1),
        "latency_ms_p99": round(pct(tot["latency_ms"], 99), 1),
        "cpu_ms_per_frame_p50": round(pct(tot["cpu_ms"], 50), 2),
        "cpu_ms_per_frame_p99": round(pct(tot["cpu_ms"], 99), 2),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "wrong_cases": tot["wrong_cases"], "unsure_cases": tot["unsure_cases"]})


if __name__ == "__main__":
    main()
