"""The store's batch path (issue 35: ``RecordingTracker.feed_many`` → ``GameRecorder.devices`` →
``Tracker.feed_many``) writes the very rows, hashes, MACs and game-row seal that feeding the same
events one by one writes, and leaves the tracker with the same flags and log.

A whole Air Action bot game with every kind of mistake is played once on the paper tray with its
calls taken down (events, ticks, typed decisions), then played again from that script into two
fresh stores: event by event, and with every run of events the paper tray handed over at one
time fed as one batch — then a burst of peeks (a dial turned and back, the bench's stream).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from dialtray.link.messages import Click, DialFault, TrayEvent
from dialtray.store.recording import RecordingTracker
from dialtray.store.verify import verify_game
from dialtray.tracker.hands import Hands, Mistakes
from paper import PaperTray, run_bots
from storehelp import recorded_game

Call = tuple[Any, ...]  # ("feed", event, now) | ("tick", now) | ("decide", text, now, seat)


class Taker:
    """The tracker as the paper tray and the hands see it, each call taken down."""

    def __init__(self, rt: RecordingTracker) -> None:
        self.rt, self.calls = rt, []  # type: list[Call]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rt, name)

    def feed(self, ev: TrayEvent, now: float) -> None:
        self.calls.append(("feed", ev, now))
        self.rt.feed(ev, now)

    def tick(self, now: float) -> None:
        self.calls.append(("tick", now))
        self.rt.tick(now)

    def decide(self, text: str, now: float, seat: str | None = None) -> Any:
        self.calls.append(("decide", text, now, seat))
        return self.rt.decide(text, now, seat)


def peeks(rt: RecordingTracker, first_seq: int, n: int) -> list[TrayEvent]:
    """n clicks turning each dial one click and back (a peek every other click), a sensor fault
    and its clearing among them (events of another type inside a batch)."""
    t = rt.recorder.tracker
    assert t is not None
    slots = list(t.slots.values())
    out: list[TrayEvent] = []
    for k in range(n):
        st = slots[(k // 2) % len(slots)]
        d = 1 if k % 2 == 0 else -1
        out.append(Click(first_seq + k, st.slot.dock, st.slot.dial, (st.seen or 0) + (k % 2 == 0),
                         d))
    out.insert(n // 2, DialFault(first_seq + n, 0, 0, 2))
    out.insert(n // 2 + 1, DialFault(first_seq + n + 1, 0, 0, 2, cleared=True))
    return out


def replay(path: Path, calls: list[Call], batched: bool) -> tuple[list[Any], list[Any], Any]:
    """The script played into a fresh store; (records, game row, tracker's flags and log)."""
    _, t, rec = recorded_game(path, "airaction", 11, 2)
    rt = RecordingTracker(rec, boot=lambda: 1)
    run: list[TrayEvent] = []
    at = 0.0

    def flush() -> None:
        if run:
            rt.feed_many(run, at)
            run.clear()

    for c in calls:
        if c[0] == "feed" and batched:
            if run and c[2] != at:
                flush()
            run.append(c[1])
            at = c[2]
            continue
        flush()
        if c[0] == "feed":
            rt.feed(c[1], c[2])
        elif c[0] == "tick":
            rt.tick(c[1])
        else:
            rt.decide(c[1], c[2], c[3])
        rec.commit()
    flush()
    rec.commit()
    assert verify_game(rec.store, rec.gid).ok
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT n, kind, content, sha, prev, mac FROM records WHERE game_id = ? "
                        "ORDER BY n", (rec.gid,)).fetchall()
    game = conn.execute("SELECT records, head, status, result, seal FROM games WHERE id = ?",
                        (rec.gid,)).fetchall()
    conn.close()
    flags = [(f.kind, f.label, f.text, f.raised, f.resolved, f.resolution) for f in t.flags]
    return rows, game, (flags, [str(x) for x in t.lines], t.notes, t.phase)


def test_the_batch_path_writes_what_one_by_one_writes(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time", lambda: 1795563865.0234)  # one record time for both
    s, _, rec = recorded_game(tmp_path / "script.sqlite3", "airaction", 11, 2)
    taker = Taker(RecordingTracker(rec, boot=lambda: 1))
    tray = PaperTray(taker)  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    run_bots(tray, Hands(taker, s.brain, Mistakes()))  # type: ignore[arg-type]
    calls = taker.calls
    last = max(c[1].seq for c in calls if c[0] == "feed")
    calls += [("feed", ev, tray.now + 1) for ev in peeks(taker.rt, last + 1, 40)]
    calls.append(("tick", tray.now + 5))

    one = replay(tmp_path / "one.sqlite3", calls, batched=False)
    many = replay(tmp_path / "many.sqlite3", calls, batched=True)
    assert one[0] == many[0]  # every record: number, kind, content, sha, prev, MAC
    assert one[1] == many[1]  # the game row: head, status, result, seal
    assert one[2] == many[2]  # the tracker: flags, log, notes, phase
    kinds = {r[1] for r in one[0]}
    assert {"device", "flag", "action", "expect", "confirm"} <= kinds, kinds
    assert sum(1 for c in calls if c[0] == "feed") > len(
        {c[2] for c in calls if c[0] == "feed"}), "no run of events was fed as a batch"
