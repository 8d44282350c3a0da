"""`dialtray play --resume` (issue 12, "Resume"): the host playing a game on the virtual tray
(the real firmware under MicroPython, on a real pty that outlives the host) is killed with
kill -9; a dial is turned while no host listens; `dialtray play --resume --port PTY` rebuilds the
game from the store, asks the tray for its dials, flags the dial that moved, and the game goes
on into the same stored game, which `dialtray verify` then passes."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from dialrig import config
from dialtray.cli import main
from dialtray.store import GameStore
from dialtray.virtual.tray import VirtualTray
from play_process import Player


@pytest.mark.slow
def test_play_resume_after_kill_flags_the_dial_moved_meanwhile_and_plays_on(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    common = ["--data-dir", str(tmp_path), "play"]
    opts = ["--seats", "human,human", "--dice", "seeded", "--plain", "--db", str(db)]
    with VirtualTray(config.default_config(8), seed=5) as tray:
        first = Player([*common, "airaction", "--port", tray.port, *opts,
                        "--log", str(tmp_path / "first.log")])
        try:
            at, deployed = 0, set[str]()
            while len(deployed) < 2:  # whoever won the first-player roll deploys first
                at = first.wait_for("you may type: deploy P", after=at) + 1
                seat = first.text[at - 1 + len("you may type: deploy "):][:2]
                if seat in deployed:  # the view printed again (a tray event) before the deploy
                    continue  # was played: its prompt is stale, the other seat's comes next
                first.type(f"deploy {seat}")
                first.wait_for(f"played: deploy {seat}", after=at)
                deployed.add(seat)
            gid = 0  # a decision is committed before the view shows it played: no wait
            assert stored_actions(db) >= 3, first.text[-3000:]  # first-player, both deploys
            st = GameStore.open(db, readonly=True)
            gid = st.latest("running").id  # type: ignore[union-attr]
            st.close()
        finally:
            first.proc.send_signal(signal.SIGKILL)  # the laptop closed: no goodbye
            first.proc.wait()
        tray.turn(1, 0, 2)  # dock 1's combat dial (A2): two clicks while no host listens
        second = Player([*common, "--resume", "--port", tray.port, *opts,
                         "--log", str(tmp_path / "second.log")])
        try:
            at = second.wait_for(f"resumed stored game {gid} at action ")
            second.wait_for("moved while the host was away: dock 1 combat dial (A2)", after=at)
            second.wait_for("dock 1 combat dial (A2): moved 2 clicks clockwise while the host "
                            "was not listening")
            second.type("speed A1 5")  # refused: the dial moved meanwhile is not put back
            second.wait_for("refused: the tray waits for the dials first", after=at)
            tray.turn(1, 0, -2)  # put back: the game goes on
            end = time.monotonic() + 60
            while "played: speed A1 5" not in second.text:
                assert time.monotonic() < end, second.text[-3000:]
                second.type("speed A1 5")
                time.sleep(1.0)
            second.type("quit")
            second.wait_for(f"stored as game {gid}")
            assert second.proc.wait(60) == 0, second.text[-2000:]
        finally:
            if second.proc.poll() is None:
                second.proc.send_signal(signal.SIGKILL)
                second.proc.wait()
    assert "Traceback" not in first.text + second.text
    assert main(["--data-dir", str(tmp_path), "verify", str(gid), "--db", str(db)]) == 0  # its key
    st = GameStore.open(db, readonly=True)
    assert st.game(gid).records > 0
    st.close()


def stored_actions(db: Path) -> int:
    if not db.exists():
        return 0
    st = GameStore.open(db, readonly=True)
    try:
        games = st.games()
        return sum(1 for r in st.rows(games[-1].id) if r.kind == "action") if games else 0
    finally:
        st.close()


def test_play_resume_refuses_clearly_when_there_is_nothing_to_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "empty.sqlite3"
    GameStore.open(db).close()
    assert main(["play", "--resume", "--port", "/dev/null", "--db", str(db)]) == 2
    assert "no running game" in capsys.readouterr().err
    assert main(["play", "--resume", "--sim", "--db", str(db)]) == 2  # --sim is fine (issue 30)
    assert "no running game" in capsys.readouterr().err  # but there is nothing to resume
    assert main(["play", "--db", str(db)]) == 2
    assert "say which rules" in capsys.readouterr().err
