"""The report as one self-contained HTML page (inline CSS and SVG, no script, no fetches)."""

from __future__ import annotations

from html import escape
from typing import Any

from dialtray.store.judge import DialHistory, history_lines
from dialtray.store.report import Report

W, H, PAD = 640, 170, 34
DETENTS = 12

CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:60em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}.bad{color:#b00;font-weight:bold}
.ok{color:#070}pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}
svg{background:#fcfcfc;border:1px solid #ddd}.legend span{margin-right:1.5em}"""


def page(rep: Report) -> str:
    g = rep.game
    e = escape
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8>"
             f"<title>dialtray game {g.id}</title><style>{CSS}</style></head><body>",
             f"<h1>Game {g.id}: {e(g.kind)}</h1>",
             f"<p>Started {e(g.created)} ({e(g.origin)}); status <b>{e(g.status)}</b>"
             + (f": {e(g.result)}" if g.result else "") + "</p>",
             f"<p class={'ok' if rep.ok else 'bad'}>verify: {e(rep.verified)}</p>",
             "<h2>Victory points</h2><table><tr><th>seat</th><th>rules</th><th>judge</th>"
             "<th>total</th></tr>"]
    for s in rep.seats:
        parts.append(f"<tr><td>{e(s)}</td><td>{rep.vp.get(s, 0)}</td>"
                     f"<td>{rep.adjust.get(s, 0):+d}</td><td><b>{rep.total[s]}</b></td></tr>")
    parts.append("</table>")
    if rep.outcome:
        parts.append(f"<p>Ended: {e(str(rep.outcome['termination']))}; winner "
                     f"{e(str(rep.outcome['winner']))}</p>")
    parts.append("<h3>How the points were scored</h3><ul>")
    parts += [f"<li>{e(ev)} <small>[{e(a)}]</small></li>" for a, ev in rep.scoring] or \
        ["<li>no VP events during play: the rules score at the end</li>"]
    parts.append("</ul><h2>Dials</h2><p class=legend><span style='color:#246'>— what the "
                 "rules say</span><span style='color:#2a2'>● what the tray sensed</span>"
                 "<span style='color:#c60'>◆ judge</span><span style='color:#b00'>| flag</span>"
                 "</p>")
    t0, t1 = rep.span
    for h in rep.dials:
        parts.append(f"<h3>{e(h.label)}</h3>{chart(h, t0, t1)}<details><summary>history "
                     f"({len(h.items)})</summary><pre>"
                     + e("\n".join(history_lines(h)) or "never turned") + "</pre></details>")
    parts.append(f"<h2>Flags ({len(rep.flags)})</h2><ul>")
    for f in rep.flags:
        fate = f"put right: {e(f['how'])}" if f["resolved"] is not None else \
            "<span class=bad>never put right</span>"
        parts.append(f"<li>[{e(f['kind'])}] {e(f['text'])} — {fate}</li>")
    if rep.eyes:  # encoders that lost track, confirmed by a player (never a decision)
        parts.append(f"</ul><h2>Dials confirmed by eye ({len(rep.eyes)})</h2><ul>")
        parts += [f"<li>{e(x['text'])} (the encoder's count {x['count']})</li>"
                  for x in rep.eyes]
    parts.append(f"</ul><h2>Rulings ({len(rep.rulings)})</h2><ul>")
    for r in rep.rulings:
        tag = "<span class=bad>refused: no valid token</span>" if r["refused"] else \
            f"by the judge of {e(str(r['event']))}"
        parts.append(f"<li>{e(r['text'])} — {tag}</li>")
    parts += [f"<li>note for the judge: {e(n)}</li>" for n in rep.notes]
    parts.append("</ul><h2>Dice</h2><ul>")
    parts += [f"<li>{k} roll(s) by the game from {e(src)}</li>"
              for src, k in sorted(rep.dice_sources.items())]
    parts += [f"<li>{e(line)}</li>" for line in rep.dice.lines()]
    parts.append("</ul></body></html>\n")
    return "\n".join(parts)


def chart(h: DialHistory, t0: float, t1: float) -> str:
    """Clicks over time: the rules' click as a step line with each cause marked, the sensed
    click as dots, flags and rulings as marks; hover a mark for its cause and rule id."""
    items = h.items
    by_time = t1 - t0 >= 1.0
    ns = [i["n"] for i in items] or [0, 1]
    lo, hi = (t0, t1) if by_time else (min(ns), max(ns) + 1)
    span = (hi - lo) or 1.0

    def x(i: dict[str, Any]) -> float:
        v = float(i["at"] if by_time else i["n"])
        return PAD + (W - 2 * PAD) * (v - lo) / span

    def y(click: float) -> float:
        return H - PAD - (H - 2 * PAD) * click / (DETENTS - 1)

    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}' height='{H}' "
           f"viewBox='0 0 {W} {H}' role='img' aria-label='{escape(h.label)} history'>"]
    for c in range(0, DETENTS, 3):
        out.append(f"<line x1='{PAD}' x2='{W - PAD}' y1='{y(c):.1f}' y2='{y(c):.1f}' "
                   "stroke='#eee'/>"
                   f"<text x='4' y='{y(c) + 4:.1f}' font-size='10'>{c}</text>")
    out.append(f"<text x='{W // 2}' y='{H - 6}' font-size='10' text-anchor='middle'>"
               f"{'time' if by_time else 'game progress (record)'}</text>")
    steps: list[tuple[float, float]] = []  # where the rules (or the judge) put the dial
    for i in items:
        if i["what"] in ("rules", "judge"):
            px, py = x(i), y(i["to"])
            steps.append((px, py))
            if i["what"] == "rules":
                tip = f"{i['cause']} [{i['rule']}] — {i['action']}"
                out.append(f"<path d='M{px:.1f} {py - 9:.1f} l-4 -6 h8 z' fill='#246'>"
                           f"<title>{escape(tip)}</title></path>")
            else:
                out.append(f"<path d='M{px:.1f} {py - 6:.1f} l5 6 l-5 6 l-5 -6 z' "
                           f"fill='#c60'><title>{escape(i['text'])}</title></path>")
        elif i["what"] == "tray":
            click = (i["position"] * h.up) % DETENTS
            tip = f"tray event {i['seq']}: {i['delta']:+d} → position {i['position']}"
            out.append(f"<circle cx='{x(i):.1f}' cy='{y(click):.1f}' r='3' fill='#2a2'>"
                       f"<title>{escape(tip)}</title></circle>")
        elif i["what"] in ("flag", "resolve"):
            colour = "#b00" if i["what"] == "flag" else "#999"
            out.append(f"<line x1='{x(i):.1f}' x2='{x(i):.1f}' y1='{PAD - 10}' y2='{H - PAD}' "
                       f"stroke='{colour}' stroke-dasharray='3 2'><title>"
                       f"{escape(i['kind'] + ': ' + i['text'])}</title></line>")
    if steps:
        d = f"M{steps[0][0]:.1f} {steps[0][1]:.1f}" + "".join(
            f" H{px:.1f} V{py:.1f}" for px, py in steps[1:]) + f" H{W - PAD}"
        out.append(f"<path d='{d}' fill='none' stroke='#246' stroke-width='2'/>")
    out.append("</svg>")
    return "".join(out)
