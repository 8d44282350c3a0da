"""Benchmark of verifiably fair dice (issue 11): what a committed roll costs.

- firmware: ``dialrig.fairdice.derive_into`` in the MicroPython unix port on this machine (the
  RP2040 at 125 MHz is far slower: read these as relative figures), per 2d6 and per 12d6;
- host: ``fairproof.verify`` of a 1000-roll session of 12d6 (what reveal() costs at game end);
- end to end on the virtual tray: ``FairDice.roll(2)`` latency (command → faces recorded with
  their counter), begin() and reveal() + verify.

Prints a table and writes bench/results/fairdice.json. Run: .venv/bin/python bench/bench_fairdice.py
"""

from __future__ import annotations

import hashlib
import statistics
import subprocess
import time
from pathlib import Path

from benchout import report_figures
from dialrig import config
from dialtray.link.fairdice import FairDice
from dialtray.link.fairproof import FairRoll, derive_faces, verify
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray, firmware_dir, micropython_binary

RESULTS = Path(__file__).resolve().parent / "results" / "fairdice.json"

MPY_SCRIPT = """
import time
from dialrig import fairdice
ipad, opad = fairdice.pads(bytes(range(32)))
msg = bytearray(8)
faces = bytearray(12)
for n in (2, 12):
    t0 = time.ticks_us()
    for c in range(2000):
        fairdice.derive_into(faces, n, 6, ipad, opad, c, msg)
    print(n, time.ticks_diff(time.ticks_us(), t0) / 2000)
"""


def bench_firmware() -> dict[str, float]:
    out = subprocess.run([micropython_binary(), "-c", MPY_SCRIPT], capture_output=True,
                         text=True, check=True,
                         env={"MICROPYPATH": f"{firmware_dir()}:.frozen"}).stdout
    us = {int(a): float(b) for a, b in (line.split() for line in out.split("\n") if line)}
    return {"mpy_unix_2d6_us": us[2], "mpy_unix_12d6_us": us[12]}


def bench_verify(rolls: int = 1000) -> dict[str, float]:
    seed = bytes(range(32))
    record = [FairRoll(c, 6, derive_faces(seed, c, 6, 12), f"roll {c}") for c in range(rolls)]
    commitment = hashlib.sha256(seed).digest()
    t0 = time.perf_counter()
    verdict = verify(commitment, seed, rolls, record)
    ms = (time.perf_counter() - t0) * 1000
    assert verdict.ok
    return {"verify_1000x12d6_ms": ms}


def bench_tray(rolls: int = 200) -> dict[str, float]:
    with VirtualTray(config.default_config(1)) as tray, TraySession(tray.port) as session:
        session.wait_synced(30)
        fair = FairDice(session, timeout=10)
        t0 = time.perf_counter()
        fair.begin()
        begin_ms = (time.perf_counter() - t0) * 1000
        lat: list[float] = []
        for i in range(rolls):
            t0 = time.perf_counter()
            fair.roll(2, f"roll {i}")
            lat.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        verdict = fair.reveal()
        reveal_ms = (time.perf_counter() - t0) * 1000
    assert verdict.ok, str(verdict)
    lat.sort()
    return {"begin_ms": begin_ms, "roll_2d6_p50_ms": statistics.median(lat),
            "roll_2d6_p99_ms": lat[int(0.99 * (len(lat) - 1))], "reveal_verify_ms": reveal_ms,
            "rolls": rolls}


def main() -> None:
    results: dict[str, float] = {}
    results.update(bench_firmware())
    results.update(bench_verify())
    results.update(bench_tray())
    report_figures(RESULTS, results)


if __name__ == "__main__":
    main()
