"""The camera in the live loop at a table: bot games on the virtual tray (the real firmware,
its encoders, the link, the tracker) filmed by the virtual camera at the held-back profile,
every settled click burst-read and fused with the encoder (``table.camera_game``).

    .venv/bin/python bench/bench_camera_live.py [--games airaction,aces] [--seeds 9990,9991]
        [--turns 6] [--freeze-after-turn 0.3 [--no-defer]]

``--freeze-after-turn S``: the firmware is stopped (SIGSTOP) for S seconds at a random 0-15 ms
after each of the bots' turns, as a loaded machine takes MicroPython off the CPU mid-turn (the
simulated dial waits for it there: the camera films it resting part-way); ``--no-defer``: the
witness calls a disagreeing or mid-turn read at once (``supersede_s`` 0: the anchor, the
witness before ``SUPERSEDE_S``).

Prints, over every settled click of every game: frames used per click (p50/p99), settle ->
answer and settle -> confirmed latency (the encoder's settle event queued -> the camera's
answer, wall clock, p50/p99), the reader's CPU per frame (``thread_time`` of the camera thread:
registration, watching every window, bursts; not the virtual camera's rendering, which a real
webcam does in hardware), confirmed / wrong / not confirmed (disagreements among them), the
settles a newer click of the same dial overtook before the camera answered (superseded: no
answer) and the disagreeing reads of a window that had just changed, read again (deferred), and
how many of the settled clicks were an Ace card's or a holder's (Air Action flies with its Ace
cards; Aces' ninth figure shares dock 0, in its holder: the order puts Genghis there, whose
dial turns). Writes bench/results/camera_live.json. The frame rate is what the machine gives at
up to 30 fps: on a loaded machine latency grows with it (frames are waited for), the frames per
click do not.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from benchout import print_table, write_results
from dialtray.table.camera_game import camera_game
from dialtray.vision.layout import HOLDER
from dialtray.vision.witness import CONFIRM, DISAGREE

ORDER = {"airaction": None,  # Aces' cast in dock order: the ninth shares dock 0 (its holder)
         "aces": ["charlie", "trusty-sidekick", "louis", "ruffian", "sergeant",
                  "show-stopper", "soldier", "tail-gunner", "genghis"]}
ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "camera_live.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="airaction,aces")
    ap.add_argument("--seeds", default="9990,9991", help="held-back scenes, comma-separated")
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--freeze-after-turn", type=float, default=0.0, metavar="S",
                    help="stop the firmware S seconds at a random 0-15 ms after each turn")
    ap.add_argument("--no-defer", action="store_true",
                    help="the anchor: no deferred reads (supersede_s 0)")
    ap.add_argument("--without-photographs", action="store_true",
                    help="the anchor: the witness keeps no photographs of the scene (an unsure "
                         "burst stays unsure, as before scene_looks.py)")
    args = ap.parse_args()
    if args.without_photographs:
        from dialtray.vision.scene_looks import Album

        Album.photos = lambda self, key: {}  # type: ignore[method-assign]
    if args.freeze_after_turn > 0:
        freeze_after_turns(args.freeze_after_turn)
    if args.no_defer:
        from dialtray.vision.witness import CameraWitness

        post = CameraWitness.__post_init__

        def no_defer(self: CameraWitness) -> None:  # (a field's default is the __init__'s)
            post(self)
            self.supersede_s = 0.0

        CameraWitness.__post_init__ = no_defer  # type: ignore[method-assign]
    games = args.games.split(",")
    if not set(games) <= {"airaction", "aces"}:
        ap.error("--games: airaction and/or aces")
    try:  # "9943,9944" or a range "9943-9952"
        seeds = [n for part in args.seeds.split(",") for n in (
            range(int(part.split("-")[0]), int(part.split("-")[1]) + 1) if "-" in part
            else [int(part)])]
    except ValueError:
        ap.error("--seeds takes whole numbers separated by commas (or a range A-B)")
    frames: list[int] = []
    latency: list[float] = []
    confirmed_ms: list[float] = []  # settle -> confirmed, the confirmed clicks only
    cpu: list[float] = []
    counts = {"settled": 0, "confirmed": 0, "wrong": 0, "unsure": 0, "odd_settled": 0,
              "odd_confirmed": 0, "by_photos": 0, "by_prediction": 0, "disagree": 0,
              "superseded": 0, "deferred": 0}
    by_photos: list[str] = []  # confirmed by this scene's photographs (scene_looks.py)
    seconds = 0.0
    cases: list[str] = []  # the settled clicks not confirmed, what the camera said
    for game in games:
        for seed in seeds:
            g = camera_game(game, seed, args.turns, figures=ORDER[game])
            w = g.witness
            seconds += g.seconds
            cpu.append(1000 * w.cpu_s / max(w.frames, 1))
            counts["superseded"] += w.superseded
            counts["deferred"] += w.deferred
            for r in w.results:
                if r.encoder is None:
                    continue
                counts["settled"] += 1
                frames.append(r.frames)
                latency.append(1000 * (r.at - r.asked))
                odd = r.dial == "ace" or r.dock >= HOLDER  # an Ace card, a holder's figure
                counts["odd_settled"] += odd
                if r.state == CONFIRM:
                    ok = not r.camera or r.encoder in r.camera
                    counts["confirmed" if ok else "wrong"] += 1
                    counts["odd_confirmed"] += odd and ok
                    confirmed_ms.append(1000 * (r.at - r.asked))
                    if "photograph" in r.reason:
                        counts["by_photos"] += 1
                        counts["by_prediction"] += "predicted" in r.reason
                        by_photos.append(f"{game} seed {seed}: {r.line()} ({r.reason})")
                else:
                    counts["unsure"] += 1
                    counts["disagree"] += r.state == DISAGREE
                    cases.append(f"{game} seed {seed}: {r.line()} (encoder {r.encoder}, "
                                 f"{r.frames} frames, {r.bursts} bursts)")
            print(f"{game} seed {seed}: {len(w.results)} answers, {w.frames} frames, "
                  f"{g.seconds:.0f} s", flush=True)

    def pct(v: list[Any], q: float) -> float:
        return float(np.percentile(v, q)) if v else float("nan")

    n = counts["settled"]
    rows = [
        ("settled clicks", str(n), f"{len(games)} game(s) x {len(seeds)} seed(s), "
         f"{args.turns} turns, held-back scenes"),
        ("confirmed", f"{100 * counts['confirmed'] / max(n, 1):.2f} %",
         f"{counts['confirmed']} confirmed, {counts['wrong']} wrong, {counts['unsure']} not "
         f"confirmed ({counts['disagree']} of them disagreements)"),
        ("superseded / deferred", f"{counts['superseded']} / {counts['deferred']}",
         "settles a newer click of the dial overtook unanswered / disagreeing reads of a window "
         "just changed, read again (witness_state.SUPERSEDE_S)"),
        ("  by photographs", str(counts["by_photos"]), "of them: unsure by the synthesis, every "
         "close rival excluded by this scene's photograph of it (scene_looks.py)"),
        ("  by prediction", str(counts["by_prediction"]), "of those: a close rival never "
         "photographed here excluded by its photograph predicted from another's (unseen_looks.py)"),
        ("  Ace card / holder", f"{counts['odd_confirmed']} / {counts['odd_settled']}",
         "of them on an Ace card's or a holder's dial: confirmed / settled"),
        ("frames / click p50/p99", f"{pct(frames, 50):.0f} / {pct(frames, 99):.0f}",
         "frames a settled click's read used (bursts and re-reads)"),
        ("settle->answer p50/p99", f"{pct(latency, 50):.0f} / {pct(latency, 99):.0f} ms",
         "wall clock from the encoder's settle, at the frame rate this machine gave"),
        ("settle->confirmed p50/p99",
         f"{pct(confirmed_ms, 50):.0f} / {pct(confirmed_ms, 99):.0f} ms",
         "the same, the confirmed clicks only"),
        ("reader CPU / frame", f"{pct(cpu, 50):.1f} ms", "camera thread, per game, median "
         f"(max {max(cpu, default=float('nan')):.1f})"),
    ]
    print_table(rows, 26, 14)
    for c in cases:
        print("  not confirmed:", c)
    for c in by_photos:
        print("  by photographs:", c)
    write_results(RESULTS, {"without_photographs": args.without_photographs, "games": games,
                            "freeze_after_turn": args.freeze_after_turn,
                            "no_defer": args.no_defer,
                            "seeds": seeds, "turns": args.turns, **counts,
                            "frames_p50": pct(frames, 50), "frames_p99": pct(frames, 99),
                            "latency_ms_p50": round(pct(latency, 50), 1),
                            "latency_ms_p99": round(pct(latency, 99), 1),
                            "confirmed_ms_p50": round(pct(confirmed_ms, 50), 1),
                            "confirmed_ms_p99": round(pct(confirmed_ms, 99), 1),
                            "load_average": [round(x, 1) for x in os.getloadavg()],
                            "reader_cpu_ms_per_frame": [round(c, 2) for c in cpu],
                            "seconds": round(seconds, 1), "not_confirmed": cases,
                            "by_photographs": by_photos})


def freeze_after_turns(seconds: float) -> None:
    """Every ``VirtualTray.turn`` stops the firmware ``seconds`` at a random 0-15 ms after."""
    from dialtray.virtual.tray import VirtualTray

    rng = random.Random(2)
    turn = VirtualTray.turn

    def freeze(pid: int, after: float) -> None:
        time.sleep(after)
        try:
            os.kill(pid, signal.SIGSTOP)
            time.sleep(seconds)
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass  # (the firmware restarted or the game ended meanwhile)

    def frozen_turn(self: VirtualTray, *a: Any, **k: Any) -> Any:
        out = turn(self, *a, **k)
        if self.pid is not None:
            threading.Thread(target=freeze, args=(self.pid, rng.uniform(0, 0.015)),
                             daemon=True).start()
        return out

    VirtualTray.turn = frozen_turn  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
