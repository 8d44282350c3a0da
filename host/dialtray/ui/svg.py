"""Pictures made on the server as SVG text: a dial's window, the LED dice, the odds bar chart.

Every picture carries its meaning in text as well as colour (a value's colour is also written
as a word; the shot-down bars are hatched and labelled), and a ``role="img"`` with an
``aria-label`` saying what it shows.
"""

from __future__ import annotations

from html import escape

from dialtray.ui.odds import Odds

# Named colours a dial prints, as the page draws them (unknown names are drawn grey, still
# written out in words beside the value).
COLOURS = {"red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#f9a825",
           "black": "#111", "white": "#fafafa", "orange": "#ef6c00", "purple": "#6a1b9a",
           "grey": "#757575", "gray": "#757575"}
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
SHORT = {"max_speed": "MAX", "front_gunnery": "FRT", "rear_gunnery": "REAR", "piloting": "PIL",
         "bullet_holes": "HOLES", "speed": "SPD", "attack": "ATK", "defense": "DEF",
         "fate": "FATE", "damage": "DMG"}


def dial_window(label: str, click: int | None, values: dict[str, int],
                colours: dict[str, str]) -> str:
    """The window of a dial at ``click``: one cell per printed value, coloured as printed."""
    n = max(1, len(values))
    cw, h = 46, 58
    w = cw * n + 8
    title = f"{label}: click {click}" if click is not None else f"{label}: not set yet"
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='window' viewBox='0 0 {w} {h}' "
             f"role='img' aria-label='{escape(title, quote=True)}'>",
             f"<rect x='1' y='1' width='{w - 2}' height='{h - 2}' rx='8' fill='#222'/>"]
    if not values:
        parts.append(f"<text x='{w / 2}' y='34' fill='#fff' font-size='13' "
                     f"text-anchor='middle'>{'click ' + str(click) if click is not None else '—'}"
                     "</text>")
    for i, (name, v) in enumerate(values.items()):
        x = 4 + i * cw
        colour = colours.get(name, "")
        fill = COLOURS.get(colour, "#757575") if colour else "#fafafa"
        ink = "#111" if fill in ("#fafafa", "#f9a825") else "#fff"
        word = f" ({colour})" if colour else ""
        parts.append(f"<g><title>{escape(name)} {v}{escape(word)}</title>"
                     f"<rect x='{x}' y='5' width='{cw - 4}' height='{h - 10}' rx='4' "
                     f"fill='{fill}'/>"
                     f"<text x='{x + (cw - 4) / 2}' y='20' font-size='10' fill='{ink}' "
                     f"text-anchor='middle'>{escape(SHORT.get(name, name[:5].upper()))}</text>"
                     f"<text x='{x + (cw - 4) / 2}' y='42' font-size='19' font-weight='bold' "
                     f"fill='{ink}' text-anchor='middle'>{v}</text>"
                     + (f"<text x='{x + (cw - 4) / 2}' y='{h - 8}' font-size='8' fill='{ink}' "
                        f"text-anchor='middle'{squeeze(colour, cw - 8)}>{escape(colour)}</text>"
                        if colour else "")
                     + "</g>")
    parts.append("</svg>")
    return "".join(parts)


def squeeze(word: str, width: int) -> str:
    """Fit a long colour word (``simple-buffeting``) in its cell."""
    return f" textLength='{width}' lengthAdjust='spacingAndGlyphs'" if len(word) > 8 else ""


def die(face: int, size: int = 44) -> str:
    """One LED die as it lights up (pips), with its number for screen readers."""
    s = size
    pips = "".join(f"<circle cx='{s * (0.25 + 0.25 * x):.1f}' cy='{s * (0.25 + 0.25 * y):.1f}' "
                   f"r='{s * 0.08:.1f}' fill='#ffeb3b'/>" for x, y in PIPS.get(face, []))
    return (f"<svg xmlns='http://www.w3.org/2000/svg' class='die' width='{s}' height='{s}' "
            f"viewBox='0 0 {s} {s}' role='img' aria-label='die showing {face}'>"
            f"<rect x='1' y='1' width='{s - 2}' height='{s - 2}' rx='7' fill='#263238'/>{pips}"
            "</svg>")


def odds_chart(o: Odds, axis: str = "damage clicks (✖ = shot down)") -> str:
    """P(exactly k damage clicks) as bars, the shot-down bar hatched; each bar carries its
    exact probability (``data-p``) and its number as text."""
    k_n = len(o.clicks)
    bw, gap, h, top, base = 44, 10, 220, 28, 40
    w = max(260, k_n * (bw + gap) + 60)
    peak = max((float(p) for p in o.clicks), default=1.0) or 1.0
    label = (f"Odds of {o.label}: damage clicks 0 to {k_n - 1}; shot down "
             f"{float(o.shot_down) * 100:.1f} percent")
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='odds' viewBox='0 0 {w} {h}' "
             f"role='img' aria-label='{escape(label, quote=True)}' data-dice='{o.dice}' "
             f"data-target='{o.target}' data-clicks-left='{o.clicks_left or ''}' "
             f"data-defensive-fate='{int(o.defensive_fate)}'>",
             "<defs><pattern id='hatch' width='6' height='6' patternUnits='userSpaceOnUse' "
             "patternTransform='rotate(45)'><rect width='6' height='6' fill='#c62828'/>"
             "<line x1='0' y1='0' x2='0' y2='6' stroke='#fff' stroke-width='2'/></pattern></defs>",
             f"<line x1='30' x2='{w - 10}' y1='{h - base}' y2='{h - base}' stroke='#444'/>"]
    for k, p in enumerate(o.clicks):
        x = 36 + k * (bw + gap)
        bh = (h - base - top) * float(p) / peak
        down = o.clicks_left is not None and k >= o.clicks_left
        fill = "url(#hatch)" if down else "#1565c0"
        parts.append(f"<g class='bar' data-k='{k}' data-p='{float(p):.6f}'>"
                     f"<title>{k} click(s): {p} ≈ {float(p):.6f}"
                     f"{' — shot down' if down else ''}</title>"
                     f"<rect x='{x}' y='{h - base - bh:.1f}' width='{bw}' height='{bh:.1f}' "
                     f"fill='{fill}' stroke='#0d47a1'/>"
                     f"<text x='{x + bw / 2}' y='{h - base - bh - 5:.1f}' font-size='11' "
                     f"text-anchor='middle'>{float(p) * 100:.1f}%</text>"
                     f"<text x='{x + bw / 2}' y='{h - base + 16}' font-size='13' "
                     f"text-anchor='middle'>{k}{' ✖' if down else ''}</text></g>")
    parts.append(f"<text x='{w / 2}' y='{h - 6}' font-size='12' text-anchor='middle'>"
                 f"{escape(axis)}</text></svg>")
    return "".join(parts)
