"""Write tests/durations.tsv, the suite's own estimate of each longer test's seconds, from a run.

tests/conftest.py deals the tests out to the xdist workers longest first (each worker's share
gets an even part of the work and starts with its longest test), so the run does not end with
one worker still busy on a long test it met late while the others wait. A test marked
``@pytest.mark.slow(cost=S)`` brings its own estimate; the others' come from this file. Only the
order depends on it: a stale or missing line changes which worker runs a test and when, never
whether it runs. Rerun it after a full run when tests were added or became slower:

    DIALTRAY_TEST_CPU=/tmp/cpu.tsv .venv/bin/pytest -q
    python scripts/test_durations.py /tmp/cpu.tsv --scale 0.5   # 0.5: that run's load doubled times

``--scale``: what the run's wall times are multiplied by to be about a quiet 2-core machine's
(the slow marks' unit); tests under ``--min`` seconds after scaling are left out (they go where
there is room).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "durations.tsv"
HEADER = ("# seconds<TAB>test: each longer test's wall time on a quiet 2-core machine, about; "
          "written by scripts/test_durations.py, read by tests/conftest.py (the order only)\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("cpu_file", type=Path, help="a DIALTRAY_TEST_CPU file of a full run")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the run's walls by this")
    p.add_argument("--min", type=float, default=0.5, help="leave out tests shorter than this")
    args = p.parse_args(argv)
    walls: dict[str, float] = {}
    for n, line in enumerate(args.cpu_file.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t")
        try:
            walls[parts[0]] = float(parts[1]) * args.scale
        except (IndexError, ValueError):
            print(f"{args.cpu_file}:{n}: not a DIALTRAY_TEST_CPU line: {line[:80]!r}",
                  file=sys.stderr)
            return 2
    kept = sorted((s, t) for t, s in walls.items() if s >= args.min)
    OUT.write_text(HEADER + "".join(f"{s:.1f}\t{t}\n" for s, t in reversed(kept)),
                   encoding="utf-8")
    print(f"{OUT}: {len(kept)} of {len(walls)} tests ({sum(s for s, _ in kept):.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
