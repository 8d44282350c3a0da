"""Where each dock sits on the tray, for drawing it as it sits on the table.

The camera helper's tray layout (``calibration/tray_layout.json``: tray size in mm, each dock's
centre, the base radius) is used when there is one; otherwise a plain grid, said so on the page.
Only the fields drawn here are read; a file that lacks them is refused with the field named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LAYOUT_FILE = "tray_layout.json"
GRID_COLUMNS = 4
GRID_PITCH = 80.0  # mm between dock centres in the fallback grid
GRID_RADIUS = 35.0


class LayoutError(ValueError):
    """A layout file that cannot be drawn: names the file and the field."""


@dataclass(frozen=True)
class TrayLayout:
    width: float
    height: float
    radius: float
    centres: dict[int, tuple[float, float]]
    source: str  # the file it came from, or "grid"

    def to_dict(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "radius": self.radius,
                "source": self.source,
                "docks": {str(d): list(c) for d, c in sorted(self.centres.items())}}


def grid(docks: int) -> TrayLayout:
    """Docks in rows of ``GRID_COLUMNS`` (no layout file)."""
    cols = min(GRID_COLUMNS, max(1, docks))
    rows = (docks + cols - 1) // cols
    centres = {d: (GRID_PITCH * (d % cols + 0.5), GRID_PITCH * (d // cols + 0.5))
               for d in range(docks)}
    return TrayLayout(GRID_PITCH * cols, GRID_PITCH * max(1, rows), GRID_RADIUS, centres, "grid")


def _num(v: Any, where: str, path: Path) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise LayoutError(f"{path}: {where}: a non-negative number is needed, not {v!r}")
    return float(v)


def load(path: Path, docks: int) -> TrayLayout:
    """The layout in ``path``; docks it does not place are added on a grid below the tray."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise LayoutError(f"{path}: cannot read the tray layout: {e}") from e
    if not isinstance(raw, dict) or not isinstance(raw.get("tray"), dict):
        raise LayoutError(f"{path}: field 'tray' (width, height in mm) is missing")
    width = _num(raw["tray"].get("width"), "tray.width", path)
    height = _num(raw["tray"].get("height"), "tray.height", path)
    radius = GRID_RADIUS
    for base in (raw.get("base_types") or {}).values():
        if isinstance(base, dict) and "radius" in base:
            radius = _num(base["radius"], "base_types.*.radius", path)
            break
    centres: dict[int, tuple[float, float]] = {}
    for i, d in enumerate(raw.get("docks") or []):
        if not isinstance(d, dict) or not isinstance(d.get("dock"), int) or \
                not isinstance(d.get("centre"), list) or len(d["centre"]) != 2:
            raise LayoutError(f"{path}: docks[{i}]: needs 'dock' (a number) and 'centre' [x, y]")
        centres[d["dock"]] = (_num(d["centre"][0], f"docks[{i}].centre[0]", path),
                              _num(d["centre"][1], f"docks[{i}].centre[1]", path))
    extra = [d for d in range(docks) if d not in centres]
    for k, d in enumerate(extra):  # placed below the tray, so nothing is hidden
        centres[d] = (GRID_PITCH * (k % GRID_COLUMNS + 0.5),
                      height + GRID_PITCH * (k // GRID_COLUMNS + 0.5))
    if extra:
        height += GRID_PITCH * ((len(extra) + GRID_COLUMNS - 1) // GRID_COLUMNS)
    return TrayLayout(width, height, radius, centres, str(path))


def find(candidates: list[Path], docks: int) -> TrayLayout:
    """The first layout file that exists among ``candidates``, else the grid."""
    for p in candidates:
        if p.is_file():
            return load(p, docks)
    return grid(docks)
