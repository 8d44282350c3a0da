"""A person at the table screen, for the journey tests: reads only what the page shows and clicks
only what it offers (the seat picker, the dials it asks to turn, a figure, a lit square, a
target, a decision button), until the winner is shown.

One deliberate dial mistake per game: the first time the page asks this person to turn a dial,
they turn it one click the wrong way, wait for the page's flag, read it and put it right by the
page's own words. Every page text is scanned for Python reprs on the way (``no_repr``).
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

REPR = [re.compile(p) for p in (
    r"\b[A-Z][A-Za-z]+\((?:[a-z_]+=)",  # a dataclass's repr: GunState(plane=…
    r"\{'[^']*': ", r"\{\"[^\"]*\": ",  # a dict
    r"<[a-z_.]+ object at 0x", r"Traceback \(most recent", r"\bNone\b", r"\[\]", r"\bundefined\b",
    r"\bNaN\b", r"\[object Object\]")]

# What the page shows, read in one go (no rules: the page's own elements and words).
LOOK = """() => {
  const q = (s) => document.querySelector(s), qa = (s) => [...document.querySelectorAll(s)];
  const dials = qa('#t-dials li').map((li) => ({dock: +li.dataset.dock, reader: +li.dataset.reader,
    turn: +li.dataset.turn, mine: li.dataset.mine === '1', cls: li.className, text: li.innerText}));
  const head = q('#t-head').innerText;
  return {rev: window.dialtray.rev, head, dials,
    winner: q('#t-winner').hidden ? '' : q('#t-winner').innerText,
    picker: !q('#seat-picker').hidden,
    mine: /\\((you|a person here)\\)/.test(head),
    targets: qa('#t-decide button.tgt').map((b) => b.dataset.text),
    dests: qa('#board .dest').map((r) => r.dataset.square),
    acts: qa('#t-decide div.group button.act:not(.tgt)').map((b) => b.dataset.text),
    figs: qa('#t-decide .figbtn').map((b) => b.dataset.figure),
    selected: (window.dialtray.table || {}).selected || null,
    result: q('#t-result').innerText};
}"""

READY = """() => {
  const q = (s) => document.querySelector(s);
  if (!window.dialtray || !window.dialtray.state) return false;
  if (!q('#t-winner').hidden || !q('#seat-picker').hidden) return true;
  const lis = [...document.querySelectorAll('#t-dials li')];
  if (lis.some((li) => li.dataset.mine === '1' && li.className !== 'moving')) return true;
  if (lis.length) return false;
  return /\\((you|a person here)\\)/.test(q('#t-head').innerText) &&
    !!q('#t-decide button, #board .dest');
}"""

def q(value: str) -> str:
    """A CSS attribute value in quotes (a decision's words may hold quotes: "Half Loop")."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


AVOID = ("endgame", "withdraw", "disengage", "end ")


@dataclass
class Person:
    page: Any
    seed: int = 1
    mistake: bool = True  # one deliberate dial mistake, caught and put right
    monkey: bool = False  # any decision on screen, at random (the monkey test's page share)
    time_limit: int | None = None  # the agreed turns: past them the players call time
    decisions: int = 0
    turns: int = 0
    flags: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # a mistyped decision, refused
    texts: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def seats(self, label: str) -> None:
        """The first screen: the seat button whose words start with ``label``."""
        self.page.wait_for_selector("#seat-picker button.pick")
        self.texts.append(self.page.inner_text("#seat-picker"))
        self.page.get_by_role("button", name=re.compile("^" + re.escape(label))).click()
        self.page.wait_for_function("() => document.getElementById('seat-picker').hidden")

    def play(self, limit: float = 300.0, most: int = 2000) -> str:
        """Play until the page shows the winner; its words."""
        end = time.monotonic() + limit
        for _ in range(most):
            self.page.wait_for_function(READY, timeout=max(1000, (end - time.monotonic()) * 1000))
            look = self.page.evaluate(LOOK)
            self.texts.append(look["head"])
            if look["winner"]:
                self.texts.append(self.page.inner_text("body"))
                return str(look["winner"])
            mine = [d for d in look["dials"] if d["mine"] and d["cls"] != "moving"]
            if mine:
                self.turn(mine[0])
            elif look["mine"]:
                if self.mistake and not self._dialled():
                    self.mistype(look)
                self.decide(look)
        raise AssertionError(f"no winner after {most} steps; the page: {look}")

    # ---- dials --------------------------------------------------------------------------------

    def _click_dial(self, d: dict[str, Any], clicks: int) -> bool:
        """Press the dial's button; False when its row has gone (or is being turned) before
        the press landed: what the person looked at is stale, and the next look decides."""
        li = f'#t-dials li[data-dock="{d["dock"]}"][data-reader="{d["reader"]}"]'
        rev = self.page.evaluate("() => window.dialtray.rev")
        button = self.page.locator(f'{li} button.turn[data-clicks="{clicks}"]')
        for _ in range(20):  # a push may redraw the row between press and release: press again
            try:
                button.click(timeout=3000)
                break
            except PlaywrightTimeout:
                if not button.count() or self.page.locator(f"{li}.moving").count():
                    return False
        else:
            raise AssertionError(f"the page never held still long enough to click {li}")
        self.turns += 1
        self.page.wait_for_function("r => window.dialtray.rev > r", arg=rev)
        return True

    def turn(self, d: dict[str, Any]) -> None:
        """Turn a dial as the page asks: its words say how many clicks and which way."""
        text = d["text"]
        flagged = d["cls"] == "flag"  # a flag says how to put it right: "… turn it N clicks …"
        way = r"(\d+) clicks? (counter-clockwise|clockwise)"
        m = re.search(("turn it " if flagged else "") + way, text)
        assert m, f"the page asks to turn a dial without saying how: {text!r}"
        n = int(m.group(1)) * (-1 if m.group(2) == "counter-clockwise" else 1)
        if not flagged:
            assert n == d["turn"], (text, d["turn"])
        if self.mistake and d["cls"] == "expect":
            self.mistake = False
            if not self._click_dial(d, -1 if n > 0 else 1):  # the wrong way: must be flagged
                self.mistake = True  # the row went before the press: the mistake comes later
                return
            li = f'#t-dials li.flag[data-dock="{d["dock"]}"][data-reader="{d["reader"]}"]'
            self.page.wait_for_selector(li, timeout=15000)
            self.flags.append(self.page.inner_text(li))
            return  # the next look reads the flag's words and puts it right
        step = 1 if n > 0 else -1
        for _ in range(abs(n)):
            if not self._click_dial(d, step):
                return

    # ---- a game with no dial on the tray: the mistake is a mistyped decision ------------------

    def _dialled(self) -> bool:
        return bool(self.page.evaluate("() => window.dialtray.state.docks.length"))

    def mistype(self, look: dict[str, Any]) -> None:
        """Type, in the page's notation box, a decision the rules do not allow now (the wrong
        figure, or a place out of reach); the page must refuse it, saying why, and the game
        must not move; then play on."""
        self.mistake = False
        figs = self.page.evaluate("() => window.dialtray.game.board.figures.map((f) => f.label)")
        text = (look["targets"] + look["acts"] + [f"move x {d}" for d in look["dests"]])[0]
        words = text.split()
        for i, w in enumerate(words):
            if w in figs:
                words[i] = next(f for f in reversed(figs) if f != w)
                break
            if re.fullmatch(r"-?\d+,-?\d+", w):
                words[i] = "9,9"
                break
        else:
            words.append("twice")
        wrong = " ".join(words)
        moves = self.page.locator("#t-moves li").count()
        self.page.click("#t-all summary")
        self.page.fill("#t-typed-text", wrong)
        self.page.click("#t-all .t-typed button")
        self.page.wait_for_function(
            "() => /✖/.test(document.getElementById('t-result').innerText)")
        self.refusals.append(self.page.inner_text("#t-result"))
        assert self.page.locator("#t-moves li").count() == moves, "a refused decision moved"
        self.page.click("#t-all summary")  # closed again

    # ---- decisions ----------------------------------------------------------------------------

    def decide(self, look: dict[str, Any]) -> None:
        rng = self.rng
        if self.monkey:
            return self._any(look)
        turn = re.search(r"turn (\d+)", look["head"])
        call = [a for a in look["acts"] if a.startswith(("end time", "endgame time"))]
        if self.time_limit is not None and turn and int(turn.group(1)) > self.time_limit:
            if call:
                return self._act(f'#t-decide div.group button.act[data-text={q(call[0])}]')
            kind = self.page.evaluate("() => window.dialtray.game.kind")
            if kind == "airaction" and self.page.locator("#t-typed-text").count():
                # Air Action lists no time call: the players type it (AA-M53(2)). The list is
                # opened only if closed: on a loaded machine the last look can come before the
                # page took the typed call, and a second click on the summary closed the list
                # (the text box then hidden: a 30 s wait for it, and the journey failed).
                if not self.page.evaluate("() => document.getElementById('t-all').open"):
                    self.page.click("#t-all summary")
                self.page.fill("#t-typed-text", "end time")
                return self._act("#t-all .t-typed button")
        if look["targets"] and rng.random() < 0.9:
            return self._act(f'#t-decide button.tgt[data-text={q(rng.choice(look["targets"]))}]')
        acts = [a for a in look["acts"] if not a.startswith(AVOID)]
        if look["dests"] and (not acts or rng.random() < 0.8):
            return self._any({**look, "targets": [], "acts": [], "figs": [],
                              "dests": [self._toward(look["dests"])]})
        if acts:
            plain = [a for a in acts if not a.startswith("pass")] or acts
            return self._act(f'#t-decide div.group button.act[data-text={q(rng.choice(plain))}]')
        others = [f for f in look["figs"] if f != look["selected"]]
        if others:  # this figure has nothing to do: select another
            self.page.locator(f'#t-decide .figbtn[data-figure="{rng.choice(others)}"]').click()
            self.page.wait_for_function("s => (window.dialtray.table || {}).selected !== s",
                                        arg=look["selected"])
            return None
        if look["acts"]:
            return self._act(f'#t-decide div.group button.act[data-text={q(look["acts"][0])}]')
        raise AssertionError(f"the page offers nothing to decide: {look}")

    def _any(self, look: dict[str, Any]) -> None:
        """A monkey's decision: any figure, square, target or button the page offers now."""
        rng = self.rng
        picks: list[tuple[str, str]] = [("tgt", t) for t in look["targets"]]
        picks += [("dest", d) for d in look["dests"]] + [("act", a) for a in look["acts"]]
        picks += [("fig", f) for f in look["figs"] if f != look["selected"]]
        kind, what = rng.choice(picks)
        if kind == "fig":
            self.page.locator(f'#t-decide .figbtn[data-figure={q(what)}]').click()
            self.page.wait_for_function("s => (window.dialtray.table || {}).selected !== s",
                                        arg=look["selected"])
            return None
        if kind == "dest":
            rev = self.page.evaluate("() => window.dialtray.rev")
            self.page.locator(f"#board .dest[data-square={q(what)}]").click()
            how = self.page.locator("#t-decide button.how")  # a place reached several ways
            if how.count():
                self._act(f"#t-decide button.how >> nth={rng.randrange(how.count())}")
            else:
                self._wait_decided(rev)
            return None
        sel = "button.tgt" if kind == "tgt" else "div.group button.act"
        return self._act(f"#t-decide {sel}[data-text={q(what)}]")

    def _toward(self, squares: list[str]) -> str:
        """Of the lit squares, one nearest the other side's figures (most of the time)."""
        foes = self.page.evaluate("""() => {
          const g = window.dialtray.game, s = window.dialtray.state;
          return g.board.figures.filter((f) => f.at && !s.people.includes(f.seat))
            .map((f) => f.at); }""")
        if not foes or self.rng.random() < 0.2:
            return str(self.rng.choice(squares))

        def far(sq: str) -> int:
            if "," in sq:  # a Sky Ace cell
                x, y = (int(v) for v in sq.split(","))
            else:
                x, y = ord(sq[0]) - 97, int(sq[1:]) - 1
            return int(min(max(abs(x - a), abs(y - b)) for a, b in foes))
        return min(squares, key=far)

    def _act(self, selector: str) -> None:
        rev = self.page.evaluate("() => window.dialtray.rev")
        self.page.locator(selector).first.click()
        self._wait_decided(rev)

    def _wait_decided(self, rev: int) -> None:
        self.decisions += 1
        self.page.wait_for_function(
            "r => window.dialtray.rev > r || "
            "/✖/.test(document.getElementById('t-result').innerText)",
            arg=rev)
        said = self.page.inner_text("#t-result")
        assert "✖" not in said, f"the page refused what it offered: {said}"


def no_repr(texts: list[str]) -> None:
    """No Python repr, dataclass text or dict in anything the page showed."""
    for text in texts:
        for p in REPR:
            m = p.search(text)
            if m is not None:
                near = text[max(0, m.start() - 60):m.end() + 60]
                raise AssertionError(f"a repr on the page ({p.pattern}): …{near}…")
