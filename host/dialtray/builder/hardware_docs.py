"""Generate the rig's wiring tables (hardware/wiring.md) and bill of materials (hardware/bom.csv).

Why generated: `dialrig.config` is the one pin map the firmware runs from. A hand-written wiring
table drifts the first time someone moves a pin; a generated one cannot, and
`dialtray hardware docs --check` (run by the tests) fails when the committed files are stale.

Everything is pure: config in, text out, no clock and no filesystem, so the output is
byte-for-byte deterministic. The work is split by job in :mod:`dialtray.hwdocs` — ``facts``
(the Pico's header, the build assumptions, typed reads of the untyped MicroPython config),
``electrical`` (I2C pull-ups, the current budget), ``wiring`` and ``panel`` (wiring.md's
sections), ``bom`` (bom.csv) — and this module is the entry point the CLI and tests use
(``compare`` says which committed files the generator would change).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from pathlib import Path

from dialtray.hwdocs.bom import BOM_COLUMNS, BomLine, bom_lines, bom_quantities, render_bom
from dialtray.hwdocs.electrical import PowerBudget, PullUps, choose_pullups, power_budget
from dialtray.hwdocs.facts import (
    I2C_RISE_MAX_NS,
    I2C_SINK_MAX_MA,
    PIP_POSITIONS,
    USB_MA,
    Config,
    dial_names,
    mux_addrs,
    rig,
    ws2812_state_machine,
)
from dialtray.hwdocs.wiring import render_wiring

WIRING_FILE = "wiring.md"
BOM_FILE = "bom.csv"


def generate(cfg: Config | None = None) -> dict[str, str]:
    """File name → contents of every generated hardware document."""
    return {WIRING_FILE: render_wiring(cfg), BOM_FILE: render_bom(cfg)}


def compare(files: dict[str, str], out_dir: Path) -> Iterator[tuple[Path, bool, list[str]]]:
    """For each generated file: its path in ``out_dir``, whether it is missing there, and the
    unified diff from what is there to what the generator makes (empty: it matches)."""
    for name, expected in files.items():
        path = out_dir / name
        try:
            actual = path.read_text(encoding="utf-8")
            missing = False
        except FileNotFoundError:
            actual, missing = "", True
        diff = [] if actual == expected else list(difflib.unified_diff(
            actual.splitlines(keepends=True), expected.splitlines(keepends=True),
            fromfile=f"{path} (committed)", tofile=f"{path} (from dialrig.config)"))
        yield path, missing, diff


__all__ = [
    "BOM_COLUMNS", "BOM_FILE", "I2C_RISE_MAX_NS", "I2C_SINK_MAX_MA", "PIP_POSITIONS", "USB_MA",
    "WIRING_FILE", "BomLine", "Config", "PowerBudget", "PullUps", "bom_lines", "bom_quantities",
    "choose_pullups", "compare", "dial_names", "generate", "mux_addrs", "power_budget",
    "render_bom", "render_wiring", "rig", "ws2812_state_machine",
]
