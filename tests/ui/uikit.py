"""The web UI tests' helpers (conftest.py holds the fixtures): a served game on the virtual
tray (the real firmware under MicroPython, a real pty, the store in a temporary SQLite file,
uvicorn on a loopback port) and where Debian's Chromium is (Playwright drives it; installed by
scripts/install_test_tools.sh).

Browser tests skip, saying why, where Playwright or Chromium cannot be had; CI installs both.
Screenshots of every view go to tests/ui/screenshots/ (not committed) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dialtray.commands._common import sim_missing
from dialtray.table.games import new_game
from dialtray.tracker import Timing
from dialtray.ui import layout as lay
from dialtray.ui.server import Options, Served

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).parent / "screenshots"
TIMING = Timing(judge_s=0.25, grace_s=0.5)


def serve(tmp: Path, *, kind: str = "airaction", bots: bool = False, turns: int = 1,
          host: str = "127.0.0.1", seed: int = 3, tray_seed: int = 11,
          hold: bool = False, ask: bool = False, players: tuple[str, ...] | None = None,
          pace: float = 0.0, quadrature: bool = False) -> Served:
    why = sim_missing()
    if why:
        pytest.skip(why)
    layout_file = ROOT / "calibration" / lay.LAYOUT_FILE
    return Served(Options(
        make_game=lambda dice: new_game(kind, dice, seed, turns), db=tmp / "games.sqlite3",
        layout=lay.find([layout_file], 8), docks=8, sim=True, bots=bots, host=host,
        seed=tray_seed, hold=hold, timing=TIMING, ask=ask, players=players,
        pace=pace, quadrature=quadrature))


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def apply(state: dict[str, Any], m: dict[str, Any]) -> dict[str, Any]:
    """A pushed message applied as the page applies it: a whole state, or a patch on its base
    (a dock it names whole replaced, or its readers' fields it names changed; the keys it sets
    set; the log's new lines added)."""
    if m["op"] == "state":
        return m
    if m["rev"] <= state["rev"]:  # already in the whole state a new page was sent first
        return state
    assert m["op"] == "patch" and m["base"] == state["rev"], (m["base"], state["rev"])
    by = {d["dock"]: d for d in m["docks"]}
    docks = []
    for d in state["docks"]:
        p = by.get(d["dock"], {"changes": []})
        if "readers" in p:
            docks.append(p)
            continue
        readers = list(d["readers"])
        for i, fields in p["changes"]:
            readers[i] = {**readers[i], **fields}
        docks.append({**d, "readers": readers})
    tails = {k: (state[k] + add)[-n:] for k, (add, n) in m.get("tails", {}).items()}
    return {**state, **m["set"], "docks": docks, **tails, "rev": m["rev"],
            "received": m["received"], "sent": m["sent"]}


def open_panel(page: Any, name: str) -> None:
    """Open a panel of the one table screen (``tray``: the docks and LED dice; ``game``: the
    full notation and the log) as a person does, by clicking its heading (only when shut: a
    second click would fold it again), from the table's view (its tab first when another shows)."""
    if page.locator("#view-table").is_hidden():  # on the report or the judge's view
        page.click("#tab-table")
    if not page.evaluate(f"document.getElementById('view-{name}').open"):
        page.click(f"#tab-{name}")
    page.wait_for_selector(f"#view-{name}[open]")
