"""The host away longer than the tray's ring log lasts, end to end: the real firmware under
MicroPython (a ring of 16 events instead of 2 048, so a few clicks overflow it), a real pty,
the link, the tracker, the store, and what the players and a judge are shown.

The replay is refused and the link restores the dials from the tray's snapshot; an absolute
dial turned 8 clicks is read the nearer way round (4 back). Every dial so restored is flagged
``check`` (tracker.restored) until the players confirm it — turned to the click the rules say,
or one click and back when it already shows it; the store keeps the flags and a note for the
judge that the replay was refused; a host killed during the re-sync leaves the check to the next
host (store.resume.carry_checks) instead of losing it.

Each test waits on conditions (the dial seen by the firmware, flags raised, records stored)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from dialrig import config
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.store.report import build, text
from dialtray.store.resume import open_checks
from dialtray.store.table import StoredTable
from dialtray.store.verify import verify_game
from dialtray.table.games import new_game
from dialtray.table.stored import (
    StorePlace,
    pick_resume,
    restored_labels,
    resumed_table,
    resumed_words,
    resync,
)
from dialtray.table.table import Table
from dialtray.tracker import PLAY, Slot, TableDice, Timing, Tracker, auto_bind
from dialtray.tracker import marks as mk
from dialtray.ui.layout import grid
from dialtray.ui.state import StateBuilder
from dialtray.ui.terminal.view import plain_lines
from dialtray.virtual.tray import VirtualTray

RING = 16  # the firmware's smallest ring log (config.validate): 17 events overflow it
A1, A2, A3 = Slot(0, 0), Slot(1, 0), Slot(2, 0)  # combat dials, all at click 0 at the start
TIMING = Timing(judge_s=0.25, grace_s=0.5)


def small_ring() -> dict[str, object]:
    cfg = config.default_config(8)
    cfg["settle_ms"] = 10
    cfg["sample_ms"] = 1
    cfg["ring_size"] = RING
    return cfg


@dataclass
class Host:
    session: TraySession
    table: StoredTable
    tracker: Tracker
    store: GameStore

    def kill(self) -> None:
        """The host process gone at once: no goodbye to the tray, nothing more stored (every
        pump committed what it took; the tray keeps what was never acknowledged)."""
        self.session.stop()
        self.store.close()


def wait_for(host: Host, done: object, what: str, timeout: float = 30.0) -> None:
    host.table.wait_until(done, timeout, what)  # type: ignore[arg-type]


def turn_and_see(tray: VirtualTray, slot: Slot, clicks: int) -> None:
    """A player's turn, taken once the firmware has seen the dial there (and has had its
    settle time: a turn back before that is, rightly, no click at all)."""
    target = tray.seen(slot.dock, slot.dial) + clicks
    tray.turn(slot.dock, slot.dial, clicks)
    end = time.monotonic() + 20
    while abs(tray.seen(slot.dock, slot.dial) - target) > 1e-6:
        assert time.monotonic() < end, f"the firmware never saw {slot} turned {clicks:+d}"
        time.sleep(0.005)
    time.sleep(0.03)  # its settle window (10 ms) passes on the firmware's clock


def away_long(tray: VirtualTray) -> None:
    """While no host listens: A1 turned 8 clicks clockwise (more than half a turn), A3 turned
    back and forth until far more events than the ring holds have been logged."""
    turn_and_see(tray, A1, 8)
    for _ in range(12):
        turn_and_see(tray, A3, 1)
        turn_and_see(tray, A3, -1)


@pytest.fixture
def tray() -> Iterator[VirtualTray]:
    with VirtualTray(small_ring(), seed=3) as t:
        yield t


def first_host(tray: VirtualTray, tmp_path: Path) -> Host:
    place = StorePlace(tmp_path / "games.sqlite3", tmp_path / "keys")
    store = place.open()
    dice = TableDice(SeededDice(3))
    s = new_game("airaction", dice, 3, 6)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header,
                timing=TIMING)
    session = TraySession(tray.port, name="first", ack_policy="manual")
    table = StoredTable(GameRecorder.start(store, t, origin="test"), session)
    session.start()
    host = Host(session, table, t, store)
    wait_for(host, lambda: t.phase == PLAY and bool(t.game.history), "the first action")
    host.setup = s  # type: ignore[attr-defined]
    return host


def resumed_host(tray: VirtualTray, tmp_path: Path, name: str) -> Host:
    res = pick_resume(StorePlace(tmp_path / "games.sqlite3", tmp_path / "keys"), None,
                      ("airaction",))
    session = TraySession(tray.port, name=name, ack_policy="manual", **res.session_args)
    t, table = resumed_table(res, TableDice(SeededDice(4)), session)
    session.start()
    return Host(session, table, t, res.store)


def check_flags(t: Tracker) -> dict[str, mk.Flag]:
    return {f.label: f for f in t.open_flags() if f.kind == mk.CHECK}


def test_dials_restored_after_the_ring_overflowed_are_flagged_until_checked(
        tray: VirtualTray, tmp_path: Path) -> None:
    host = first_host(tray, tmp_path)
    t = host.tracker
    a1, a2 = t.slots[A1].label, t.slots[A2].label
    # Before the cable comes out, A2 is turned a click nobody caused: flagged.
    turn_and_see(tray, A2, 1)
    wait_for(host, lambda: t.slots[A2].flag is not None, "A2's flag")
    tray.unplug()
    turn_and_see(tray, A2, -1)  # put back while the host cannot see it
    away_long(tray)
    tray.replug()
    wait_for(host, lambda: len(check_flags(t)) == 2, "both restored dials flagged")
    assert host.session.counters["replay gaps"] >= 1, dict(host.session.counters)

    flags = check_flags(t)
    assert set(flags) == {a1, a2}, t.waiting_for()
    assert flags[a1].text == (
        f"{a1}: check it — its clicks while the host was away could not be replayed (the "
        "tray's log no longer held them), so it was read from the sensor: turn it 4 clicks "
        "clockwise to click 0")
    assert "moved" not in flags[a1].text  # it moved 8 clockwise: never said to be 4 back
    assert flags[a2].text.endswith(
        "read from the sensor at click 0, where the rules put it: if it shows click 0, turn "
        "it one click and back (if not, call the judge)")
    assert t.slots[A3].flag is None  # back where it was: an absolute sensor reads it so
    [note] = [n for n in t.notes if "could not be replayed" in n]
    assert "(replay window lost)" in note and note.endswith(
        f"to be checked by the players: {a1}, {a2}"), note
    missed = int(note.split("lasts: ", 1)[1].split(" ", 1)[0])
    assert missed > RING, note

    # What `dialtray play` shows, and the web page (both read the tracker).
    view = Table(host.setup, ["human", "human"], host.table).view()  # type: ignore[attr-defined]
    lines = plain_lines(view, ("P1", "P2"))
    assert f"! {flags[a1].text}" in lines and f"! {flags[a2].text}" in lines, lines
    assert {(d.dock, d.status, d.turn) for d in view.docks if d.reader == 0 and d.dock < 2} \
        == {(0, mk.CHECK, 4), (1, mk.CHECK, 0)}
    page = StateBuilder(t, grid(8), 1).docks()
    shown = {r["label"]: r["flag"] for d in page for r in d["readers"] if r["flag"]}
    assert shown == {a1: {"kind": "check", "text": flags[a1].text},
                     a2: {"kind": "check", "text": flags[a2].text}}
    assert not t.ready()  # the game waits for the checks

    # The players confirm: A1 turned to the click shown, A2 one click and back.
    turn_and_see(tray, A1, 4)
    wait_for(host, lambda: t.slots[A1].flag is None, "A1 checked")
    turn_and_see(tray, A2, 1)
    host.table.pump(TIMING.judge_s + 0.1)  # resting off by one: still a check, not a decision
    assert t.slots[A2].flag is not None and t.slots[A2].flag.kind == mk.CHECK
    turn_and_see(tray, A2, -1)
    wait_for(host, t.ready, "every dial checked")
    assert [f.resolution for f in flags.values()] == \
        ["checked: turned to where the rules put it"] * 2
    assert not [f for f in t.flags if f.kind == mk.PEEK]  # the check is no peek
    host.table.close()

    # What a judge sees: the refusal, the flags and how they were put right.
    report = text(build(host.store, host.table.recording.recorder.gid))
    assert f"note for the judge: {note}" in report
    assert report.count("[check]") == 2 and "NEVER PUT RIGHT" not in report, report
    assert "restored from the sensor: the replay was refused" in report
    assert verify_game(host.store, host.table.recording.recorder.gid).ok
    host.kill()


def test_a_host_killed_during_the_resync_leaves_the_check_to_the_next(
        tray: VirtualTray, tmp_path: Path) -> None:
    first = first_host(tray, tmp_path)
    a1 = first.tracker.slots[A1].label
    gid = first.table.recording.recorder.gid
    turn_and_see(tray, A2, 1)  # a peek: the tray's events are stored up to here
    turn_and_see(tray, A2, -1)
    wait_for(first, lambda: any(f.kind == mk.PEEK for f in first.tracker.flags), "the peek")
    first.table.pump()
    first.kill()
    away_long(tray)

    # A host killed as soon as it is in sync, before it stored anything: nothing changes.
    early = resumed_host(tray, tmp_path, "early")
    early.session.wait_synced(15)
    early.kill()
    # The next host starts, the tray refuses its replay, the dial is restored, flagged and
    # stored — and the host is killed before anyone checked it.
    second = resumed_host(tray, tmp_path, "second")
    wait_for(second, lambda: a1 in check_flags(second.tracker), "the check flag")
    second.table.pump()  # (every pump commits)
    assert [label for _, label in open_checks(second.store, gid)] == [a1]
    second.kill()

    # The third host: its replay is refused again, and the snapshot now matches what the
    # second stored, so nothing is restored this time; the check is carried on all the same.
    third = resumed_host(tray, tmp_path, "third")
    t = third.tracker
    assert resync(third.table) == []
    assert restored_labels(third.table) == [a1]
    assert resumed_words(third.table, []) == (  # what `play --resume` says of the dials
        f"read from their sensors, the tray's log no longer holding their clicks: {a1} "
        "(flagged: check them)")
    flag = check_flags(t)[a1]
    assert "turn it 4 clicks clockwise to click 0 (still to be checked when the host " \
        "restarted)" in flag.text
    assert third.session.counters["replay gaps"] >= 1
    assert not t.ready()
    turn_and_see(tray, A1, 4)
    wait_for(third, lambda: t.slots[A1].flag is None and t.phase == PLAY, "A1 checked")
    third.table.close()
    assert open_checks(third.store, gid) == []
    report = text(build(third.store, gid))
    assert "put right: carried on by the restarted host" in report
    assert "put right: checked: turned to where the rules put it" in report
    assert "NEVER PUT RIGHT" not in report, report
    assert report.count("[check]") == 2 and "[peek]" in report, report  # each host's flags
    assert report.count("note for the judge: the host was away longer than the tray's ring "
                        "log lasts") == 2, report
    assert verify_game(third.store, gid).ok
    third.kill()
