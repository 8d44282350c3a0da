"""Where a window's stat cells and marks lie in its template, in template pixels: the
regions the classifier scores one by one (``classify.py``)."""

from __future__ import annotations

from dialtray.vision.layout import Window
from dialtray.vision.register import BORDER_MM, SPP


def inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[0] + a[2] <= b[0] + b[2] and \
        a[1] + a[3] <= b[1] + b[3]


def region_rects(window: Window) -> list[tuple[float, float, float, float]]:
    """The cells, and the marks that lie outside every cell (a mark inside a cell, like the
    speed dial's red line, is part of that cell's picture)."""
    cells = [c.rect for c in window.cells]
    return cells + [m for m in window.marks.values() if not any(inside(m, c) for c in cells)]


def region_names(window: Window) -> list[str]:
    """The names of the regions, in ``region_rects``' order: the stat cells, then the marks
    that lie outside every cell."""
    cells = [c.rect for c in window.cells]
    return [c.stat for c in window.cells] + [
        k for k, m in window.marks.items() if not any(inside(m, c) for c in cells)]


def region_shows(window: Window) -> list[tuple[str, ...]]:
    """What each region shows, in ``region_rects``' order: its stat or mark, and the marks
    drawn inside a cell (two clicks print a region alike when all of these are alike)."""
    cells = [c.rect for c in window.cells]
    return [(nm, *[k for k, m in window.marks.items() if i < len(cells) and inside(m, cells[i])])
            for i, nm in enumerate(region_names(window))]


def window_regions(window: Window) -> list[tuple[int, int, int, int]]:
    """Each stat cell and mark of the window as (x0, y0, x1, y1) template px, inset so that
    the edges of the cell's box (the same on every click) stay out: the digit dominates."""
    out = []
    for x, y, w, h in region_rects(window):
        ix, iy = min(0.2 * w, 3.0), min(0.1 * h, 0.8)
        out.append((round((BORDER_MM + x + ix) * SPP), round((BORDER_MM + y + iy) * SPP),
                    round((BORDER_MM + x + w - ix) * SPP),
                    round((BORDER_MM + y + h - iy) * SPP)))
    return out
