"""Benchmark the quadrature PIO program in the rp2040-pio-emulator.

Finds the smallest transition spacing (state machine cycles per transition) at which the decoder
loses no count for any sequence (steady spins both ways at every phase, every 5-step direction
pattern, random walks), shows that one cycle less loses counts, converts to transitions/s at the
RP2040's default 125 MHz sysclk, and measures the emulator's own speed.

    .venv/bin/python bench/bench_pio.py

Prints a table and writes bench/results/pio.json. The emulation harness is the one
tests/test_pio_programs.py verifies.
"""

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT / "tests"))

from dialrig import pio_programs as pp  # noqa: E402
from test_pio_programs import (  # noqa: E402
    Encoder,
    count_at_rate,
    lossless_at,
    run_quadrature,
    smallest_lossless_gap,
)

SYSCLK_HZ = 125_000_000
TARGET_TRANSITIONS_PER_S = 1_000_000
RESULTS = ROOT / "bench" / "results" / "pio.json"


def emulator_speed(transitions: int = 3000) -> tuple[int, float]:
    """Instructions emulated per second on a steady spin at the lossless rate."""
    gap = pp.QUAD_MAX_LOOP_CYCLES
    times = [(k + 1) * gap for k in range(transitions)]
    enc = Encoder([1] * transitions, times)
    start = time.perf_counter()
    count, _, steps = run_quadrature(enc, times[-1] + 40)
    elapsed = time.perf_counter() - start
    assert count == transitions
    return steps, steps / elapsed


def main() -> int:
    rng = random.Random(2026)
    gap = smallest_lossless_gap(rng, start=6)
    below = gap - 1
    count, final = count_at_rate([1] * 200, below)
    lost_below = final - count
    steps, steps_per_s = emulator_speed()
    rate = SYSCLK_HZ / gap
    results = {
        "sysclk_hz": SYSCLK_HZ,
        "lossless_cycles_per_transition": gap,
        "lossless_transitions_per_s": rate,
        "target_transitions_per_s": TARGET_TRANSITIONS_PER_S,
        "meets_target": rate >= TARGET_TRANSITIONS_PER_S,
        "one_cycle_faster_cycles_per_transition": below,
        "one_cycle_faster_lossless": lossless_at(below, random.Random(1)),
        "one_cycle_faster_lost_of_200_steady_spin": lost_below,
        "quadrature_program_words": len(pp.QUADRATURE),
        "ws2812_program_words": len(pp.WS2812),
        "emulator_instructions": steps,
        "emulator_instructions_per_s": round(steps_per_s),
    }
    rows = [
        ("lossless spacing", f"{gap} SM cycles per transition"),
        ("lossless rate @125 MHz", f"{rate / 1e6:.2f} M transitions/s"),
        ("target", f"{TARGET_TRANSITIONS_PER_S / 1e6:.2f} M transitions/s"
         f" ({'met' if results['meets_target'] else 'NOT met'})"),
        (f"at {below} cycles", f"loses counts ({lost_below} of 200 on a steady spin)"),
        ("PIO words", f"quadrature {len(pp.QUADRATURE)}, ws2812 {len(pp.WS2812)}"),
        ("emulator speed", f"{steps_per_s:,.0f} instructions/s ({steps} instructions)"),
    ]
    width = max(len(k) for k, _ in rows)
    print("PIO quadrature decoder (rp2040-pio-emulator)")
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0 if results["meets_target"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
