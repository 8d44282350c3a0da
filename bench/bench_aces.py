"""Benchmark of the Aces rules engine (issue 4).

- legal destinations: ``AcesGame.compute_reach`` for every one of 12 figures spread over the 24x30
  sample hangar map (target: <= 2 ms per call);
- line-of-fire checks per second between random square pairs, cold (fresh map, nothing cached)
  and warm (the per-map trace cache filled).

Prints a table and writes bench/results/aces.json. Run: .venv/bin/python bench/bench_aces.py
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.lof import line_of_fire
from dialtray.rules.aces.maps import Terrain, load_map
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.core.dice import SeededDice

TARGET_MS = 2.0
RESULTS = Path(__file__).resolve().parent / "results" / "aces.json"


def bench_destinations(rounds: int = 200) -> dict[str, float]:
    """``compute_reach`` per figure (the legal destination set, AC-M21..M27) and the whole menu."""
    g = start_scenario(load_scenario("hangar-brawl"), SeededDice(1))
    rng = random.Random(7)
    m = g.map
    free = [i for i in range(m.size) if m.terrain[i] is not Terrain.BLOCKING]
    chars = list(g.state.chars.values())
    assert len(chars) == 12 and (m.width, m.height) == (24, 30)
    # spread the figures over the map (a mid-game position), away from each other's squares
    squares = rng.sample(free, len(chars))
    for c, sq in zip(chars, squares, strict=True):
        c.square = sq
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(rounds):
        for c in chars:
            t0 = time.perf_counter()
            r = g.compute_reach(c)  # the full computation, not the per-state memo
            times.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(r.destinations))
    # the whole menu of the active player (every move of every character, every attack)
    menu: list[float] = []
    n_actions = 0
    for _ in range(rounds // 4):
        g.forget_memo()  # measure the full work, every destination set computed again
        t0 = time.perf_counter()
        n_actions = len(g.legal_actions())
        menu.append((time.perf_counter() - t0) * 1000)
    return {
        "legal_actions_median_ms": statistics.median(menu),
        "legal_actions_count": n_actions,
        "calls": len(times),
        "median_ms": statistics.median(times),
        "p95_ms": sorted(times)[int(0.95 * len(times))],
        "max_ms": max(times),
        "mean_destinations": statistics.mean(sizes),
    }


def bench_lof(pairs: int = 20_000) -> dict[str, float]:
    """The same random pairs twice on one freshly loaded map: first with nothing cached, then
    with every pair's trace cached (the figures' squares are re-checked each time)."""
    rng = random.Random(11)
    m = load_map("hangar_24x30")
    free = [i for i in range(m.size) if m.terrain[i] is not Terrain.BLOCKING]
    occupied = set(rng.sample(free, 12))
    sample: list[tuple[Square, Square]] = []
    while len(sample) < pairs:
        a, b = rng.choice(free), rng.choice(free)
        if a != b:
            sample.append((m.square(a), m.square(b)))
    out: dict[str, float] = {}
    for label in ("cold", "warm"):
        t0 = time.perf_counter()
        for a_sq, b_sq in sample:
            line_of_fire(m, a_sq, b_sq, occupied)
        out[f"{label}_checks_per_second"] = len(sample) / (time.perf_counter() - t0)
    return out


def main() -> int:
    dest = bench_destinations()
    lof = bench_lof()
    ok = dest["median_ms"] <= TARGET_MS
    rows = [
        ("legal destinations, 24x30, 12 figures: median", f"{dest['median_ms']:.3f} ms"),
        ("  p95 / max", f"{dest['p95_ms']:.3f} / {dest['max_ms']:.3f} ms"),
        ("  target", f"<= {TARGET_MS} ms median: {'PASS' if ok else 'FAIL'}"),
        ("  mean destination squares", f"{dest['mean_destinations']:.1f}"),
        ("legal_actions() of the aggressor (6-7 figures)",
         f"{dest['legal_actions_median_ms']:.2f} ms ({dest['legal_actions_count']:.0f} actions)"),
        ("line-of-fire checks/s (cold cache)", f"{lof['cold_checks_per_second']:,.0f}"),
        ("line-of-fire checks/s (warm cache)", f"{lof['warm_checks_per_second']:,.0f}"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'Aces benchmark':<{width}}  result")
    print("-" * (width + 24))
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "benchmark": "aces",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "legal_destinations": {**dest, "target_ms": TARGET_MS, "pass": ok},
        "line_of_fire": lof,
    }, indent=2) + "\n")
    print(f"\nwrote {RESULTS}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
