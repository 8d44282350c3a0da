"""FASA and Sky Ace played at the table (no dial on the docks: ``table.build.Untracked``) are
stored so that ``dialtray verify`` replays them to the end (issue 34, found on the way):

- Sky Ace: each LIFE change (SA-M01 "LIFE counter") is an expectation in the store, as the
  replayed engine makes it — the recorder used to see the tracker's dial-less wrapper and store
  none, and verify failed at the first hit;
- FASA: every die is a d10 (FS-M01 "Dice"): the tracker's log line marks them ``d10:`` and the
  store keeps each face's die — the line used to be written as d6 faces, so the log did not
  replay ("'9' is not a die face") and verify failed.
"""

from __future__ import annotations

from pathlib import Path

from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.notation import format_log, parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.store import GameRecorder, GameStore
from dialtray.store.recording import RecordingTracker
from dialtray.store.resume import attach, resume
from dialtray.store.verify import verify_game
from dialtray.table import Table
from dialtray.table.build import QUICK, binding_for, game_tracker, tracker_for
from dialtray.table.games import Setup, new_game, setup_of
from dialtray.table.paper import PaperLink
from dialtray.tracker import TableDice


def stored_bot_game(db: Path, kind: str, seed: int, actions: int = 10**6
                    ) -> tuple[GameStore, int, RecordingTracker]:
    """Two bots play ``kind`` on the paper tray, every event through the store: to its end,
    or until ``actions`` actions are played (the host then stops)."""
    dice = TableDice(SeededDice(seed))
    setup = new_game(kind, dice, seed, 2)
    tracker = tracker_for(setup, binding_for(setup, 8), dice, QUICK)
    store = GameStore.open(db)
    rec = GameRecorder.start(store, tracker, origin="test")
    rt = RecordingTracker(rec, boot=lambda: 1)
    play_on(setup, rt, actions)
    return store, rec.gid, rt


def play_on(setup: Setup, rt: RecordingTracker, actions: int = 10**6) -> None:
    table = Table(setup, ["bot", "bot"], PaperLink(rt))  # type: ignore[arg-type]
    table.start()
    for _ in range(20_000):
        if table.over or len(setup.game.history) >= actions:
            break
        table.pump()
        rt.commit()
    assert table.over or len(setup.game.history) >= actions


def test_sky_ace_life_changes_are_stored_and_verify(tmp_path: Path) -> None:
    store, gid, rt = stored_bot_game(tmp_path / "g.sqlite3", "skyace", 4)
    kinds = [k for (k,) in store.conn.execute(
        "SELECT kind FROM records WHERE game_id = ?", (gid,))]
    lost = sum(1 for e in rt.game.history for ev in e.events if "LIFE" in ev.text())
    assert lost > 0, "no LIFE changed: the test would not see the bug"
    assert kinds.count("expect") >= 1
    v = verify_game(store, gid)
    assert v.ok, v.text()


def test_a_stored_sky_ace_game_is_resumed_by_another_host(tmp_path: Path) -> None:
    """``play --resume`` rebuilds the tracker with ``game_tracker``: Sky Ace's LIFE counters
    are no dock's dials (the raw engine asked for a dock for each: "no dock for P1 life")."""
    store, gid, _ = stored_bot_game(tmp_path / "g.sqlite3", "skyace", 4, actions=6)
    assert store.game(gid).status == "running"
    dice = TableDice(SeededDice(5))
    r = resume(store, gid, dice)
    tracker = game_tracker(r.game, r.binding, dice, r.header, QUICK)
    rt = RecordingTracker(attach(store, gid, tracker), boot=lambda: 2)
    setup = setup_of("skyace", tracker.game, tracker.header, 5, 2)
    play_on(setup, rt)
    assert r.game.outcome() is not None and len(r.game.history) > 6
    v = verify_game(store, gid)
    assert v.ok, v.text()


def test_fasa_d10_faces_are_marked_in_the_log_and_the_store(tmp_path: Path) -> None:
    store, gid, rt = stored_bot_game(tmp_path / "g.sqlite3", "fasa", 5)
    rolled = [ln for ln in rt.lines if not ln.startswith("#") and "|" in ln]
    assert rolled, "no die rolled: the test would not see the bug"
    assert all("| d10:" in ln.split("\n", 1)[0] for ln in rolled), rolled[:3]
    text = format_log("fasa", rt.header, rt.lines)
    replayed = replay_log(parse_log(text, "tracker.log")).game
    assert replayed.state == rt.game.state
    v = verify_game(store, gid)
    assert v.ok, v.text()
