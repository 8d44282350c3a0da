"""Benchmark of the Sky Ace engine (issue 16).

- bot games per second (duels and The Mugging), dealt with seeded dice, logs written;
- replay time per log (``replay_log``: parse, re-deal from the faces, every action re-checked);
- exact attack odds (``rules.skyace.odds.attack_odds``) per call, full 54-card decks.

Prints a table and writes bench/results/skyace.json. Run: .venv/bin/python bench/bench_skyace.py
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path

from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace.bots import bot_game
from dialtray.rules.skyace.odds import AttackSpec, attack_odds

RESULTS = Path(__file__).resolve().parent / "results" / "skyace.json"


def bench_games(mission: bool, n: int) -> dict[str, float]:
    logs: list[str] = []
    actions = 0
    t0 = time.perf_counter()
    for seed in range(n):
        g, log = bot_game(seed, mission=mission)
        logs.append(log)
        actions += len(g.history)
    play = time.perf_counter() - t0
    replay_log(parse_log(logs[0]))  # warm-up: the first replay discovers every game kind
    times = []
    for log in logs:
        t = time.perf_counter()
        replay_log(parse_log(log))
        times.append((time.perf_counter() - t) * 1000)
    return {"games": n, "games_per_s": n / play, "actions_per_game": actions / n,
            "replay_median_ms": statistics.median(times), "replay_max_ms": max(times)}


def bench_odds(rounds: int = 2000) -> dict[str, float]:
    specs = [AttackSpec(a, d, 5, 5, "4H", "KS", 1, 1, True, True)
             for a in "EORA" for d in "EORA"]
    times = []
    for i in range(rounds):
        t = time.perf_counter()
        attack_odds(specs[i % len(specs)])
        times.append((time.perf_counter() - t) * 1000)
    return {"odds_median_ms": statistics.median(times), "odds_max_ms": max(times)}


def main() -> int:
    res = {"duel": bench_games(False, 300), "mission": bench_games(True, 100),
           "odds": bench_odds()}
    print(f"{'what':<10} {'games/s':>9} {'actions/game':>13} {'replay med ms':>14} "
          f"{'replay max ms':>14}")
    for k in ("duel", "mission"):
        r = res[k]
        print(f"{k:<10} {r['games_per_s']:>9.1f} {r['actions_per_game']:>13.1f} "
              f"{r['replay_median_ms']:>14.2f} {r['replay_max_ms']:>14.2f}")
    o = res["odds"]
    print(f"odds (exact, 54-card decks): median {o['odds_median_ms']:.3f} ms, "
          f"max {o['odds_max_ms']:.3f} ms")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"python": sys.version.split()[0],
                                   "machine": platform.machine(), **res}, indent=2) + "\n")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
