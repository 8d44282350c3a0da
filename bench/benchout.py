"""What every benchmark ends with: its table on stdout and its figures in bench/results/.

Kept in one place so that the benchmarks print the same three columns (measure, value, note)
and write their JSON the same way (indented, a final newline, the path said relative to the
checkout).
"""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def print_table(rows: Iterable[tuple[str, str, str]], name_width: int, value_width: int) -> None:
    """Print a measure / value / note table, names left- and values right-aligned."""
    print(f"{'measure':{name_width}} {'value':>{value_width}}  note")
    for name, value, note in rows:
        print(f"{name:{name_width}} {value:>{value_width}}  {note}")


def write_results(path: Path, results: dict[str, Any]) -> None:
    """Write results as indented JSON to path (creating bench/results/) and say where."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    path = path.resolve()
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def report_figures(path: Path, results: dict[str, float]) -> None:
    """The plain two-column form (name, value: floats to two places) for a benchmark whose
    figures need no notes; the JSON names the machine and Python it ran on."""
    print(f"{'measure':<24} {'value':>10}")
    for k, v in results.items():
        print(f"{k:<24} {v:>10.2f}" if isinstance(v, float) else f"{k:<24} {v:>10}")
    write_results(path, {"machine": platform.machine(), "python": sys.version.split()[0],
                         "results": results})
