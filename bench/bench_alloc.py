"""Bytes the firmware allocates per 10 000 sampling iterations, measured in MicroPython.

    .venv/bin/python bench/bench_alloc.py

Runs the firmware's sampling path (Dials.sample + the button debounce, exactly what the
sampler task calls every tick) 10 000 times under the real MicroPython unix port with the
simulated board, for the default AS5600 tray (8 docks, 16 dials) and a quadrature tray with
contact bounce, while the dials are being turned, and reads gc.mem_alloc() before and after
with the garbage collector off. Target: 0 bytes.

Prints a table and writes bench/results/alloc.json.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "alloc.json"
ITERATIONS = 10_000

SCRIPT = f"""
ITERATIONS = {ITERATIONS}
import gc, time
from dialrig import config, hw_sim
from dialrig.app import App

class NullIO:
    judge_ctrl_c = False
    def write(self, data): pass
    def read_available(self): return None

def measure(cfg, bounce):
    board = hw_sim.Board(cfg)
    board.bounce = bounce
    app = App(cfg, board, NullIO())
    for k in range(app.dials.n):
        board.turn(k, 3, 200)   # every dial moving during the run
    dials = app.dials
    now = time.ticks_ms()
    dials.sample(now)
    app.button_tick(now)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for i in range(ITERATIONS):
        now = time.ticks_ms()
        dials.sample(now)
        app.button_tick(now)
    used = gc.mem_alloc() - before
    gc.enable()
    return used

print("as5600", measure(config.default_config(8), False))
print("quadrature", measure(config.quadrature_config(3), True))
"""


def micropython() -> str:
    return str(Path(sys.executable).parent / "micropython")


def main() -> int:
    env = {"MICROPYPATH": f"{ROOT / 'firmware'}:.frozen", "PATH": "/usr/bin:/bin"}
    r = subprocess.run([micropython(), "-c", SCRIPT], capture_output=True, text=True, env=env,
                       timeout=300)
    if r.returncode:
        print(r.stdout + r.stderr, file=sys.stderr)
        return 1
    results = {"iterations": ITERATIONS}
    for line in r.stdout.split("\n"):
        if line.strip():
            name, value = line.split()
            results[f"{name}_bytes"] = int(value)
    print(f"{'sampling path (MicroPython)':34} {'bytes / 10 000 iterations':>26}  target")
    for name in ("as5600", "quadrature"):
        label = "8 docks, AS5600" if name == "as5600" else "3 docks, quadrature + bounce"
        print(f"{label:34} {results[name + '_bytes']:>26}  0")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0 if all(results[n + "_bytes"] == 0 for n in ("as5600", "quadrature")) else 1


if __name__ == "__main__":
    sys.exit(main())
