"""The table screen on a phone and in watch mode (issue 30): the first screen, the map and a
move by tapping a lit square at 390 px wide with nothing wider than the screen; bots in every
seat at pace 0 to the winner, every view's text free of Python reprs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dialtray.ui.server import Served
from person import LOOK, no_repr
from uikit import open_panel, serve, shot

WIDE = "() => document.scrollingElement.scrollWidth - window.innerWidth"


def test_on_a_phone(tmp_path: Path, browser: Any) -> None:
    s: Served = serve(tmp_path, kind="aces", ask=True, turns=1)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    try:
        page = ctx.new_page()
        page.goto(s.url)
        page.wait_for_selector("#seat-picker button.pick")
        assert page.evaluate(WIDE) <= 0, "the first screen is wider than the phone"
        page.get_by_role("button", name="Play P1 against a bot").tap()
        page.wait_for_selector("#board svg .dest")  # a figure is selected: its squares lit
        box = page.locator("#board svg").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert page.evaluate(WIDE) <= 0, "the table screen is wider than the phone"
        look = page.evaluate(LOOK)
        assert "(you)" in look["head"] and look["figs"], look
        page.locator(f'#t-decide .figbtn[data-figure="{look["figs"][1]}"]').tap()
        page.wait_for_function(f"() => window.dialtray.table.selected === '{look['figs'][1]}'")
        square = page.locator("#board .dest").first
        to = square.get_attribute("data-square")
        square.tap()
        page.wait_for_function("n => document.querySelectorAll('#t-moves li').length >= 1",
                               arg=1)
        assert f"move {look['figs'][1]} {to}" in page.inner_text("#t-moves")
        shot(page, "table-phone")
        no_repr([page.inner_text("body")])
    finally:
        ctx.close()
        s.close()


@pytest.mark.slow(cost=6)
def test_watch_bots_to_the_winner(tmp_path: Path, browser: Any) -> None:
    s: Served = serve(tmp_path, kind="airaction", ask=True, turns=1)
    ctx = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = ctx.new_page()
        page.goto(s.url)
        page.get_by_role("button", name="Watch: bots in every seat").click()
        page.wait_for_selector("#t-winner:not([hidden])", timeout=120_000)
        assert "wins" in page.inner_text("#t-winner") or "No winner" in page.inner_text(
            "#t-winner")
        assert not page.locator("#t-decide button").count()  # nothing for a watcher to decide
        for panel in ("tray", "game"):  # the one table screen, its panels open
            open_panel(page, panel)
        texts = [page.inner_text("#view-table")]
        shot(page, "table-watch")
        no_repr(texts)
    finally:
        ctx.close()
        s.close()
