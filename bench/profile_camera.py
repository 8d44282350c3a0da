"""Where a camera frame's time goes (issue 35): the camera stage of bench_side_by_side.py with
each step of the reader timed, on one core.

Runs the stage's two loops (``side_camera.real_full``: a frame that must find the tray again,
every window read; ``side_camera.real_live``: a game's live loop at 30 frames a second) with
the reader's steps wrapped in CPU timers (``time.thread_time_ns``), and prints per step its ms
per frame, ms per call and calls per frame, beside the frame's own median and the bare OpenCV
floor of the same run. Nested steps count in their callers too (``classifier.read`` holds
``align``, ``read_colours``...): the table says what a step costs, not a partition of the
frame. ``opencv:`` rows are the library's own calls (what no Python rewrite removes).

    python bench/profile_camera.py [--frames 20] [--game 150]

Writes bench/results/profile_camera.json.
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchout import ROOT, print_table, write_results

RESULTS = ROOT / "bench" / "results" / "profile_camera.json"
Spent = collections.Counter[str]


def _timed(owner: Any, name: str, label: str, spent: Spent, calls: Spent) -> None:
    """Replace ``owner.name`` by the same callable timed under ``label``."""
    inner: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(inner)
    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.thread_time_ns()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[label] += time.thread_time_ns() - t0
            calls[label] += 1

    setattr(owner, name, timed)


def instrument(spent: Spent, calls: Spent) -> None:
    """Time the reader's steps and the OpenCV calls they make."""
    import cv2
    from dialtray.vision import (
        align,
        classify,
        colours,
        decision,
        mosaic,
        reader,
        register,
        scoring,
        seen_colours,
        still,
        synth_check,
    )

    for fn in ("findTransformECC", "matchTemplate", "GaussianBlur", "remap", "warpAffine",
               "cvtColor"):
        _timed(cv2, fn, f"opencv: {fn}", spent, calls)
    _timed(cv2.aruco.ArucoDetector, "detectMarkers", "opencv: detectMarkers", spent, calls)
    steps: list[tuple[Any, str, str]] = [
        (reader, "register", "register (find the markers, fit)"),
        (reader, "follow", "follow (markers where they were)"),
        (still.StillWindows, "compare", "still.compare (which windows changed)"),
        (still.StillWindows, "keep", "still.keep"),
        (mosaic.Mosaic, "__init__", "mosaic: map of every window"),
        (mosaic.Mosaic, "crops", "mosaic: crops (remap, grey, log)"),
        (classify.DialClassifier, "read", "classifier.read (one window)"),
        (classify, "highpass", "  highpass"),
        (classify, "align", "  align (search + ECC)"),
        (synth_check, "read_colours", "  read_colours (a synthesis' second look)"),
        (seen_colours, "read_colours", "  read_colours (when a decision asks)"),
        (decision.CorrelationDecision, "_classify", "  classify (scores + decision)"),
        (scoring.RegionScorer, "scores", "    scores (regions x templates)"),
        (decision.CorrelationDecision, "_margin_over", "    margin over rivals"),
        (colours, "_sampled", "    colours: white balance + sample"),
        (register, "follow", "register.follow"),
    ]
    for owner, name, label in steps:
        _timed(owner, name, label, spent, calls)
    del align  # imported so that its module is loaded before classify binds its names


def run(frames: int, game: int) -> dict[str, Any]:
    import side_camera as sc
    from dialtray.vision.reader import TrayReader

    layout, refs, cold, played = sc.scene(frames, game)
    spent: Spent = collections.Counter()
    calls: Spent = collections.Counter()
    out: dict[str, Any] = {"load_average": os.getloadavg()[0]}
    with sc.one_core() as cpu:
        reader = TrayReader(layout, refs, reuse=False)
        for fid in {s.figure for _, d in cold + played for s in d.values()}:
            reader.classifiers(fid)
        sc.real_full(reader, cold[:3])  # warm: grids, caches, the first call of each kind
        floor = statistics.median(sc.bare_full(reader, cold))
        instrument(spent, calls)
        full = sc.real_full(reader, cold)
        out["full"] = _table(spent, calls, len(cold), full, floor)
        spent.clear()
        calls.clear()
        live_reader = TrayReader(layout, refs)
        live_reader._classifiers = reader._classifiers
        live_cpu, _, _ = sc.real_live(live_reader, played)
        live_floor = sc.pct(sc.bare_live(reader, played)[0], 0.95)
        out["live"] = _table(spent, calls, len(played), live_cpu, live_floor)
    out["cpu"] = cpu
    return out


def _table(spent: Spent, calls: Spent, frames: int, times: list[float], floor: float
           ) -> dict[str, Any]:
    import side_camera as sc

    return {"frame_ms_p50": round(statistics.median(times), 3),
            "frame_ms_p95": round(sc.pct(times, 0.95), 3), "floor_ms": round(floor, 3),
            "steps": {k: {"ms_per_frame": round(v / 1e6 / frames, 3),
                          "ms_per_call": round(v / 1e6 / calls[k], 3),
                          "calls_per_frame": round(calls[k] / frames, 2)}
                      for k, v in sorted(spent.items(), key=lambda kv: -kv[1])}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=20, help="new scenes for the full frame")
    ap.add_argument("--game", type=int, default=150, help="frames of a game (30 a second)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    args = ap.parse_args()
    res = run(args.frames, args.game)
    print(f"core {res['cpu']}, load average {res['load_average']:.1f}; CPU ms")
    for part, title in (("full", "full frame"), ("live", "live loop")):
        t = res[part]
        floor = "floor p50" if part == "full" else "floor p95"
        rows = [(f"{title}: frame", f"{t['frame_ms_p50']:.2f}",
                 f"p50 (p95 {t['frame_ms_p95']:.2f}); {floor} {t['floor_ms']:.2f}")]
        rows += [(k, f"{s['ms_per_frame']:.3f}",
                  f"{s['ms_per_call']:.3f} ms a call, {s['calls_per_frame']:.1f} a frame")
                 for k, s in t["steps"].items()]
        print_table(rows, 42, 8)
        print()
    write_results(args.out, res)


if __name__ == "__main__":
    main()
