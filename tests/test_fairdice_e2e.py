"""Verifiably fair dice end to end: the real firmware in MicroPython on the virtual tray, the
real host session over a pty (issue 11, "Verifiably fair device dice").

An honest tray: commit, 200 rolls (host d6 in batches, a d10, the roll button), reveal — every
roll checks out, also through a cable that damages bytes. A lying tray is the same firmware with
its dice module altered in the tray's own copy (as a tampered or buggy firmware would be): it
shows a face the seed does not give, reveals another seed than it committed to, rolls in
secret to keep the roll it likes, or rolls without its seed — each is caught and named. A reboot
mid-session (the seed lived in RAM) is reported, never trusted.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from dialrig import config, proto
from dialtray.link.fairdice import FairDice, FairDiceError
from dialtray.link.fairproof import derive_faces, roll_key
from dialtray.link.faults import FaultInjector
from dialtray.link.messages import Booted, DiceRolled, TrayEvent
from dialtray.link.session import SessionState, TraySession
from dialtray.rules.core.dice import DiceSource, TrayDice
from dialtray.virtual.tray import VirtualTray

SYNC_S = 30.0

# Appended to the tray's copy of dialrig/fairdice.py: each makes a different dishonest tray.
LIE_FACE = """
_honest_roll = FairDice.roll_into
def _lying_roll(self, faces, n, sides, now):
    _honest_roll(self, faces, n, sides, now)
    if self.counter - 1 == 5:  # roll #5: die 0 shows the next face up
        faces[0] = faces[0] % sides + 1
FairDice.roll_into = _lying_roll
"""
LIE_SEED = """
_honest_reveal = FairDice.reveal
def _lying_reveal(self, now):
    self.seed[0] ^= 1
    return _honest_reveal(self, now)
FairDice.reveal = _lying_reveal
"""
LIE_SECRET = """
_honest_roll = FairDice.roll_into
def _secret_roll(self, faces, n, sides, now):
    if self.counter == 3:  # draws roll #3, does not like it, keeps #4
        self.counter = 4
    _honest_roll(self, faces, n, sides, now)
FairDice.roll_into = _secret_roll
"""
LIE_IGNORES_NONCE = """
def _fake_mix(self, nonce, now):  # says it took the host's nonce, keeps rolling on its own seed
    if not self.session or self.mixed or self.counter:
        return False
    self.mixed = True
    self._log_bytes(proto.EV_FAIR_MIX, nonce, now)
    return True
FairDice.mix = _fake_mix
"""
LIE_SIDES = """
_honest_roll = FairDice.roll_into
def _d5(self, faces, n, sides, now):  # roll #2 drawn (and tagged) as a d5: no sixes
    _honest_roll(self, faces, n, 5 if self.counter == 2 else sides, now)
FairDice.roll_into = _d5
"""
LIE_UNSEEDED = """
FairDice._asked = 0
def _active(self):
    FairDice._asked += 1
    return self.session != 0 and FairDice._asked != 3  # the 3rd roll comes from elsewhere
FairDice.active = property(_active)
"""


@contextmanager
def tray_and_session(lie: str = "", to_host: FaultInjector | None = None,
                     to_device: FaultInjector | None = None) -> Iterator[
        tuple[VirtualTray, TraySession]]:
    tray = VirtualTray(config.default_config(1), to_host=to_host, to_device=to_device)
    if lie:
        module = tray.workdir / "firmware" / "dialrig" / "fairdice.py"
        module.write_text(module.read_text() + lie)
    with tray, TraySession(tray.port) as session:
        session.wait_synced(SYNC_S)
        yield tray, session


def wait_for_dice(session: TraySession, tray: VirtualTray) -> DiceRolled:
    """Press the roll button and wait for the tray's report of the dice it rolled."""
    got: list[DiceRolled] = []
    seen = threading.Event()

    def on(ev: TrayEvent) -> None:
        if isinstance(ev, DiceRolled) and ev.request_id == 0:
            got.append(ev)
            seen.set()

    session.subscribe(on)
    try:
        tray.press_button(hold_ms=200)
        assert seen.wait(SYNC_S), "the button roll never arrived"
    finally:
        session.unsubscribe(on)
    return got[0]


def test_an_honest_tray_commits_rolls_200_times_reveals_and_every_roll_checks_out() -> None:
    with tray_and_session() as (tray, session):
        fair = FairDice(session, timeout=10)
        source: DiceSource = fair  # what the rules engines take (mypy checks this line)
        assert isinstance(source, DiceSource)
        commitment = fair.begin()
        assert len(commitment) == 32
        rolled: list[tuple[int, ...]] = []
        for i in range(197):
            rolled.append(fair.roll(1 + i % 12, f"shot {i}"))
        rolled.append(fair.roll(3, "d10 table", sides=10))
        rolled.append(TrayDice(fair).roll(15, "15 attack dice"))  # two batches: 12 + 3
        button = wait_for_dice(session, tray)
        verdict = fair.reveal()
    assert verdict.ok, str(verdict)
    assert verdict.rolls_checked == 201 and verdict.rolls_claimed == 201
    assert [r.counter for r in verdict.rolls] == list(range(201))
    assert verdict.seed is not None and verdict.nonce is not None and len(verdict.nonce) == 16
    # The verdict is not taking the tray's word: re-derive from the seed here too.
    key = roll_key(verdict.seed, verdict.nonce)
    for r in verdict.rolls:
        assert r.faces == derive_faces(key, r.counter, r.sides, len(r.faces))
    assert [r.faces for r in verdict.rolls[:198]] == rolled[:198]
    assert verdict.rolls[197].sides == 10 and all(1 <= f <= 10 for f in rolled[197])
    assert verdict.rolls[198].faces + verdict.rolls[199].faces == rolled[198]
    assert verdict.rolls[200].purpose == "roll button"
    assert verdict.rolls[200].faces == button.faces
    assert verdict.rolls[5].purpose == "shot 5"


def test_the_session_survives_a_cable_that_damages_bytes() -> None:
    with tray_and_session(to_host=FaultInjector(corrupt=0.005, drop=0.003, seed=3),
                          to_device=FaultInjector(corrupt=0.005, drop=0.003, seed=4)) \
            as (_, session):
        fair = FairDice(session, timeout=15)
        fair.begin()
        for i in range(40):
            fair.roll(2, f"roll {i}")
        verdict = fair.reveal()
    assert verdict.ok, str(verdict)
    assert [r.counter for r in verdict.rolls] == list(range(40))


def test_a_roll_made_while_the_host_is_away_is_replayed_and_checked() -> None:
    with tray_and_session() as (tray, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        fair.roll(2, "before the cable came out")
        tray.unplug()
        session.wait_state(SessionState.DOWN, timeout=SYNC_S)
        tray.press_button(hold_ms=200)  # the tray rolls and logs it; nobody is listening
        tray.replug()
        session.wait_synced(SYNC_S)  # LIVE: everything the tray logged has been delivered
        fair.roll(3, "after")
        verdict = fair.reveal()
    assert verdict.ok, str(verdict)
    assert [(r.counter, r.purpose) for r in verdict.rolls] == [
        (0, "before the cable came out"), (1, "roll button"), (2, "after")]


def test_dice_the_tray_cannot_carry_are_refused_before_anything_is_sent() -> None:
    with tray_and_session() as (_, session):
        fair = FairDice(session, timeout=10)
        with pytest.raises(FairDiceError, match="begin"):
            fair.roll(1, "too early")
        fair.begin()
        with pytest.raises(ValueError, match=r"2\.\.15 sides"):
            fair.roll(1, "d20", sides=20)
        assert fair.reveal().ok


def test_a_tray_that_shows_a_face_its_seed_does_not_give_is_caught_and_the_roll_named() -> None:
    with tray_and_session(LIE_FACE) as (_, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        shown = [fair.roll(3, f"shot {i}: B2 at A1") for i in range(10)]
        verdict = fair.reveal()
    assert not verdict.ok
    assert [p.kind for p in verdict.problems] == ["face"]
    p = verdict.problems[0]
    assert (p.counter, p.purpose) == (5, "shot 5: B2 at A1")
    assert p.claimed == shown[5] and p.derived is not None
    assert p.claimed[1:] == p.derived[1:] and p.claimed[0] == p.derived[0] % 6 + 1
    assert "roll #5 (shot 5: B2 at A1" in str(p)
    assert f"the tray reported {' '.join(map(str, shown[5]))}" in str(p)


def test_a_tray_that_reveals_another_seed_than_it_committed_to_is_caught() -> None:
    with tray_and_session(LIE_SEED) as (_, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        for i in range(4):
            fair.roll(2, f"roll {i}")
        verdict = fair.reveal()
    assert not verdict.ok
    kinds = [p.kind for p in verdict.problems]
    assert kinds[0] == "commitment", kinds
    assert "does not match the commitment" in str(verdict.problems[0])


def test_a_tray_that_ignores_the_host_nonce_is_caught_on_every_roll() -> None:
    with tray_and_session(LIE_IGNORES_NONCE) as (_, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        for i in range(5):
            fair.roll(4, f"roll {i}")
        verdict = fair.reveal()
    assert [(p.kind, p.counter) for p in verdict.problems] == [("face", c) for c in range(5)]
    assert verdict.seed is not None
    # What it showed is what its seed alone gives: it never took the nonce in.
    assert all(r.faces == derive_faces(verdict.seed, r.counter, 6, 4) for r in verdict.rolls)


def test_a_tray_that_draws_another_die_than_asked_for_is_caught() -> None:
    with tray_and_session(LIE_SIDES) as (_, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        for i in range(4):
            fair.roll(12, f"volley {i}")
        verdict = fair.reveal()
    assert [(p.kind, p.counter, p.purpose) for p in verdict.problems] == [
        ("sides", 2, "volley 2")]
    assert "drew a d5, a d6 was asked for" in str(verdict.problems[0])


def test_a_tray_that_rolls_in_secret_to_keep_the_roll_it_likes_is_caught() -> None:
    with tray_and_session(LIE_SECRET) as (_, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        for i in range(6):
            fair.roll(2, f"roll {i}")
        verdict = fair.reveal()
    assert not verdict.ok
    assert [p.kind for p in verdict.problems] == ["missing"]
    assert verdict.problems[0].counter == 3
    assert "#3" in str(verdict.problems[0])


def test_a_roll_made_without_the_seed_during_the_session_is_refused_and_reported() -> None:
    with tray_and_session(LIE_UNSEEDED) as (_, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        fair.roll(1, "first")
        fair.roll(1, "second")
        with pytest.raises(FairDiceError, match="without its committed seed"):
            fair.roll(2, "third")
        fair.roll(1, "fourth")
        verdict = fair.reveal()
    assert not verdict.ok
    assert [p.kind for p in verdict.problems] == ["unseeded"]
    assert verdict.rolls_checked == 3


def test_a_reboot_mid_session_loses_the_seed_and_the_verdict_says_so() -> None:
    with tray_and_session() as (tray, session):
        fair = FairDice(session, timeout=10)
        fair.begin()
        fair.roll(2, "before the reboot")
        booted = threading.Event()
        session.subscribe(lambda ev: booted.set() if isinstance(ev, Booted) else None)
        tray.reboot()
        assert booted.wait(SYNC_S)
        session.wait_synced(SYNC_S)
        with pytest.raises(FairDiceError, match="rebooted"):
            fair.roll(2, "after the reboot")
        verdict = fair.reveal()
        # The tray has no session now: a fair roll is refused, and plain dice still work.
        ack = session.request(proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 1, 6, 77)
        assert ack.status == proto.ACK_REJECTED
        assert len(session.roll_dice(2).faces) == 2
    assert not verdict.ok
    kinds = [p.kind for p in verdict.problems]
    assert "reboot" in kinds and "incomplete" in kinds
