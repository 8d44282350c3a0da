"""Judge rulings made while a game is played (issue 12, "The judge"): `dialtray judge` (another
connection) stores the ruling; the host playing the game applies it to its live tracker at its
next commit and shows it — undo an action (the dials go back, flagged until turned), set a
dial's expectation, award VP, decide a dispute, end the game — and a ruling without the token is
shown as refused. The game, rulings and all, still verifies."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.store import GameStore
from dialtray.store.verify import verify_game
from dialtray.table.build import on_paper
from dialtray.tracker import OVER
from dialtray.tracker.hands import Hands
from dialtray.ui.terminal.view import render
from paper import bot_move
from rich.console import Console
from storehelp import recorded_game, ruled_tray


def test_rulings_during_a_live_game_are_applied_by_the_tracker_and_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "live.sqlite3"
    s, t, rec = recorded_game(db, "aces", 3, 2)
    shown: list[str] = []
    rt, tray = ruled_tray(rec, shown)
    hands = Hands(rt, s.brain)  # type: ignore[arg-type]
    for _ in range(5000):  # play until an action that turned dials is done and confirmed
        n = len(t.game.history)
        if n >= 3 and t.ready() and list(t.game.dial_changes(n - 1)):
            break
        bot_move(tray, hands, rt.decide, pause=0.05)
    else:
        raise AssertionError("no action turned a dial")
    rt.commit()
    n = len(t.game.history)
    last = t.game.history[-1].action.text()
    changed = {ch.key for ch in t.game.dial_changes(n - 1)}
    gid = str(rec.gid)
    assert main(["judge", "token", "--db", str(db)]) == 0
    token = capsys.readouterr().out.split()[-1]
    judge = ["--token", token, "--db", str(db)]

    # undo: the engine takes the action back, the dials it turned are due back (flagged)
    assert main(["judge", "undo", gid, "--why", "misread range", *judge]) == 0
    rt.commit()
    assert len(t.game.history) == n - 1
    assert shown[-1].startswith(f"judge's ruling: undo '{last}'")
    assert f"'{last}' taken back" in shown[-1]
    tray.settle()
    back = [st for st in t.slots.values() if st.dial in changed and st.offset]
    assert back, "the undone action's clicks must be turned back"
    assert not t.ready()
    for st in back:
        assert st.flag is not None and "the judge took the last action back" in st.flag.text
        tray.click_by_click(st.slot, -st.offset)
    tray.settle()
    assert all(st.flag is None for st in back) and t.ready(), t.waiting_for()
    assert any(str(line).startswith(f"# undone by the judge: {last}") for line in t.lines)

    # set-dial: that dial must show the ruled click: flagged until it does
    st = next(iter(t.slots.values()))
    setting = t.dials()[st.dial]
    click = (setting.click or 0) + 1
    assert main(["judge", "set-dial", gid, st.dial.figure, st.dial.kind, str(click),
                 *judge]) == 0
    rt.commit()
    assert f"{st.label} must show click {click}" in shown[-1]
    tray.settle()
    assert st.flag is not None and not t.ready()
    tray.click_by_click(st.slot, -st.offset)
    tray.settle()
    assert st.flag is None and t.ready()

    # VP and a dispute: kept and shown
    assert main(["judge", "vp", gid, "P1", "2", *judge]) == 0
    assert main(["judge", "dispute", gid, "line of fire to c5", "refused", *judge]) == 0
    rt.commit()
    assert t.judge_vp == {"P1": 2}
    # the play screen shows the judge's VP beside the game (a table's view of this tracker)
    table = on_paper("aces", ["bot", "bot"])
    table.t.judge_vp = dict(t.judge_vp)  # type: ignore[attr-defined]
    screen = Console(width=200, record=True, file=io.StringIO())
    screen.print(render(table.view(), humans=[], narration=[], messages=shown, sim=False,
                        width=200, height=40))
    text = screen.export_text()
    assert "judge's VP: P1 +2" in text and "award 2 VP to P1" in text
    assert shown[-2] == "judge's ruling: award 2 VP to P1 — judge's VP for P1 now +2"
    assert shown[-1].startswith("judge's ruling: dispute 'line of fire to c5': refused")

    # no token: refused, recorded, and the table is told
    assert main(["judge", "end", gid, "time called", "--db", str(db)]) == 2
    rt.commit()
    assert shown[-1].startswith("a ruling was refused (no valid judge token)")
    assert t.phase != OVER

    # end: the live game stops
    assert main(["judge", "end", gid, "time called", *judge]) == 0
    rt.commit()
    assert t.phase == OVER and "game ended: time called" in shown[-1]
    rt.commit()
    st2 = GameStore.open(db, readonly=True)
    v = verify_game(st2, rec.gid)
    assert v.ok, v.text()
    assert any("judge's ruling" in note for note in t.notes)
