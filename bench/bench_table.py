"""How long a bot game takes at the table at ``--pace 0``, per game kind: the whole table
(engine, tracker, bots' brains and hands, narration) with bots in every seat, on the paper tray
(dials turned in memory: no firmware, no link — the host's own cost), and how many steps it took.

    .venv/bin/python bench/bench_table.py [--games N] [--turns T]

Prints a table and writes bench/results/table.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "table.json"
sys.path.insert(0, str(Path(__file__).parent))

from benchout import print_table, write_results  # noqa: E402
from dialtray.table import GAMES, on_paper  # noqa: E402


def one(kind: str, seed: int, turns: int) -> tuple[float, int, int]:
    t0 = time.process_time()
    table = on_paper(kind, ["bot", "bot"], seed=seed, turns=turns)
    pumps = 0
    while not table.over:
        table.pump()
        pumps += 1
    return time.process_time() - t0, len(table.game.history), len(table.narration)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--turns", type=int, default=3)
    a = ap.parse_args()
    rows, out = [], {}
    for kind in GAMES:
        runs = [one(kind, seed, a.turns) for seed in range(a.games)]
        cpu = [r[0] for r in runs]
        acts = statistics.mean(r[1] for r in runs)
        out[kind] = {"cpu_s_median": statistics.median(cpu), "cpu_s_max": max(cpu),
                     "actions_mean": acts, "games": a.games, "turns": a.turns}
        rows.append((f"{kind} bot game, pace 0", f"{statistics.median(cpu) * 1000:.0f} ms",
                     f"median CPU of {a.games} games ({a.turns} turns), max "
                     f"{max(cpu) * 1000:.0f} ms, {acts:.0f} actions"))
    print_table(rows, 28, 9)
    write_results(RESULTS, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
