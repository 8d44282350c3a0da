"""Players decide through the page and turn what it tells them to (Aces on the virtual tray).

The test is the players: it takes the greedy bot's choice (asked on the table's thread) and
clicks its button among the legal decisions — or types it when it is past the first buttons —
until the rules make clicks due. Then the dock that must turn is highlighted with what to turn
("1 click clockwise — …"), every other dock is not, and once the test turns that many clicks on
the virtual dial the dock is back to "as the rules say".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from dialtray.table.games import AcesBrain
from dialtray.tracker.marks import turn_words
from dialtray.ui.server import Served
from uikit import open_panel, serve, shot

WAIT_MS = 20_000
MAX_DECISIONS = 60


@pytest.fixture(scope="module")
def aces(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    s = serve(tmp_path_factory.mktemp("aces"), kind="aces")
    try:
        yield s
    finally:
        s.close()


def test_decisions_from_the_page_and_the_clicks_due_on_the_right_dock(
        browser: Any, aces: Served) -> None:
    t = aces.tracker
    brain = AcesBrain(5)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(aces.url + "#game")
    page.wait_for_function("window.dialtray && window.dialtray.rev > 0", timeout=WAIT_MS)
    assert t.phase == "play"
    clicked = typed = 0
    for _ in range(MAX_DECISIONS):
        if any(s.exp is not None for s in t.slots.values()):
            break
        text = aces.live.call(lambda: brain.choose(t.game).text()).result(20)
        before = len(t.game.history)
        button = page.locator(f"#legal button.act[data-text='{text}']")
        if button.count():
            button.click()
            clicked += 1
        else:
            page.fill("#typed-text", text)
            page.click("#typed button[type=submit]")
            typed += 1
        page.wait_for_function("t => document.querySelector('#result').textContent.includes(t)",
                               arg=text, timeout=WAIT_MS)
        assert "✔" in page.inner_text("#result"), page.inner_text("#result")
        assert len(t.game.history) > before
    due = [s for s in t.slots.values() if s.exp is not None]
    assert due, f"no clicks due after {MAX_DECISIONS} decisions"
    assert clicked, "no decision was taken with its button"
    open_panel(page, "tray")
    for s in due:
        assert s.exp is not None
        sel = f"#dock-{s.slot.dock}[data-status='turn'] .reader[data-reader="
        sel += "'combat']" if s.slot.dial == 0 else "'speed']"
        page.wait_for_selector(sel + " .expect", timeout=WAIT_MS)
        words = page.inner_text(sel + " .expect")
        assert turn_words(s.exp.total) in words and s.exp.causes[0].rule_id in words, words
        assert "↻" in page.inner_text(f"#dock-{s.slot.dock} h3")  # not colour alone
    highlighted = page.eval_on_selector_all(
        ".dock[data-status='turn']", "els => els.map(e => Number(e.dataset.dock))")
    assert sorted(highlighted) == sorted({s.slot.dock for s in due})
    shot(page, "tray-expectation")
    for s in due:
        assert s.exp is not None
        aces.tray.turn(s.slot.dock, s.slot.dial, s.exp.total)  # as the page says
    for s in due:
        page.wait_for_selector(f"#dock-{s.slot.dock}[data-status='ok']", timeout=WAIT_MS)
    assert all(s.exp is None and s.flag is None for s in due)
    print(f"{len(t.game.history)} decisions ({clicked} by button, {typed} typed); clicks due on "
          f"dock(s) {sorted(highlighted)} shown and put right")
    page.close()
