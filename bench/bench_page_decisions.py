"""Benchmark the table screen: a person's decision (a click on a lit square, a target, a
decision button) → the page showing its result (the move list has the new move), in Chromium.

    .venv/bin/python bench/bench_page_decisions.py [--decisions N] [--games aces,airaction]

`dialtray serve`'s parts on the virtual tray (the real firmware under MicroPython, a pty, the
tracker, the store, uvicorn + websockets), hot-seat so every decision is the page's. The time
is taken in the page: from just before the click's event is dispatched to the moment a
MutationObserver sees the move list change (the decision went to the server over the
websocket, was checked and applied by the tracker, stored, the game's new state built and
pushed, and the page redrew the board, the decisions and the move list). Dials the rules turn
are turned on the page between decisions (not timed). Also: how long a whole game takes with
bots in every seat at pace 0, watched on the page (seat picker → the winner shown).

Prints a table and writes bench/results/page_decisions.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "page_decisions.json"
sys.path.insert(0, str(ROOT / "tests" / "ui"))
sys.path.insert(0, str(ROOT / "tests"))

from browsers import chromium_path  # noqa: E402
from person import LOOK, READY, Person, q  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from uikit import serve  # noqa: E402

TIMED = """async (sel) => {
  const list = document.getElementById('t-moves');
  const el = document.querySelector(sel);
  const n0 = list.children.length, last0 = list.lastElementChild && list.lastElementChild.value;
  const done = new Promise((res) => {
    const o = new MutationObserver(() => {  // a new move at the end of the list
      const last = list.lastElementChild && list.lastElementChild.value;
      if (list.children.length > n0 || last !== last0) { o.disconnect(); res(performance.now()); }
    });
    o.observe(list, {childList: true, subtree: true, characterData: true});
  });
  const t0 = performance.now();
  el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const t1 = await Promise.race([done, new Promise((r) => setTimeout(() => r(-1), 15000))]);
  return t1 < 0 ? -1 : t1 - t0;
}"""


MANY = """(sel) => { const sq = document.querySelector(sel).dataset.square;
  const g = window.dialtray.game, f = g.choices.figures.find(
    (x) => x.label === (window.dialtray.table || {}).selected);
  return f ? f.moves.filter((m) => m.to === sq).length : 1; }"""


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


def decisions(browser: Any, kind: str, want: int, seed: int) -> list[float]:
    """Decision → move list latencies (ms) over hot-seat games of ``kind``."""
    out: list[float] = []
    rng = random.Random(seed)
    while len(out) < want:
        with tempfile.TemporaryDirectory() as tmp:
            s = serve(Path(tmp), kind=kind, ask=True, turns=2, seed=seed + len(out))
            ctx = browser.new_context(viewport={"width": 1100, "height": 900})
            try:
                page = ctx.new_page()
                page.goto(s.url)
                person = Person(page, seed=seed, mistake=False)
                person.seats("Hot-seat")
                while len(out) < want:
                    page.wait_for_function(READY, timeout=60_000)
                    look = page.evaluate(LOOK)
                    if look["winner"]:
                        break
                    mine = [d for d in look["dials"] if d["mine"] and d["cls"] != "moving"]
                    if mine:
                        person.turn(mine[0])
                        continue
                    sel = _choice(look, rng)
                    if sel is not None and sel.startswith("#board .dest"):
                        many = page.evaluate(MANY, sel)
                        if many > 1:  # a place reached several ways: the page asks which
                            page.locator(sel).click()
                            sel = f"#t-decide button.how:nth-of-type({rng.randrange(many) + 1})"
                    if sel is None:
                        person.decide(look)  # select another figure: not a decision
                        continue
                    ms = page.evaluate(TIMED, sel)
                    if ms < 0:
                        raise RuntimeError(f"no move shown within 15 s after {sel}: "
                                           + page.inner_text("#t-result"))
                    out.append(ms)
                    # the state (the dials it made due) follows the game's message, when the
                    # decision changed it
                    with contextlib.suppress(PlaywrightTimeout):
                        page.wait_for_function(
                            "() => window.dialtray.state.game_rev >= window.dialtray.gameRev",
                            timeout=2000)
            finally:
                ctx.close()
                s.close()
    return out


def _choice(look: dict[str, Any], rng: random.Random) -> str | None:
    if look["targets"]:
        return f"#t-decide button.tgt[data-text={q(rng.choice(look['targets']))}]"
    acts = [a for a in look["acts"] if not a.startswith(("endgame", "withdraw", "disengage"))]
    if look["dests"] and (not acts or rng.random() < 0.8):
        return f"#board .dest[data-square={q(rng.choice(look['dests']))}]"
    if acts:
        return f"#t-decide div.group button.act[data-text={q(rng.choice(acts))}]"
    return None


def bot_game(browser: Any, kind: str, seed: int) -> float:
    """Seconds from the seat picker's "Watch" to the winner on the page (pace 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        s = serve(Path(tmp), kind=kind, ask=True, turns=2, seed=seed)
        ctx = browser.new_context()
        try:
            page = ctx.new_page()
            page.goto(s.url)
            page.wait_for_selector("#seat-picker button.pick")
            t0 = time.perf_counter()
            page.get_by_role("button", name="Watch: bots in every seat").click()
            page.wait_for_selector("#t-winner:not([hidden])", timeout=300_000)
            return time.perf_counter() - t0
        finally:
            ctx.close()
            s.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=60, help="per game kind (default 60)")
    ap.add_argument("--games", default="aces,airaction")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    exe = chromium_path()
    if exe is None:
        print("no Chromium (scripts/install_test_tools.sh)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    rows: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe,
                                    args=["--no-sandbox", "--disable-dev-shm-usage"])
        for kind in args.games.split(","):
            ms = decisions(browser, kind, args.decisions, args.seed)
            game_s = bot_game(browser, kind, args.seed)
            rows[kind] = {"decisions": len(ms), "p50_ms": round(pct(ms, 50), 1),
                          "p99_ms": round(pct(ms, 99), 1), "max_ms": round(max(ms), 1),
                          "mean_ms": round(statistics.fmean(ms), 1),
                          "bot_game_pace0_s": round(game_s, 2)}
        browser.close()
    print(f"{'game':<11} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'bot game at pace 0 (s)':>23}")
    for kind, r in rows.items():
        print(f"{kind:<11} {r['decisions']:>9} {r['p50_ms']:>8} {r['p99_ms']:>8} "
              f"{r['max_ms']:>8} {r['bot_game_pace0_s']:>23}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"what": "decision -> the page's move list shows it "
                                   "(Chromium, hot-seat, virtual tray); a bots-only game at "
                                   "pace 0 watched on the page", "games": rows}, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
