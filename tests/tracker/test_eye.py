"""Dials whose encoder lost track, confirmed by eye (tracker.eye), on a paper tray whose dock 2
(A3's combat and speed dials) has incremental encoders: the tray reports them lost track for
its whole boot with counts relative to that boot, as the firmware does (dialrig/dials.py).

A player's word "dock 2's combat dial shows click C" maps the boot's counts onto the dial's
clicks; the dial is then tracked like an absolute one until the tray restarts. The store keeps
each confirmation (an ``eye`` record) and a resumed host of the same boot reuses it, never
another boot's."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from dialtray.link.messages import LOST_TRACK, REPLAY_LOST, DialFault, Snapshot
from dialtray.link.reconcile import DialMemory, reconcile
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.store.logs import export_log
from dialtray.store.recording import RecordingTracker
from dialtray.store.report import build, text
from dialtray.store.resume import carry_eyes, resume
from dialtray.store.verify import verify_game
from dialtray.tracker import OVER, PLAY, START, Slot, TableDice, Tracker
from dialtray.tracker import marks as mk
from dialtray.tracker.hands import Hands
from dialtray.ui.layout import grid
from dialtray.ui.state import StateBuilder
from dialtray.ui.terminal.front import eye_words
from encoders import A3C, A3S, ENC_C, ENC_S, EncoderTray, game
from paper import run_bots


def flagged(t: Tracker, kind: str) -> list[mk.Flag]:
    return [f for f in t.open_flags() if f.kind == kind]


def test_an_encoder_dial_is_flagged_with_how_to_confirm_it_and_refused_when_impossible() -> None:
    t = game()
    tray = EncoderTray(t)
    tray.power_on({ENC_S: -3})  # A3's speed dial shows click 3 (counter-clockwise: AA-M02)
    flags = {f.label: f for f in flagged(t, mk.FAULT)}
    assert set(flags) == {A3C, A3S}
    assert flags[A3C].text == (
        f"{A3C}: its encoder lost track (it counts only from where the tray started), so the "
        "host cannot tell which click it shows. Look at it: if it shows click 0, where the "
        "rules put it, type `eye 2 combat` to confirm it by eye (another click C: `eye 2 "
        "combat C`; on the page: Confirm by eye)")
    assert flags[A3S].text.endswith(
        "Look at it and type `eye 2 speed C` with the click C it shows (0 to 11: the rules "
        "have not set it yet; on the page: Confirm by eye)")
    assert t.phase == START and flags[A3C].text in t.waiting_for()
    assert [d.turn for d in t.docks() if d.dock == 2] == [0, 0]  # nothing known to turn
    page = {r["label"]: r["eye"] for d in StateBuilder(t, grid(8), 1).docks()
            for r in d["readers"] if r["eye"]}  # the page's Confirm by eye, on those two
    assert page == {A3C: {"click": 0, "clicks": 12}, A3S: {"click": None, "clicks": 12}}

    refused = {
        Slot(0, 0): "dock 0 combat dial (A1): its sensor reads it (it has not lost track): "
                    "only a dial whose encoder lost track is confirmed by eye",
        Slot(9, 0): "no dial of this game on dock 9's combat reader"}
    for slot, why in refused.items():
        r = t.confirm_eye(slot, None, tray.now, "P1")
        assert not r.ok and r.message == why
    r = t.confirm_eye(ENC_C, 12, tray.now, "P1")
    assert not r.ok and r.message == f"{A3C}: there is no click 12: its dial has clicks 0 to 11"
    r = t.confirm_eye(ENC_S, None, tray.now, "P1")
    assert not r.ok and r.message == (f"{A3S}: the rules have not set it yet: say which click "
                                      "it shows (`eye 2 speed CLICK`, 0 to 11)")
    assert not t.eyes and len(flagged(t, mk.FAULT)) == 2  # refusals change nothing

    r = t.confirm_eye(ENC_C, None, tray.now, "P1")
    assert r.ok and r.message == f"{A3C}: confirmed by eye at click 0 by P1 (where the rules " \
        "put it)"
    assert flags[A3C].resolution == "confirmed by eye at click 0 by P1"
    assert t.confirm_eye(ENC_S, 3, tray.now, "P1").ok
    assert t.phase == PLAY and t.ready() and not t.open_flags()
    assert [(e.label, e.click, e.boot, e.count) for e in t.eyes] == [(A3C, 0, 1, 0),
                                                                       (A3S, 3, 1, 0)]
    assert f"# eye: {A3C}: confirmed by eye at click 0 by P1 (where the rules put it)" in t.lines
    r = t.confirm_eye(ENC_C, None, tray.now, "P1")
    assert not r.ok and "its sensor reads it (it has not lost track)" in r.message


def test_a_confirmed_encoder_is_tracked_until_a_reboot_loses_it_again() -> None:
    t = game()
    tray = EncoderTray(t)
    tray.power_on({ENC_C: 5})  # the tray started with A3's combat dial at click 5: count 0
    assert t.confirm_eye(ENC_C, 5, tray.now, "P1").ok  # at start the rules say click 0
    assert t.confirm_eye(ENC_S, 0, tray.now, "P1").ok
    assert t.phase == START and t.waiting_for() == \
        [f"{A3C}: turn 5 clicks counter-clockwise to its start click"]
    tray.turn(ENC_C, -5)
    assert t.phase == PLAY and t.ready()
    tray.turn(ENC_C, 1)  # knocked: judged as for any dial
    tray.settle()
    [knock] = flagged(t, mk.UNEXPECTED)
    assert knock.label == A3C
    tray.turn(ENC_C, -1)
    assert t.ready()

    tray.reboot()  # the dials stay put; the counts start again from 0
    [c, s] = flagged(t, mk.FAULT)
    assert (c.label, s.label) == (A3C, A3S)
    assert len([f for f in t.flags if f.kind == mk.FAULT]) == 4  # once per dial per boot
    tray.turn(ENC_C, 2)  # a lost dial's clicks are counted, never judged
    tray.settle()
    assert t.open_flags() == [c, s] and not t.ready()
    assert t.confirm_eye(ENC_C, 2, tray.now, "P1").ok  # what it shows
    assert t.confirm_eye(ENC_S, 0, tray.now, "P1").ok
    [eyed] = t.open_flags()
    assert eyed.kind == mk.AWAY and "turn it 2 clicks counter-clockwise to click 0" in eyed.text
    tray.turn(ENC_C, -2)
    tray.turn(ENC_C, 1)  # and from the new boot's counts on, tracked as before
    tray.settle()
    assert [f.label for f in flagged(t, mk.UNEXPECTED)] == [A3C]
    tray.turn(ENC_C, -1)
    assert t.ready()


def test_a_lost_dials_count_follows_a_refused_replay_exactly() -> None:
    """The host away longer than the ring lasts while A3's dials were still lost: the link
    restores their exact counts (recovered clicks after the snapshot); the confirmation then
    records the count the tray has, and an encoder so restored is never a ``check``."""
    t = game()
    tray = EncoderTray(t)
    tray.power_on()
    memory = {(d.dock, d.dial): DialMemory(d.sensor, d.detents, d.position)
              for d in tray.dials()}
    tray.phys[ENC_C] += 15  # more than a turn, with the cable out
    snap = Snapshot(0, tray.boot, tray.seq + 40, tray.dials(), REPLAY_LOST, 39)
    for ev in reconcile(memory, snap, False, Counter()):
        t.feed(ev, tray.now)
    tray.settle()
    assert t.confirm_eye(ENC_C, 3, tray.now, "P1").ok
    assert t.eyes[-1].count == tray.reads(ENC_C) == 15
    assert t.confirm_eye(ENC_S, 0, tray.now, "P1").ok
    tray.turn(ENC_C, -3)
    assert t.phase == PLAY and t.ready()
    tray.seq += 40  # away again, confirmed now: 2 clicks restored exactly, judged as moved
    memory = {(d.dock, d.dial): DialMemory(d.sensor, d.detents, d.position)
              for d in tray.dials()}
    tray.phys[ENC_C] += 2
    snap = Snapshot(0, tray.boot, tray.seq + 1, tray.dials(), REPLAY_LOST, 39)
    for ev in reconcile(memory, snap, False, Counter()):
        t.feed(ev, tray.now)
    tray.settle()
    [moved] = t.open_flags()
    assert moved.kind == mk.AWAY and moved.text.startswith(
        f"{A3C}: moved 2 clicks clockwise while the host was not listening")


def test_a_confirmation_off_the_rules_click_is_flagged_and_a_boots_own_report_ignored() -> None:
    t = game()
    tray = EncoderTray(t)
    tray.power_on()
    for slot in (ENC_C, ENC_S):
        assert t.confirm_eye(slot, 0, tray.now, "P1").ok
    assert t.phase == PLAY
    tray.phys[ENC_C] += 2  # turned while the tray was off
    tray.reboot()
    assert t.confirm_eye(ENC_C, 2, tray.now, "P2").ok
    [eyed] = flagged(t, mk.AWAY)
    assert eyed.text == (f"{A3C}: confirmed by eye at click 2, not where the rules put it: "
                         "turn it 2 clicks counter-clockwise to click 0")
    assert t.confirm_eye(ENC_S, 7, tray.now, "P2").ok  # not set yet: any click will do
    tray.seq += 1
    t.feed(DialFault(tray.seq, 2, 0, LOST_TRACK), tray.now)  # this boot's report, late
    assert t.open_flags() == [eyed]
    history = len(t.game.history)
    tray.turn(ENC_C, -2)
    assert eyed.resolution == "dial agrees" and t.ready()
    assert len(t.game.history) == history


def test_bots_confirm_their_own_encoder_dials_and_play_the_game_through() -> None:
    t = game(2)
    tray = EncoderTray(t)
    tray.power_on()
    hands = Hands(t, t.brain)  # type: ignore[attr-defined]

    class Paper:  # paper.run_bots drives a PaperTray: the same calls
        tracker = t

        @staticmethod
        def click_by_click(slot: Slot, clicks: int) -> None:
            for _ in range(abs(clicks)):
                tray.turn(slot, 1 if clicks > 0 else -1)

        @staticmethod
        def wait(seconds: float) -> None:
            tray.now += seconds
            t.tick(tray.now)

        @staticmethod
        def settle() -> None:
            tray.settle()

        @property
        def now(self) -> float:
            return tray.now

    run_bots(Paper(), hands)  # type: ignore[arg-type]
    assert t.phase == OVER
    assert [(e.label, e.by) for e in t.eyes] == [(A3C, "a bot"), (A3S, "a bot")]
    assert not [f for f in t.flags if f.resolved is None]
    turned = sum(abs(line.delta) for line in t.lines if not isinstance(line, str) and
                 line.slot.slot.dock == 2)
    assert turned > 0  # the encoders' clicks were tracked


def test_a_resumed_host_keeps_the_confirmations_of_the_same_boot_only(tmp_path: Path) -> None:
    store = GameStore.open(tmp_path / "games.sqlite3", key_dir=tmp_path / "keys")
    t = game()
    tray = EncoderTray(t)
    rec = GameRecorder.start(store, t, origin="test")
    rt = RecordingTracker(rec, boot=lambda: tray.boot)
    tray.tracker = rt  # type: ignore[assignment]
    tray.power_on({ENC_C: 4})  # stored as it is fed
    assert rt.confirm_eye(ENC_C, 4, tray.now, "P1").ok
    assert rt.confirm_eye(ENC_S, 0, tray.now, "P1").ok
    tray.turn(ENC_C, -4)
    assert t.phase == PLAY
    rt.commit()
    gid = rec.gid

    def resumed() -> tuple[Tracker, int | None]:
        r = resume(store, gid, TableDice(SeededDice(2)))
        t2 = Tracker(r.game, r.binding, TableDice(SeededDice(2)), header=r.header)
        assert r.snapshot is not None
        return t2, r.snapshot.boot_id

    t2, boot = resumed()  # the host crashed; the tray is still in boot 1
    assert boot == 1 and carry_eyes(store, gid, t2, boot) == [A3C, A3S]
    t2.feed(resume(store, gid).snapshot, 0.0)  # type: ignore[arg-type]
    assert not t2.open_flags() and t2.phase == PLAY and t2.slots[ENC_C].offset == 0
    t2.feed(Snapshot(0, 2, 1, tray.dials(), "tray rebooted"), 1.0)  # then the tray restarts
    assert {f.label for f in flagged(t2, mk.FAULT)} == {A3C, A3S}

    t3, _ = resumed()  # a host resuming in another boot reuses nothing
    assert carry_eyes(store, gid, t3, 2) == []
    t3.feed(Snapshot(0, 2, 1, tray.dials(), "tray rebooted"), 0.0)
    assert {f.label for f in flagged(t3, mk.FAULT)} == {A3C, A3S}

    report = text(build(store, gid))
    assert "Dials confirmed by eye (2): encoders that lost track" in report
    assert f"{A3C}: confirmed by eye at click 4 by P1 (the rules put it at click 0) — tray " \
        "boot 00000001, the encoder's count 0" in report
    assert "eye    confirmed by eye:" in report  # in the dial's history too
    assert f"# eye: {A3C}: confirmed by eye at click 4 by P1" in export_log(store, gid)
    assert verify_game(store, gid).ok
    store.close()


def test_plays_eye_command_words() -> None:
    """`dialtray play`'s ``eye DOCK [combat|speed] [CLICK]`` (ui.terminal.front)."""
    assert eye_words(["2"]) == (2, 0, None)
    assert eye_words(["2", "speed", "3"]) == (2, 1, 3)
    assert eye_words(["2", "12"]) == (2, 0, 12)  # (the tracker names the range)
    assert eye_words([]) == "say which dock: eye DOCK combat|speed [CLICK], e.g. `eye 2 " \
        "combat` or `eye 2 speed 3`"
    assert str(eye_words(["2", "combat", "three"])).startswith("'three' is not a click")
