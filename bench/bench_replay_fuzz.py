"""Replay fuzz sweep (issue 8, defect 7): many mutated game logs of both games through the replay
function; any exception other than ``NotationError`` is a traceback a user would have seen.

The quick pass (10 000 logs) is ``tests/rules/core/test_core_replay_fuzz.py``; this sweep uses
longer base logs and more mutations. Prints a table and writes bench/results/replay_fuzz.json.
Run: .venv/bin/python bench/bench_replay_fuzz.py [LOGS] [SEED]
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "rules" / "core"))

from dialtray.rules.core.errors import NotationError  # noqa: E402
from log_fuzz import base_logs, mutate, replay_bytes  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "replay_fuzz.json"


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    bases = base_logs(aa_lines=80, aces_lines=40)
    rng = random.Random(seed)
    outcome: Counter[str] = Counter()
    crashes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    kinds = ["airaction", "airaction", "aces", "aces", "aces (position)"]
    per_kind: Counter[str] = Counter()
    t0 = time.perf_counter()
    for i in range(n):
        k = i % len(bases)
        per_kind[kinds[k]] += 1
        data = mutate(bases[k], rng)
        try:
            replay_bytes(data)
            outcome["replayed"] += 1
        except NotationError:
            outcome["NotationError"] += 1
        except Exception as exc:
            outcome["traceback"] += 1
            where = traceback.extract_tb(exc.__traceback__)[-1]
            key = f"{type(exc).__name__} {Path(where.filename).name}:{where.lineno}"
            crashes[key] += 1
            examples.setdefault(key, data.decode("utf-8", "replace")[:3000])
    secs = time.perf_counter() - t0
    print(f"{'logs':<22}{n:>12}")
    for kind, count in sorted(per_kind.items()):
        print(f"{'  ' + kind:<22}{count:>12}")
    for name in ("replayed", "NotationError", "traceback"):
        print(f"{name:<22}{outcome[name]:>12}")
    print(f"{'seconds':<22}{secs:>12.1f}")
    print(f"{'logs/s':<22}{n / secs:>12.0f}")
    for key, count in crashes.most_common():
        print(f"  {count:>6}  {key}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "logs": n,
                "seed": seed,
                "per_kind": dict(per_kind),
                "outcome": dict(outcome),
                "crashes": dict(crashes),
                "examples": examples,
                "seconds": round(secs, 2),
                "python": platform.python_version(),
            },
            indent=2,
        )
        + "\n"
    )
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
