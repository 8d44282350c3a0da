"""The live record sheet as SVG (issue 15): marked boxes, performance boxes lost, turn record."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dialtray.rules.fasa.bots import bot_game
from dialtray.rules.fasa.svg import render

NS = "{http://www.w3.org/2000/svg}"


def test_svg_shows_the_sheet_as_it_stands() -> None:
    """FS-M05 record sheet, FS-M83 diagram, FS-M88 performance boxes lost, FS table 1 turns."""
    g, _ = bot_game(7, turn_limit=6)
    for p in g.state.planes.values():
        root = ET.fromstring(render(p, g.state.turn))
        rects = root.iter(f"{NS}rect")
        classes = [r.get("class", "") for r in rects]
        assert classes.count("box marked") == len(p.marked)
        assert classes.count("box") + classes.count("box marked") == 360
        struck = classes.count("perf lost")
        sh = p.sheet_data
        expected = (sh.max_speed - p.max_speed()) + (3 - p.acceleration()) + (
            sh.deceleration - p.deceleration()) + (sh.g_port - p.g_rating("port")) + (
            sh.g_starboard - p.g_rating("starboard"))
        assert struck == expected
        texts = "".join(t.text or "" for t in root.iter(f"{NS}text"))
        assert "SAMPLE" in texts and all(m in texts for m in p.turns)


def test_svg_marks_lost_locations_red() -> None:
    g, _ = bot_game(0, turn_limit=8)
    hit = [p for p in g.state.planes.values() if p.lost]
    assert hit, "no plane lost a location in this game: pick another seed"
    p = hit[0]
    root = ET.fromstring(render(p, g.state.turn))
    red = {r.findtext(f"{NS}title") for r in root.iter(f"{NS}rect")
           if r.get("class") == "location" and r.get("stroke") == "#c00"}
    assert red == {loc for loc in p.lost
                   if any(loc == x.findtext(f"{NS}title") for x in root.iter(f"{NS}rect"))}
