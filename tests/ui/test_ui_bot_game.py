"""A whole bot game of Air Action on the virtual tray, followed live in a real Chromium.

The bots turn the virtual dials (through the firmware and the link) and type their decisions;
the page must follow every step: each click due shows on the dock that must turn it, the odds of
each shot offered match `dialtray odds`, and the page ends on the game's end with the dials,
the decisions count and the log exactly as the tracker has them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dialtray.ui.server import Served
from uikit import open_panel, serve, shot

BIN = Path(sys.executable).parent
GAME_MS = 240_000  # generous: the whole game, on two shared cores
MAX_CLI_CHECKS = 2


@pytest.fixture(scope="module")
def bot_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    s = serve(tmp_path_factory.mktemp("bots"), bots=True, turns=3, seed=3, hold=True)
    try:
        yield s
    finally:
        s.close()


def test_a_bot_game_is_followed_live_to_its_end(browser: Any, bot_table: Served) -> None:
    t = bot_table.tracker
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(bot_table.url)
    page.wait_for_function("window.dialtray && window.dialtray.rev > 0", timeout=30_000)
    bot_table.live.go()  # the bots start once the page follows
    # a click due, shown on the dock that must turn it (the page notes each one it renders:
    # the bots turn them within milliseconds)
    page.wait_for_function("window.dialtray.turns.length > 0", timeout=GAME_MS)
    shot(page, "tray-mid-game")
    page.wait_for_function("window.dialtray.state && window.dialtray.state.phase === 'over'",
                           timeout=GAME_MS)
    assert t.phase == "over" and t.game.outcome() is not None
    assert not bot_table.live.error, bot_table.live.error
    # the page ends where the tracker ended
    final = page.evaluate("window.dialtray.state")
    assert final["rev"] == bot_table.live.rev
    # built from patches all game long, the page's state is the server's whole state
    whole = json.loads(bot_table.live.latest["state"])
    assert {k: v for k, v in final.items() if k not in ("game", "arrived")} == whole
    assert final["game"]["history"] == len(t.game.history)
    assert final["game"]["outcome"] == t.view().outcome
    open_panel(page, "tray")  # the tray's panel of the one table screen
    assert "The game is over" in page.inner_text("#phase-line")
    for dv in t.docks():
        if dv.click is not None:
            assert f"{dv.figure} {dv.kind} dial — the rules say click {dv.click}" in \
                page.inner_text(f"#dock-{dv.dock}")
    # every click due the page showed was on the dock the tracker named
    turns = page.evaluate("window.dialtray.turns")
    due = [c for c in t.confirmed if not c.free]
    assert due, "the game made no click due: nothing to follow (pick another seed)"
    assert turns, f"{len(due)} clicks due, none shown"
    for seen in turns:
        assert seen["text"].startswith(f"dock {seen['dock']} "), seen
        assert re.search(r"\d+ clicks? (counter-)?clockwise", seen["text"]), seen
    shown_docks = {s["dock"] for s in turns}
    due_docks = {int(c.text.split()[1]) for c in due}
    assert shown_docks <= due_docks, (shown_docks, due_docks)
    # the odds of the shots the page offered match the odds command
    odds = page.evaluate("window.dialtray.odds")
    checked: set[tuple[int, int, int | None]] = set()
    for o in odds:
        key = (o["dice"], o["target"], o["clicks_left"])
        if key in checked or len(checked) >= MAX_CLI_CHECKS:
            continue
        checked.add(key)
        argv = [str(BIN / "dialtray"), "odds", "--dice", str(key[0]), "--target", str(key[1])]
        if key[2] is not None:
            argv += ["--clicks-left", str(key[2])]
        cli = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        want = [float(m) for m in re.findall(r"^\s*\d+\s+\S+\s+\S+\s+(\d\.\d{6})\s*$", cli, re.M)]
        got = [round(p, 6) for p in o["clicks"]]
        assert got == want[:len(got)] and all(p == 0 for p in want[len(got):]), (o, cli)
    print(f"bot game: {len(t.game.history)} decisions, {page.evaluate('window.dialtray.rev')} "
          f"states shown, {len(turns)} clicks-due renders, {len(checked)} odds checked "
          f"against `dialtray odds` ({len(odds)} shot charts shown)")
    shot(page, "tray-game-over")
    open_panel(page, "game")
    shot(page, "game-over")
    log = page.inner_text("#log")
    assert "# game over" in log
    page.click("#tab-report")  # the report of the game just played, from the store
    page.wait_for_selector(f"#report-game option[value='{bot_table.live.game_id}']",
                           state="attached", timeout=30_000)
    page.select_option("#report-game", str(bot_table.live.game_id))
    page.click("#report-form button[type=submit]")
    page.wait_for_selector("#report table.vp", timeout=30_000)
    outcome = t.game.outcome()
    assert outcome is not None
    for seat, vp in outcome.vp.items():
        row = page.inner_text(f"#report table.vp tr:has(th:text-is('{seat}'))")
        assert row.split()[1] == str(vp), (seat, row)
    assert "✔ verify" in page.inner_text("#report")
    shot(page, "report-bot-game")
    page.close()
