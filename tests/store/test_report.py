"""`dialtray report GAME`: text and a self-contained HTML page with a dial chart per figure; the
fairness check of the tray's dice rebuilt from the stored tray events alone."""

from __future__ import annotations

import json
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from dialrig import config
from dialtray.cli import main
from dialtray.link.fairdice import FairDice
from dialtray.link.session import TraySession
from dialtray.store import GameStore
from dialtray.store.consumer import StoringConsumer
from dialtray.store.fairness import check_dice
from dialtray.store.report import build
from dialtray.virtual.tray import VirtualTray
from storehelp import Played


def test_text_report(aces_game: Played, capsys: pytest.CaptureFixture[str]) -> None:
    p = aces_game
    db = ["--db", str(p.path)]
    assert main(["judge", "token", *db]) == 0
    token = capsys.readouterr().out.split()[-1]
    assert main(["judge", "vp", str(p.gid), "P1", "+4", "--why", "sportsmanship",
                 "--token", token, *db]) == 0
    assert main(["judge", "end", str(p.gid), "no", *db]) == 2  # no token: refused, recorded
    capsys.readouterr()
    assert main(["report", str(p.gid), *db]) == 0
    out = capsys.readouterr().out
    game = p.tracker.game
    outcome = game.outcome()
    assert outcome is not None
    for seat, vp in outcome.vp.items():
        judge = 4 if seat == "P1" else 0
        assert re.search(rf"^  {seat}\s+{vp}\s+\+{judge}\s+{vp + judge}$", out, re.M), out
    vp_events = [e.text() for entry in game.history for e in entry.events
                 if re.search(r"\bVP\b", e.text())]
    assert vp_events and all(e in out for e in vp_events)
    assert "award 4 VP to P1 (sportsmanship)" in out
    assert "game ended: no — REFUSED (no valid token)" in out
    for fig, kind, _, _ in p.store.figures(p.gid):
        assert f"\n{fig} {kind} dial (dock" in out
    assert f"Flags ({len(p.tracker.flags)})" in out
    assert out.count("put right:") == len(p.tracker.flags)
    assert "verify: game 1: ok" in out
    assert "roll(s) by the game from SeededDice" in out


def test_html_report_is_self_contained_with_a_chart_per_dial(
        aces_game: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "r.html"
    assert main(["report", str(aces_game.gid), "--html", str(page), "--db",
                 str(aces_game.path)]) == 0
    html = page.read_text()
    assert "<script" not in html and not re.search(r"(src|href)=", html)
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    assert len(svgs) == len(aces_game.store.figures(aces_game.gid))
    causes = 0
    for s in svgs:
        root = ET.fromstring(s)  # well-formed SVG
        titles = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]
        causes += sum(1 for t in titles if re.search(r"\[AC-M\d+\]", t))
    expected = sum(len(aces_game.tracker.game.dial_changes(i))
                   for i in range(len(aces_game.tracker.game.history)))
    assert causes == expected  # every click the rules made is marked with its cause
    assert main(["report", "1", "--html", str(tmp_path / "no" / "dir.html"), "--db",
                 str(aces_game.path)]) == 2
    assert "argument --html" in capsys.readouterr().err


@pytest.mark.slow(cost=1)
def test_fair_dice_checked_from_stored_tray_events(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore.open(db)
    gid = store.new_game("aces")
    with VirtualTray(config.default_config(2), seed=9) as tray:
        session = TraySession(tray.port, name="fair", ack_policy="manual")
        consumer = StoringConsumer(store, gid, session)
        with session:
            session.wait_synced(60)
            fair = FairDice(session)
            fair.begin()
            rolls = [fair.roll(3, f"roll {i}") for i in range(5)]
            verdict = fair.reveal()
            assert verdict.ok
            end = time.monotonic() + 20
            while sum(1 for r in store.rows(gid) if b'"FairReveal"' in r.content) < 9:
                assert time.monotonic() < end
                consumer.pump(0.05)
    events = [json.loads(r.content)["data"] for r in store.rows(gid) if r.kind == "device"]
    check = check_dice(events)
    assert len(check.sessions) == 1 and check.sessions[0][1].ok
    assert [r.faces for r in check.sessions[0][1].rolls] == rolls
    assert "5 roll(s), every one re-derived from the revealed seed: fair" in \
        build(store, gid).dice.lines()[0]
    # one face changed in the stored events: the check names the roll
    forged = [dict(e) for e in events]
    dice = [e for e in forged if e["type"] == "DiceRolled"]
    dice[2]["faces"] = [f % 6 + 1 for f in dice[2]["faces"]]
    bad = check_dice(forged)
    assert not bad.sessions[0][1].ok
    assert "#2" in " ".join(bad.lines())
