"""Benchmark of the FASA Crimson Skies engine (issue 15).

- bot games per second (open plots and sealed plots), seeded d10s, logs written; CPU seconds
  beside wall-clock seconds (the machine is shared);
- replay time per log (``replay_log``: parse, every line re-checked, every d10 fed back);
- legal actions per position (plots: the whole sample template; combat: targets and hexes);
- exact d10 TN odds (``core.odds.tn_successes``) per call.

Prints a table and writes bench/results/fasa.json. Run: .venv/bin/python bench/bench_fasa.py
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.odds import tn_successes
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa.bots import bot_game
from dialtray.rules.fasa.game import FasaGame

RESULTS = Path(__file__).resolve().parent / "results" / "fasa.json"


def bench_games(sealed: bool, n: int) -> dict[str, float]:
    logs: list[str] = []
    actions = 0
    legal_ms: list[float] = []

    def observe(g: FasaGame) -> None:
        if len(legal_ms) < 2000:
            t = time.perf_counter()
            g._legal = (-1, ())
            g.legal_actions()
            legal_ms.append((time.perf_counter() - t) * 1000)

    w0, c0 = time.perf_counter(), time.process_time()
    for seed in range(n):
        g, log = bot_game(seed, sealed=sealed, observe=observe)
        logs.append(log)
        actions += len(g.history)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    replay_log(parse_log(logs[0]))  # warm-up: discovers every game kind
    times = []
    for log in logs:
        t = time.perf_counter()
        replay_log(parse_log(log))
        times.append((time.perf_counter() - t) * 1000)
    return {"games": n, "games_per_s": n / wall, "games_per_cpu_s": n / cpu,
            "actions_per_game": actions / n, "replay_median_ms": statistics.median(times),
            "replay_max_ms": max(times), "legal_median_ms": statistics.median(legal_ms or [0]),
            "legal_max_ms": max(legal_ms or [0])}


def bench_odds(rounds: int = 5000) -> dict[str, float]:
    times = []
    for i in range(rounds):
        t = time.perf_counter()
        tn_successes(1 + i % 12, i % 12)
        times.append((time.perf_counter() - t) * 1000)
    return {"odds_median_ms": statistics.median(times), "odds_max_ms": max(times)}


def main() -> int:
    res = {"open": bench_games(False, 200), "sealed": bench_games(True, 100),
           "odds": bench_odds()}
    print(f"{'what':<8} {'games/s':>8} {'/cpu s':>8} {'actions/game':>13} {'replay med ms':>14} "
          f"{'replay max ms':>14} {'legal med ms':>13}")
    for name in ("open", "sealed"):
        r = res[name]
        print(f"{name:<8} {r['games_per_s']:>8.1f} {r['games_per_cpu_s']:>8.1f} "
              f"{r['actions_per_game']:>13.1f} {r['replay_median_ms']:>14.2f} "
              f"{r['replay_max_ms']:>14.2f} {r['legal_median_ms']:>13.3f}")
    o = res["odds"]
    print(f"d10 TN odds: median {o['odds_median_ms']:.4f} ms, max {o['odds_max_ms']:.4f} ms")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    meta = {"python": sys.version.split()[0], "machine": platform.machine(),
            "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}
    RESULTS.write_text(json.dumps({"meta": meta, **res}, indent=2) + "\n")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
