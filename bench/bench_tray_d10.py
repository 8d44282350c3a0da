"""Benchmark of the tray as dice tower (issue 15): what a firmware d10 costs on the virtual tray.

- one d10 for a FASA check: ``TrayDice(session).roll(1, sides=10)`` latency (ROLL_SIDED command
  → the DICE event back), p50 / p99 over 300 checks;
- a batch: ``TraySession.roll_sided(12, 10, rolls=5000)``, the 60 000 d10 of the fairness test,
  in one command (the firmware rolls 8 a link tick while half its ring awaits the host's ACK);
- a committed session's d10 (``FairDice`` FAIR_ROLL, one command per roll).

The virtual tray is MicroPython's unix port on this machine sharing its cores with the host:
read the figures as the link's cost, not a Pico's. Prints a table and writes
bench/results/tray_d10.json. Run: .venv/bin/python bench/bench_tray_d10.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from benchout import report_figures
from dialrig import config
from dialtray.link.fairdice import FairDice
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import TrayDice
from dialtray.virtual.tray import VirtualTray

RESULTS = Path(__file__).resolve().parent / "results" / "tray_d10.json"


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[int(q * (len(values) - 1))]


def main(checks: int = 300) -> None:
    results: dict[str, float] = {}
    with VirtualTray(config.default_config(1)) as tray, TraySession(tray.port) as session:
        session.wait_synced(30)
        dice = TrayDice(session)
        lat: list[float] = []
        for i in range(checks):
            t0 = time.perf_counter()
            dice.roll(1, f"check {i}", sides=10)
            lat.append((time.perf_counter() - t0) * 1000)
        results["d10_check_p50_ms"] = statistics.median(lat)
        results["d10_check_p99_ms"] = percentile(lat, 0.99)
        t0 = time.perf_counter()
        rolls = session.roll_sided(12, 10, rolls=5000, timeout=30)
        took = time.perf_counter() - t0
        assert sum(len(r) for r in rolls) == 60_000
        results["batch_60000_d10_s"] = took
        results["batch_d10_per_s"] = 60_000 / took
        fair = FairDice(session, timeout=10)
        fair.begin()
        lat = []
        for i in range(checks):
            t0 = time.perf_counter()
            fair.roll(1, f"fair check {i}", sides=10)
            lat.append((time.perf_counter() - t0) * 1000)
        verdict = fair.reveal()
        assert verdict.ok, str(verdict)
        results["fair_d10_check_p50_ms"] = statistics.median(lat)
        results["fair_d10_check_p99_ms"] = percentile(lat, 0.99)
    report_figures(RESULTS, results)


if __name__ == "__main__":
    main()
