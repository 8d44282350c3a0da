"""A paper tray whose dock 2 (A3's combat and speed dials) has incremental encoders, for the
tests of confirmation by eye (``test_eye.py``, ``test_eye_judge.py``): the tray reports them
lost track for its whole boot with counts relative to that boot, as the firmware does
(dialrig/dials.py); the other dials are AS5600s reporting the click they sit on."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dialtray.link.messages import LOST_TRACK, Click, DialFault, DialState, Snapshot
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.store.recording import RecordingTracker
from dialtray.table.games import new_game
from dialtray.tracker import PLAY, Slot, TableDice, Tracker, auto_bind
from paper import DETENTS

ENC_C, ENC_S = Slot(2, 0), Slot(2, 1)  # A3's combat and speed dials, on encoders
A3C = "dock 2 combat dial (A3)"
A3S = "dock 2 speed dial (A3)"


@dataclass
class EncoderTray:
    """A paper tray: AS5600s report the click they sit on, dock 2's encoders their count since
    the tray's boot (``boot``); ``phys`` is where each dial really is (clockwise clicks)."""

    tracker: Tracker
    now: float = 0.0
    boot: int = 1
    seq: int = 0
    phys: dict[Slot, int] = field(default_factory=dict)
    at_boot: dict[Slot, int] = field(default_factory=dict)

    def reads(self, slot: Slot) -> int:
        p = self.phys[slot]
        return p - self.at_boot.get(slot, 0) if slot.dock == 2 else p % DETENTS

    def dials(self) -> tuple[DialState, ...]:
        return tuple(DialState(s.dock, s.dial, "quadrature" if s.dock == 2 else "as5600",
                               LOST_TRACK if s.dock == 2 else 0, DETENTS, self.reads(s))
                     for s in sorted(self.phys))

    def power_on(self, phys: dict[Slot, int] | None = None) -> None:
        for slot in self.tracker.binding.slots():
            self.phys.setdefault(slot, 0)
        self.phys.update(phys or {})
        self.at_boot = {s: p for s, p in self.phys.items() if s.dock == 2}
        self.tracker.feed(Snapshot(0, self.boot, self.seq + 1, self.dials(), "connect"),
                          self.now)

    def reboot(self) -> None:
        """The tray restarts (the dials stay where they are): the link's boot snapshot, its
        lost-track faults, then the boot's own reports, replayed from its ring log."""
        self.boot += 1
        self.seq = 0
        self.at_boot = {s: p for s, p in self.phys.items() if s.dock == 2}
        t = self.tracker
        t.feed(Snapshot(0, self.boot, 1, self.dials(), "tray rebooted"), self.now)
        for slot in (ENC_C, ENC_S):
            t.feed(DialFault(0, 2, slot.dial, LOST_TRACK), self.now)
        for slot in (ENC_C, ENC_S):
            self.seq += 1
            t.feed(DialFault(self.seq, 2, slot.dial, LOST_TRACK), self.now)

    def turn(self, slot: Slot, clicks: int) -> None:
        self.seq += 1
        self.phys[slot] += clicks
        self.tracker.feed(Click(self.seq, slot.dock, slot.dial, self.reads(slot), clicks),
                          self.now)

    def settle(self) -> None:
        self.now += self.tracker.timing.judge_s + 0.01
        self.tracker.tick(self.now)


    def snapshot(self, reason: str = "connect") -> Snapshot:
        """What the tray would answer the judge now (the tracker is not told)."""
        return Snapshot(0, self.boot, self.seq + 1, self.dials(), reason)


def game(seed: int = 1) -> Tracker:
    d = TableDice(SeededDice(seed))
    s = new_game("airaction", d, seed, 4)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), d, header=s.header)
    t.brain = s.brain  # type: ignore[attr-defined]
    return t


def played(db: Path, boot: int = 1, start: int = 4) -> tuple[EncoderTray, int]:
    """A game stored as played: A3's encoder dials confirmed by eye in tray boot ``boot`` (its
    combat dial found at click ``start`` and turned to the rules' click 0), the game in play."""
    store = GameStore.open(db, key_dir=db.parent / "keys")
    t = game()
    tray = EncoderTray(t, boot=boot)
    rec = GameRecorder.start(store, t, origin="test")
    rt = RecordingTracker(rec, boot=lambda: tray.boot)
    tray.tracker = rt  # type: ignore[assignment]
    tray.power_on({ENC_C: start})
    assert rt.confirm_eye(ENC_C, start, tray.now, "P1").ok
    assert rt.confirm_eye(ENC_S, 0, tray.now, "P1").ok
    if start:
        tray.turn(ENC_C, -start)
    assert t.phase == PLAY
    rt.commit()
    store.close()
    return tray, rec.gid
