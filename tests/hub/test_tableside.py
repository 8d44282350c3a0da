"""The table's side of an event without a network (the link is made but never started: the game
must not care): the live state is built from the real tracker's view, published only when it
changed and at most every 0.1 s; the roll button held 3 s calls the judge, a tap does not; when
the round's clock runs out the table ends an Aces game with the rules' own `endgame time`
(AC-M67 (2)) once the dials agree, not before."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from dialtray.hub.sim import wait_for
from dialtray.hub.tableside import HOLD_NOTE, STATE_EVERY_S, EventAddress, EventTable, parse_url
from dialtray.link.messages import ButtonPressed, ButtonReleased
from dialtray.store.db import GameStore
from dialtray.tracker import PLAY, START
from hubhelp import agree, tracker

CREDS = {"table": "t9", "password": "pw", "ruling_key": b"k" * 16, "event": "ev1"}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table(tmp_path: Path, clock: Clock | None = None, hold_s: float = 3.0) -> EventTable:
    GameStore.open(tmp_path / "g.sqlite3").close()
    return EventTable(tmp_path / "g.sqlite3", EventAddress("127.0.0.1", 1, None), CREDS,
                      clock=clock or Clock(), hold_s=hold_s)


def test_live_state_only_when_changed_and_rate_limited(tmp_path: Path) -> None:
    clock = Clock()
    ev = table(tmp_path, clock)
    t = tracker("airaction")
    agree(t, clock.now)
    ev._pairing({"round": 1, "left_s": 100})
    said: list[str] = []
    ev.step(t, said.append)
    assert ev.states == 1
    state = json.loads(ev._state)
    assert state["phase"].startswith("turn ") and state["left_s"] == 100
    assert set(state["dials"]) == {f"{p} {k}" for p in ("A1", "A2", "A3", "B1", "B2", "B3")
                                   for k in ("combat", "speed")} | {"A1 ace", "B1 ace"}
    assert {v for k, v in state["dials"].items() if k.endswith("combat")} == {0}  # start
    clock.now += STATE_EVERY_S / 2
    ev._pairing({"round": 1, "left_s": 50})  # changed, but too soon after the last
    ev.step(t, said.append)
    assert ev.states == 1
    clock.now += STATE_EVERY_S
    ev.step(t, said.append)
    assert ev.states == 2
    clock.now += STATE_EVERY_S  # may send, nothing changed (the clock shows whole seconds)
    ev.step(t, said.append)
    assert ev.states == 2
    assert said == []


def test_roll_button_held_calls_the_judge_a_tap_does_not(tmp_path: Path) -> None:
    ev = table(tmp_path, hold_s=0.3)
    ev.tray_event(ButtonPressed(1))
    ev.tray_event(ButtonReleased(2))  # a tap: the tray rolls its dice, nobody is called
    done = threading.Event()
    threading.Timer(0.6, done.set).start()
    done.wait()
    assert ev.calls == []
    ev.tray_event(ButtonPressed(3))
    wait_for(lambda: ev.calls == [HOLD_NOTE], 5, "the judge called by the held button")
    said: list[str] = []
    ev.step(tracker("airaction"), said.append)
    assert said and said[0].startswith(f"judge called ({HOLD_NOTE})")


def test_round_clock_ends_an_aces_game_once_the_dials_agree(tmp_path: Path) -> None:
    clock = Clock()
    ev = table(tmp_path, clock)
    t = tracker("aces")
    ev._pairing({"round": 1, "left_s": 0})  # the round's time is up
    said: list[str] = []
    ev.step(t, said.append)
    assert t.phase == START and not ev.time_ended  # the dials first: tried again later
    agree(t, clock.now)
    assert t.phase == PLAY
    clock.now += 1
    ev.step(t, said.append)
    out = t.game.outcome()
    assert ev.time_ended and out is not None and "AC-M67 (2)" in str(out.termination)
    assert said == ["the round's time is up: the game ends (endgame time, AC-M67 (2))"]


@pytest.mark.parametrize("url, why", [
    ("http://hub/ev", "expected mqtt://"), ("mqtt://hub:99999/ev", "port"),
    ("mqtt://t1:pw@hub/ev", "no password in the URL"), ("mqtt://hub/a b", "letters, digits")])
def test_bad_event_urls_are_named(url: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_url(url)
    assert parse_url("mqtt://hub.local/spring") == EventAddress("hub.local", 1883, "spring")


def test_the_urls_event_must_be_the_credentials_one(tmp_path: Path) -> None:
    GameStore.open(tmp_path / "g.sqlite3").close()
    with pytest.raises(ValueError, match="the URL names event 'spring', the credentials 'ev1'"):
        EventTable(tmp_path / "g.sqlite3", parse_url("mqtt://hub/spring"), CREDS)
    assert EventTable(tmp_path / "g.sqlite3", parse_url("mqtt://hub"), CREDS).event == "ev1"


def test_no_hub_no_game_said_in_one_line(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`play --event` with the hub out of reach: after --wait, one line says why, before any
    tray starts (exit 1), and the table's outbox trigger is gone again."""
    from dialtray import cli

    creds = tmp_path / "t9.json"
    creds.write_text(json.dumps({**CREDS, "ruling_key": "6b" * 16}))
    db = tmp_path / "games.sqlite3"
    code = cli.main(["play", "airaction", "--sim", "--event", "mqtt://127.0.0.1:1/ev1",
                     "--creds", str(creds), "--wait", "0.3", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 1
    assert "no table assignment within 0.3 s: the event's broker is not reachable" in err
    assert "Traceback" not in err
    with GameStore.open(db, readonly=True) as st:
        assert st.latest() is None  # no game was started
        assert st.conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = "
                               "'hub_outbox_fill'").fetchone() == (0,)


def test_the_round_clock_ends_the_game_through_the_table_and_its_view_is_published(
        tmp_path: Path) -> None:
    """`play`/`serve --event` hand the table side their ``dialtray.table.Table``: the time-limit
    decision is the table's own (narrated, stored like any decision) and the live state carries
    the table's view — the title, the turn, the end with its score rows."""
    from dialtray.table import on_paper

    clock = Clock()
    ev = table(tmp_path, clock)
    game = on_paper("aces", ["human", "bot"], seed=3)
    for _ in range(50):  # a few of the game's first steps, bots and bookkeeping
        game.pump()
    ev._pairing({"round": 1, "left_s": 0})
    said: list[str] = []
    for _ in range(20):
        ev.step(game, said.append)
        if ev.time_ended:
            break
        clock.now += 1
        game.pump()
    assert ev.time_ended and game.over
    assert "the round's time is up: the game ends (endgame time, AC-M67 (2))" in said
    assert any(line == "table played: endgame time" for line in game.narration), \
        game.narration[-5:]
    state = json.loads(ev._state)
    assert state["title"] == "Crimson Skies: Aces"
    assert state["over"]["scores"] and state["phase"].startswith("over: ")
