"""The camera stage of bench_side_by_side.py (issue 35): the reader beside its bare OpenCV floor,
on one core, the same frames, in the same minute.

* ``full``: a frame that must find the tray again (every frame a new scene of 8 docks, train
  profile): ``TrayReader.register`` + every window's crop and read. Its floor: the same
  frame's markers found at half size (``cv2.aruco`` detect + ``cornerSubPix`` at full size),
  ``findHomography`` and one ``warpPerspective`` per window: what any reader must do before it
  looks at a dial.
* ``live``: a game's live loop (``bench_vision.game_frames``: one scene, each frame its own
  sensor noise, a dial turned one click twice a second) at a webcam's 30 frames a second:
  ``follow`` + ``read`` of every frame, the synthesis of an unsure window on the worker
  (``vision/synth_worker.py``, the same core). Its floor: the markers' corners refined where
  they were and every window remapped and compared with its last crop (``absdiff``).

Times are the frame thread's CPU (``time.thread_time``: the load of a shared machine does not
count, the worker's synthesis does not either) and, for the live loop, wall clock too (the
worker shares the core). The process is pinned to one core for the stage
(``os.sched_setaffinity``) with ``cv2.setNumThreads(1)``.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np

Frames = list[tuple[Any, dict[int, Any]]]


@contextlib.contextmanager
def one_core() -> Iterator[int]:
    """This thread (and the threads it starts) on one core, OpenCV single-threaded."""
    old_cpus = os.sched_getaffinity(0)
    old_threads = cv2.getNumThreads()
    cpu = min(old_cpus)
    os.sched_setaffinity(0, {cpu})
    cv2.setNumThreads(1)
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, old_cpus)
        cv2.setNumThreads(old_threads)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def _windows(reader: Any, docks: dict[int, Any]) -> list[tuple[tuple[float, float], Any, str]]:
    out = []
    for dock, spec in sorted(docks.items()):
        bt = reader.layout.base_type(reader.refs[spec.figure].base_type)
        for d in reader.classifiers(spec.figure):
            out.append((reader.layout.docks[dock], bt.windows[d], bt.name))
    return out


def _crop_matrix(hom: Any, centre: tuple[float, float], window: Any) -> Any:
    """Crop px -> image px for a window of a base at ``centre`` (tray mm)."""
    from dialtray.vision.register import BORDER_MM, MARGIN_MM, SPP

    off = BORDER_MM + MARGIN_MM
    a = np.array([[1 / SPP, 0, 0.5 / SPP - off - window.size[0] / 2 + centre[0] + window.centre[0]],
                  [0, 1 / SPP, 0.5 / SPP - off - window.size[1] / 2 + centre[1] + window.centre[1]],
                  [0, 0, 1]])
    return hom @ a


def bare_full(reader: Any, frames: Frames) -> list[float]:
    """ms (CPU) per frame of the floor: markers at half size, refined, homography, remaps."""
    from dialtray.vision.register import CropGeometry

    det = reader.finder.detector
    layout = reader.layout
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    out = []
    for shot, docks in frames:
        wins = _windows(reader, docks)
        img = shot.image
        c0 = time.thread_time()
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        corners, ids, _ = det.detectMarkers(small)
        src, dst = [], []
        for c, i in zip(corners, ids.ravel(), strict=True):
            if int(i) in layout.marker_corners:
                pts = (c.reshape(4, 2) * 2 + 0.5).astype(np.float32)
                cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit)
                src += layout.marker_points(int(i))
                dst.append(pts)
        hom, _ = cv2.findHomography(np.array(src, np.float64),
                                    np.concatenate(dst).astype(np.float64), 0)
        for centre, window, _ in wins:
            cv2.warpPerspective(img, _crop_matrix(hom, centre, window),
                                CropGeometry.of(window).read,
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
        out.append((time.thread_time() - c0) * 1e3)
    return out


def real_full(reader: Any, frames: Frames) -> list[float]:
    out = []
    for shot, docks in frames:
        cast = {d: s.figure for d, s in docks.items()}
        c0 = time.thread_time()
        reader.read(shot.image, cast, reader.register(shot.image))
        out.append((time.thread_time() - c0) * 1e3)
    return out


def paced(frames: Frames, step: Any, fps: float = 30.0) -> tuple[list[float], list[float]]:
    """Each frame handed to ``step`` at a webcam's rate (the next waits for its time, as a
    camera's read does): ms CPU and wall of each step."""
    cpu, wall = [], []
    t0 = time.perf_counter()
    for i, (shot, docks) in enumerate(frames):
        c0, w0 = time.thread_time(), time.perf_counter()
        step(shot, docks)
        cpu.append((time.thread_time() - c0) * 1e3)
        wall.append((time.perf_counter() - w0) * 1e3)
        time.sleep(max(0.0, t0 + (i + 1) / fps - time.perf_counter()))
    return cpu, wall


def real_live(reader: Any, frames: Frames) -> tuple[list[float], list[float], int]:
    """The live loop (``follow`` + ``read``), paced; also how many reads the worker finished."""
    def step(shot: Any, docks: dict[int, Any]) -> None:
        reader.read(shot, {d: s.figure for d, s in docks.items()}, reader.follow(shot))

    worker = getattr(reader, "worker", None)  # None: a reader that synthesises inline
    before = worker.done_count if worker is not None else 0
    cpu, wall = paced(frames, step)
    if worker is None:
        return cpu, wall, 0
    worker.drain()
    return cpu, wall, worker.done_count - before


def bare_live(reader: Any, frames: Frames) -> tuple[list[float], list[float]]:
    """The live floor, paced: each marker's corners refined where they were (4 small
    ``cornerSubPix``), every window remapped with the kept homography and compared with its
    crop of the frame before (``absdiff`` + sum)."""
    from dialtray.vision.register import CropGeometry

    reg = reader.register(frames[0][0])
    wins = [(_crop_matrix(reg.homography, c, w), CropGeometry.of(w).read)
            for c, w, _ in _windows(reader, frames[0][1])]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    last: list[Any] = [None] * len(wins)

    def step(img: Any, _: Any) -> None:
        for pts in reg.corners.values():
            lo, hi = pts.min(axis=0).astype(int) - 12, pts.max(axis=0).astype(int) + 12
            roi = cv2.cvtColor(img[lo[1]:hi[1], lo[0]:hi[0]], cv2.COLOR_BGR2GRAY)
            cv2.cornerSubPix(roi, (pts - lo).astype(np.float32), (5, 5), (-1, -1), crit)
        for i, (m, size) in enumerate(wins):
            crop = cv2.warpPerspective(img, m, size, flags=cv2.INTER_LINEAR |
                                       cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
            if last[i] is not None:
                cv2.sumElems(cv2.absdiff(crop, last[i]))
            last[i] = crop

    return paced(frames, step)


def scene(frames: int, game: int) -> tuple[Any, dict[str, Any], list[Any], list[Any]]:
    """What the camera benches read: (layout, every sample figure's references, ``frames``
    cold tray photographs at the training profile, a played game's ``game`` frames)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from bench_vision import game_frames
    from dialtray.vision import render_profiles as rp
    from dialtray.vision import testset
    from dialtray.vision.faces import game_of
    from dialtray.vision.layout import load_layout

    layout = load_layout()
    figures = testset.all_sample_figures()
    refs: dict[str, Any] = {}
    for game_name in ("airaction", "aces"):
        ids = [f for f, doc in figures.items() if game_of(doc) == game_name]
        refs.update(testset.sample_refs(ids, game_name))
    cold = list(testset.tray_sets(layout, figures, rp.train, frames, seed=5))
    played = [(shot, docks) for shot, docks in game_frames(layout, figures, game, seed=61)]
    return layout, refs, cold, played


def camera_stage(frames: int, game: int, repeat: int) -> dict[str, Any]:
    """The stage: figures and ratio (bare p50 / real p50 of the full frame)."""
    from dialtray.vision.reader import TrayReader

    layout, refs, cold, played = scene(frames, game)
    cast = {s.figure for _, docks in cold + played for s in docks.values()}
    with one_core() as cpu:
        reader = TrayReader(layout, refs, reuse=False)
        for fid in cast:  # built before timing (once per figure, not per frame)
            reader.classifiers(fid)
        full = min((real_full(reader, cold) for _ in range(repeat)), key=statistics.median)
        floor = min((bare_full(reader, cold) for _ in range(repeat)), key=statistics.median)
        runs = []
        for _ in range(repeat):
            live_reader = TrayReader(layout, refs)
            live_reader._classifiers = reader._classifiers  # the same classifiers, built
            runs.append(real_live(live_reader, [(s, d) for s, d in played]))
        live_cpu, live_wall, synthesised = min(runs, key=lambda r: pct(r[0], 0.95))
        bl_cpu, _ = min((bare_live(reader, played) for _ in range(repeat)),
                        key=lambda r: pct(r[0], 0.95))
    f50, f95, b50 = statistics.median(full), pct(full, 0.95), statistics.median(floor)
    l50, l95 = statistics.median(live_cpu), pct(live_cpu, 0.95)
    return {"cpu": cpu, "frames": frames, "game_frames": game, "repeat": repeat,
            "full_ms_p50": round(f50, 2), "full_ms_p95": round(f95, 2),
            "bare_full_ms_p50": round(b50, 2), "bare_full_ms_p95": round(pct(floor, 0.95), 2),
            "live_ms_p50": round(l50, 2), "live_ms_p95": round(l95, 2),
            "live_wall_ms_p50": round(statistics.median(live_wall), 2),
            "live_wall_ms_p95": round(pct(live_wall, 0.95), 2),
            "live_worker_reads": synthesised,
            "bare_live_ms_p50": round(statistics.median(bl_cpu), 2),
            "bare_live_ms_p95": round(pct(bl_cpu, 0.95), 2),
            "goal": "full <= 5 ms p50, live <= 5 ms p95 (one core)",
            "ratio": round(b50 / f50, 3),
            "note": f"full {f50:.1f}/{f95:.1f} ms (p50/p95) vs floor {b50:.1f}; live "
                    f"{l50:.1f}/{l95:.1f} (wall p95 {pct(live_wall, 0.95):.1f}) vs floor "
                    f"{statistics.median(bl_cpu):.2f}/{pct(bl_cpu, 0.95):.2f}; CPU ms, core "
                    f"{cpu}"}
