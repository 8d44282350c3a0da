"""The firmware's receive path under >= 1 M fuzz inputs, in the real MicroPython (issue 8).

    .venv/bin/python bench/bench_fw_fuzz.py [--inputs 1000000] [--jobs 2]

Runs tests/mpy/fwfuzz.py (noise, well-formed commands with edge-value fields, mutated frames,
frames of the wrong shape, commands split across reads) against dialrig's Link.receive under the
MicroPython unix port with the simulated board, on an AS5600 tray and a quadrature tray, in
slices of SLICE inputs with their own seeds, several slices at a time. Each input is checked:
no exception, only well-formed frames written back, a valid configuration (no two dials on one
sensor) and sequence state inside the ring; each slice ends by checking that HELLO is still
answered. A failure prints its seed, index and input in hex (fwfuzz replays it).

Prints a table and writes bench/results/fw_fuzz.json. Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "fw_fuzz.json"
SLICE = 125_000
MICROPYTHON = Path(sys.executable).parent / "micropython"

_LINE = re.compile(r"(\w+) (-?[\d.]+)")


def run_slice(seed: int, n: int, quadrature: bool) -> dict[str, object]:
    env = dict(os.environ, MICROPYPATH=f"{ROOT / 'firmware'}:{ROOT / 'tests' / 'mpy'}:.frozen")
    code = f"import fwfuzz\nfwfuzz.main({seed}, {n}, {quadrature})\n"
    started = time.monotonic()
    proc = subprocess.run([str(MICROPYTHON), "-c", code], env=env, capture_output=True,
                          text=True, timeout=3600)
    wall = time.monotonic() - started
    out = proc.stdout + proc.stderr
    first = out.splitlines()[0] if out else ""
    stats: dict[str, object] = {k: float(v) if "." in v else int(v)
                                for k, v in _LINE.findall(first)}
    kinds = next((line[6:] for line in out.splitlines() if line.startswith("kinds ")), "")
    failures = [line for line in out.splitlines() if line.startswith("FAILURE")]
    if proc.returncode != 0 or "inputs" not in stats:
        failures.append(f"micropython exited {proc.returncode}: {out[-2000:]}")
    return {"seed": seed, "tray": "quadrature" if quadrature else "as5600", "wall_s": wall,
            **stats, "kinds": kinds, "failure_lines": failures}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=1_000_000, help="total inputs (default 1 M)")
    ap.add_argument("--jobs", type=int, default=2, help="MicroPython processes at a time")
    args = ap.parse_args()
    if not MICROPYTHON.exists():
        print(f"bench_fw_fuzz: no MicroPython at {MICROPYTHON} (pip install -e '.[sim]')",
              file=sys.stderr)
        return 2
    slices = []
    left, seed = args.inputs, 1000
    while left > 0:
        n = min(SLICE, left)
        slices.append((seed, n, len(slices) % 2 == 1))
        left -= n
        seed += 1
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda s: run_slice(*s), slices))
    wall = time.monotonic() - started
    total = sum(int(str(r.get("inputs", 0))) for r in rows)
    failed = sum(len(r["failure_lines"]) for r in rows)  # type: ignore[arg-type]

    head = (f"{'seed':>5} {'tray':<10} {'inputs':>8} {'cpu s':>7} {'inputs/s':>9} "
            f"{'fail':>4} {'alive':>5} {'cmds ok':>8} {'corrupt':>8} {'unknown':>8} "
            f"{'bad args':>8}")
    print(head)
    print("-" * len(head))
    for r in rows:
        secs = float(str(r.get("seconds", 0))) or 1e-9
        print(f"{r['seed']:>5} {r['tray']:<10} {r.get('inputs', 0):>8} {secs:>7.1f} "
              f"{int(str(r.get('inputs', 0))) / secs:>9.0f} {len(r['failure_lines']):>4} "  # type: ignore[arg-type]
              f"{r.get('alive', 0):>5} {r.get('ok', 0):>8} {r.get('corrupt', 0):>8} "
              f"{r.get('unknown', 0):>8} {r.get('bad_args', 0):>8}")
    print(f"total: {total} inputs in {wall:.0f} s wall ({args.jobs} processes), "
          f"{failed} failures")
    for r in rows:
        for line in r["failure_lines"]:  # type: ignore[attr-defined]
            print(line)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "bench": "firmware receive-path fuzz (tests/mpy/fwfuzz.py) under MicroPython",
        "inputs": total, "failures": failed, "wall_s": round(wall, 1), "jobs": args.jobs,
        "slices": rows}, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 1 if failed or total < args.inputs else 0


if __name__ == "__main__":
    sys.exit(main())
