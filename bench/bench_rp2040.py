"""Benchmark of the emulated Pico (issue 29): how fast the emulated RP2040 runs the firmware, and
the sampler loop's period in the chip's own time.

- speed: simulated seconds per wall second, and emulated CPU cycles per wall second, with the
  firmware running its event loop on a tray of 8 docks (16 AS5600 behind two TCA9548A) and a host
  connected (a TraySession in sync);
- sampler period: simulated time between two reads of the same AS5600 (dock 0 combat), counted
  on the bench's I2C model: one full pass of the sample loop over every sensor;
- the I2C bus's floor beside it: rp2040js moves an I2C transfer in no simulated time, so the
  measured period is the CPU's part alone. A Pico waits on the wire too (machine.I2C blocks):
  the bits each pass puts on the bus (counted on the model: each START or repeated START with
  its address byte, each data byte with its ACK, each STOP) at config.I2C_FREQ are added to it
  for the period a real tray has (docs/emulated-pico.md).

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
from typing import Any

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
    bits = bus_bits(a, b)
    bus_ms = bits / reads / config.I2C_FREQ * 1000 if reads else float("nan")
    period = sim / reads * 1000 if reads else float("nan")
    return {
        "docks": docks,
        "wall_s": wall,
        "sim_s": sim,
        "speed_sim_per_wall": sim / wall,
        "mcycles_per_wall_s": (b["cycles"] - a["cycles"]) / wall / 1e6,
        "sampler_passes": reads,
        "sampler_period_ms_sim": period,
        "configured_sample_ms": config.DEFAULT_SAMPLE_MS,
        "i2c_freq_hz": config.I2C_FREQ,
        "i2c_transfers_per_pass": (b["i2c_transfers"] - a["i2c_transfers"]) / reads if reads
        else float("nan"),
        "bus_floor_ms_per_pass": bus_ms,
        "sampler_period_ms_real_estimate": period + bus_ms,
        "i2c_transfers_per_sim_s": (b["i2c_transfers"] - a["i2c_transfers"]) / sim if sim else 0,
        "boot_to_sync_wall_s": synced_wall,
        "boot_to_sync_sim_s": synced_sim,
        "host_cpu_s": (c1.user + c1.system) - (c0.user + c0.system),
        "load_avg_1min": os.getloadavg()[0],
    }


def bus_bits(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Bit times on SCL between two stats: START/repeated START (1) + address and ACK (9) per
    transfer, 9 per data byte with its ACK, 1 per STOP."""
    transfers = b["i2c_transfers"] - a["i2c_transfers"]
    data = b["i2c_bytes"] - a["i2c_bytes"]
    stops = b["i2c_stops"] - a["i2c_stops"]
    return 10 * transfers + 9 * data + stops


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
        ("I2C bus floor per pass", f"{r['bus_floor_ms_per_pass']:.2f} ms at "
         f"{r['i2c_freq_hz'] // 1000} kHz ({r['i2c_transfers_per_pass']:.0f} transfers; "
         "emulated I2C takes no time)"),
        ("sampler period, real Pico", f"~{r['sampler_period_ms_real_estimate']:.2f} ms "
         "(CPU as emulated + the bus floor)"),
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
