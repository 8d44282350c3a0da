"""Air Action benchmarks: exact odds for 12 dice, replay of a 1 000-event game, bot games/s.

Run: .venv/bin/python bench/bench_airaction.py   (prints a table, writes
bench/results/airaction.json). Targets from issue 3: odds <= 1 ms, replay <= 50 ms.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, play_game
from dialtray.rules.airaction.notation import write_log
from dialtray.rules.airaction.odds import shot_odds
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log

OUT = Path(__file__).resolve().parent / "results" / "airaction.json"


def best_of(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def long_game_log(min_events: int = 1000) -> tuple[str, int]:
    for seed in range(1000):
        g, _ = play_game(STANDARD_SQUADRONS, seed=seed, max_turns=40)
        n = g.event_count()
        if n >= min_events:
            return write_log(g, reports=False), n
    raise RuntimeError("no bot game reached 1000 events")


def main() -> int:
    rows: list[tuple[str, float, float, str, float | None]] = []
    best, med = best_of(lambda: shot_odds(12, 4, defensive_fate=True, clicks_to_shot_down=5), 200)
    rows.append(("odds: 12 dice exact (hits+clicks+fate)", best * 1e3, med * 1e3, "ms", 1.0))

    text, events = long_game_log()
    log = parse_log(text, "bench.log")

    def replay() -> None:
        replay_log(parse_log(text, "bench.log"))

    best, med = best_of(replay, 20)
    rows.append(
        (
            f"replay: {events}-event game ({len(log.body)} actions)",
            best * 1e3,
            med * 1e3,
            "ms",
            50.0,
        )
    )

    n = 100
    t0 = time.perf_counter()
    for seed in range(n):
        play_game(STANDARD_SQUADRONS, seed=seed)
    rate = n / (time.perf_counter() - t0)
    rows.append(("bot-vs-bot games (3 v 3, digital table)", rate, rate, "games/s", None))

    print(f"{'benchmark':<48} {'best':>10} {'median':>10} {'unit':<8} {'target':>8}")
    for name, b, m, unit, target in rows:
        tgt = f"<= {target:g}" if target is not None else "-"
        ok = "" if target is None else ("  ok" if b <= target else "  SLOW")
        print(f"{name:<48} {b:>10.3f} {m:>10.3f} {unit:<8} {tgt:>8}{ok}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            {
                "python": sys.version.split()[0],
                "machine": platform.machine(),
                "results": [
                    {"name": r[0], "best": r[1], "median": r[2], "unit": r[3], "target": r[4]}
                    for r in rows
                ],
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
