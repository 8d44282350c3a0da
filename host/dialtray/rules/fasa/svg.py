"""A live record sheet as SVG (issue 15): print it, or keep it open beside the map.

Shows what the paper sheet holds (FS-M05): pilot skills and Constitution (shock), the
performance diagram with the boxes lost to damage (FS-M88..FS-M101), the damage diagram with
every marked box filled and the bold damage locations outlined (lost ones in red, FS-M83),
guns (caliber, ammunition, bursts left, jams) and rockets, and the turn record (FS table 1).
Sample data is labelled SAMPLE.
"""

from __future__ import annotations

from html import escape

from dialtray.rules.fasa.damage import _grid
from dialtray.rules.fasa.layouts import COLS, ROWS, TABLES
from dialtray.rules.fasa.state import PlaneState

BOX = 14
DIAGRAM_X, DIAGRAM_Y = 20, 190
WIDTH = DIAGRAM_X * 2 + 3 * COLS * BOX + 230


def _text(x: float, y: float, s: str, size: int = 11, weight: str = "normal",
          fill: str = "#000") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'font-family="sans-serif">{escape(s)}</text>')


def _boxes(x: float, y: float, n: int, lost: int, label: str) -> list[str]:
    """A row of ``n`` performance boxes; the top ``lost`` are struck off."""
    out = [_text(x, y + 10, label, 10)]
    for i in range(n):
        bx = x + 70 + i * (BOX + 2)
        struck = i >= n - lost
        out.append(f'<rect class="perf{" lost" if struck else ""}" x="{bx}" y="{y}" '
                    f'width="{BOX}" height="{BOX}" fill="{"#888" if struck else "#fff"}" '
                    f'stroke="#000"/>')
        out.append(_text(bx + 4, y + 11, str(i + 1), 9))
    return out


def render(p: PlaneState, turn: int) -> str:
    """The sheet of plane ``p`` as it stands on ``turn``."""
    sh = p.sheet_data
    pilot = sh.pilot
    height = DIAGRAM_Y + 2 * ROWS * BOX + 60 + 14 * max(6, len(p.turns))
    out: list[str] = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
                      f'height="{height}" viewBox="0 0 {WIDTH} {height}">',
                      f'<rect width="{WIDTH}" height="{height}" fill="#fdfcf7"/>']
    title = f"{p.id}: {sh.name}" + ("   SAMPLE record sheet" if sh.sample else "")
    out.append(_text(20, 24, title, 15, "bold"))
    shock = "  IN SHOCK" if p.shocked(turn) else ""
    out.append(_text(20, 44, f"Pilot {pilot.name}  QD {pilot.quick_draw}"
                     f"{'/' + str(pilot.quick_draw_points) if pilot.quick_draw_points else ''}"
                     f"  DE {pilot.dead_eye}  SH {pilot.steady_hand}  NT {pilot.natural_touch}"
                     f"  SS {pilot.sixth_sense}  Con {p.constitution}/{pilot.constitution}"
                     f"{shock}", 11))
    towing = f"   towing {p.towing} (FS-M110)" if p.towing else ""
    out.append(_text(20, 60, f"Base to-hit {sh.base_to_hit}   status {p.status}   speed "
                     f"{p.speed}   layout {sh.layout}{towing}", 11))
    out += _boxes(20, 72, sh.max_speed, sh.max_speed - p.max_speed(), "Max speed")
    out += _boxes(20, 92, 3, 3 - p.acceleration(), "Accel")
    out += _boxes(20, 112, sh.deceleration, sh.deceleration - p.deceleration(), "Decel")
    out += _boxes(20, 132, 5, 5 - p.g_rating("port") - (5 - sh.g_port), "Gs port")
    out += _boxes(20, 152, 5, 5 - p.g_rating("starboard") - (5 - sh.g_starboard), "Gs stbd")
    wx = 300
    for i, g in enumerate(sh.guns):
        state = "DESTROYED" if g.id in p.lost else "JAMMED" if g.id in p.jammed else "ok"
        out.append(_text(wx, 84 + 14 * i, f"{g.id}: {g.caliber} cal {g.ammo}, range {g.range}, "
                         f"bursts {p.bursts.get(g.id, 0)}/{g.bursts} {state}", 10))
    for i, (hp, load) in enumerate(sorted(p.rockets.items())):
        gone = " DESTROYED" if hp in p.lost else ""
        out.append(_text(wx, 84 + 14 * (len(sh.guns) + i), f"{hp}: {' '.join(load) or '-'}"
                         f"{gone}", 10))
    marked = p.marked
    for t in TABLES:
        for r in range(ROWS):
            for c in range(COLS):
                x, y = _grid((t, r, c))
                fill = "#222" if (t, r, c) in marked else "#fff"
                cls = "box marked" if (t, r, c) in marked else "box"
                out.append(f'<rect class="{cls}" x="{DIAGRAM_X + x * BOX}" '
                           f'y="{DIAGRAM_Y + y * BOX}" width="{BOX}" height="{BOX}" '
                           f'fill="{fill}" stroke="#999" stroke-width="0.5"/>')
    for t, locs in sh.diagram.items():
        for loc, cells in locs.items():
            colour = "#c00" if loc in p.lost else "#000"
            for r, c in cells:
                x, y = _grid((t, r, c))
                out.append(f'<rect class="location" x="{DIAGRAM_X + x * BOX}" '
                           f'y="{DIAGRAM_Y + y * BOX}" width="{BOX}" height="{BOX}" '
                           f'fill="none" stroke="{colour}" stroke-width="2"><title>{escape(loc)}'
                           f"</title></rect>")
    mid = DIAGRAM_Y + ROWS * BOX
    out.append(f'<line x1="{DIAGRAM_X}" y1="{mid}" x2="{DIAGRAM_X + 3 * COLS * BOX}" '
               f'y2="{mid}" stroke="#06c" stroke-dasharray="4 2"/>')
    for i, name in enumerate(("port leading", "nose", "starboard leading")):
        out.append(_text(DIAGRAM_X + i * COLS * BOX, DIAGRAM_Y - 4, name, 9))
    for i, name in enumerate(("port trailing", "tail", "starboard trailing")):
        out.append(_text(DIAGRAM_X + i * COLS * BOX, mid + ROWS * BOX + 12, name, 9))
    rx = DIAGRAM_X + 3 * COLS * BOX + 20
    out.append(_text(rx, DIAGRAM_Y, "Turn record", 12, "bold"))
    for i, m in enumerate(p.turns):
        out.append(_text(rx, DIAGRAM_Y + 16 + 14 * i, f"{i + 1:>2}  {m}", 10))
    lost = ", ".join(sorted(p.lost)) or "none"
    out.append(_text(20, height - 12, f"Locations destroyed: {lost}", 10, fill="#c00"))
    out.append("</svg>")
    return "\n".join(out)
