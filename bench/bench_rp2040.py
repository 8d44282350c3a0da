"""Benchmark of the emulated Pico (issue 29): how fast the emulated RP2040 runs the firmware, and
the sampler loop's period in the chip's own time.

- speed: simulated seconds per wall second, and emulated CPU cycles per wall second, with the
  firmware running its event loop on a tray of 8 docks (16 AS5600 behind two TCA9548A) and a host
  connected (a TraySession in sync);
- sampler period: simulated time between two reads of the same AS5600 (dock 0 combat), counted
  on the bench's I2C model: one full pass of the sample loop over every sensor.

The chip runs flat out (not held to the wall clock). Prints a table and writes
bench/results/rp2040.json. Run: .venv/bin/python bench/bench_rp2040.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from dialrig import config
from dialtray.link.session import TraySession
from dialtray.virtual.rp2040 import missing
from dialtray.virtual.rp2040.tray import Rp2040Tray

RESULTS = Path(__file__).resolve().parent / "results" / "rp2040.json"
SENSOR = f"{config.MUX_ADDRS[0]}:0"  # dock 0 combat's AS5600 (mux 0x70 channel 0)


def measure(seconds: float, docks: int) -> dict[str, float]:
    with Rp2040Tray(config.default_config(docks), realtime=False) as tray:
        t0 = time.monotonic()
        with TraySession(tray.port, name="bench") as session:
            session.wait_synced(600)
            synced_wall = time.monotonic() - t0
            synced_sim = tray.pico.stats()["sim_s"]
            a = tray.pico.stats()
            w0 = time.monotonic()
            c0 = os.times()
            time.sleep(seconds)
            b = tray.pico.stats()
            w1 = time.monotonic()
            c1 = os.times()
    wall = w1 - w0
    sim = b["sim_s"] - a["sim_s"]
    reads = b["sensor_reads"].get(SENSOR, 0) - a["sensor_reads"].get(SENSOR, 0)
    return {
        "docks": docks,
        "wall_s": wall,
        "sim_s": sim,
        "speed_sim_per_wall": sim / wall,
        "mcycles_per_wall_s": (b["cycles"] - a["cycles"]) / wall / 1e6,
        "sampler_passes": reads,
        "sampler_period_ms_sim": sim / reads * 1000 if reads else float("nan"),
        "configured_sample_ms": config.DEFAULT_SAMPLE_MS,
        "i2c_transfers_per_sim_s": (b["i2c_transfers"] - a["i2c_transfers"]) / sim if sim else 0,
        "boot_to_sync_wall_s": synced_wall,
        "boot_to_sync_sim_s": synced_sim,
        "host_cpu_s": (c1.user + c1.system) - (c0.user + c0.system),
        "load_avg_1min": os.getloadavg()[0],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="wall seconds to measure")
    ap.add_argument("--docks", type=int, default=8)
    args = ap.parse_args()
    why = missing()
    if why is not None:
        print(f"bench_rp2040: the emulated Pico cannot run here: {why}", file=sys.stderr)
        return 2
    r = measure(args.seconds, args.docks)
    rows = [
        ("emulated chip speed", f"{r['speed_sim_per_wall']:.3f} simulated s per wall s"),
        ("emulated CPU", f"{r['mcycles_per_wall_s']:.1f} M cycles per wall s (125 MHz chip)"),
        (f"sampler period, {r['docks']} docks", f"{r['sampler_period_ms_sim']:.2f} ms simulated "
         f"(sample_ms {r['configured_sample_ms']}; {r['sampler_passes']} passes)"),
        ("I2C transfers", f"{r['i2c_transfers_per_sim_s']:.0f} per simulated s"),
        ("boot to host in sync", f"{r['boot_to_sync_wall_s']:.1f} s wall, "
         f"{r['boot_to_sync_sim_s']:.2f} s simulated"),
        ("machine load (1 min)", f"{r['load_avg_1min']:.1f} on {os.cpu_count()} cores"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": platform.machine(), "python": sys.version.split()[0],
                                   **r}, indent=2) + "\n")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
