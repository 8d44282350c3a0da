"""The firmware on an emulated RP2040 with the official MicroPython v1.28.0 (issue 29).

One chip per test, each walking a whole journey on it (the chip runs at a fraction of real
time, so a boot is worth sharing): HELLO through ``TraySession``; clicks turned on modelled
AS5600s and a modelled quadrature encoder arrive once each, in order; a dice roll shows its
faces on the LEDs decoded from the WS2812 data pin; ``dialtray selftest`` passes with every
modelled sensor and fails, with the fix its table names, on a missing multiplexer, a weak
magnet and a dead encoder; a stalled task trips the watchdog and the host resyncs.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from dialrig import proto
from dialtray.builder import selftest
from dialtray.builder.selftest import TURN_FIX_QUAD, Row
from dialtray.builder.selftest import Test as SelfTestRun
from dialtray.link.messages import Booted, Click, DialFault, DiceRolled
from dialtray.link.session import SessionState, TraySession
from dialtray.virtual.rp2040.leds import dice_faces
from dialtray.virtual.rp2040.tray import Rp2040Tray
from picohelp import SYNC_S, Got, bench_config, wait_until

pytestmark = pytest.mark.slow(cost=15)  # (tests/conftest.py: dealt out first)


@pytest.fixture
def tray() -> Iterator[Rp2040Tray]:
    with Rp2040Tray(bench_config()) as t:
        yield t


def run_selftest(session: TraySession, tray: Rp2040Tray, typed: list[str],
                 turn_s: float) -> list[Row]:
    """What `dialtray selftest --sim` does, on this session: the tray's sensor report, then the
    builder's turns typed at the prompt as console lines (``turn 1 combat 1``)."""
    answers: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    for line in typed:
        answers.put(line)
    return SelfTestRun(session, answers, False, turn_s, tray).run()


def failures(rows: list[Row]) -> dict[str, Row]:
    return {f"{r.part}/{r.check.split(' ')[0]}": r for r in rows if r.failed}


def test_boot_hello_clicks_dice_and_selftest(tray: Rp2040Tray) -> None:
    with TraySession(tray.port) as session:
        got = Got(session)
        session.wait_synced(SYNC_S)
        assert tray.pico.events.boots[0].reason == "power"  # CHIP_RESET.HAD_POR

        # Clicks on both AS5600 docks and the encoder (its contacts bouncing), one after
        # another: each arrives once, in the order turned.
        tray.set_bounce(True)
        plan = [(0, 0, 2), (1, 0, 1), (0, 1, -1), (1, 1, 3), (1, 0, -2)]
        for dock, dial, clicks in plan:
            before = len(got.of(Click))
            tray.turn(dock, dial, clicks, ms=20)

            def counted(b: int = before, c: int = clicks) -> bool:
                return sum(abs(e.delta) for e in got.of(Click)[b:]) >= abs(c)

            wait_until(counted, SYNC_S, f"dock {dock} dial {dial} to click {clicks}")
        events = [e for e in got.of(Click) if not e.recovered]
        seqs = [e.seq for e in events]
        assert seqs == sorted(set(seqs)), seqs  # each event once, in the tray's order
        arrived = [(e.dock, e.dial, e.delta) for e in events]
        order: list[tuple[int, int]] = []
        for d, i, _ in arrived:
            if not order or order[-1] != (d, i):
                order.append((d, i))
        assert order == [(d, i) for d, i, _ in plan], arrived
        totals: dict[tuple[int, int], int] = {}
        for d, i, c in plan:
            totals[(d, i)] = totals.get((d, i), 0) + c
        for (d, i), total in totals.items():
            assert sum(x for dd, ii, x in arrived if (dd, ii) == (d, i)) == total, arrived
        assert session.dials[(1, 0)].position == 1 - 2  # an encoder counts from its boot

        # Two turns of one dial sent together (the chip takes them at one instant) are two
        # clicks, on the encoder and on an AS5600 (test_turns_together.py: the bench once
        # counted none and one).
        before = len(got.of(Click))
        for _ in range(2):
            tray.turn(1, 0, 1, ms=20)
            tray.turn(0, 0, 1, ms=20)

        def net(dock: int) -> int:
            return sum(e.delta for e in got.of(Click)[before:] if (e.dock, e.dial) == (dock, 0))
        wait_until(lambda: net(1) == 2 and net(0) == 2, SYNC_S,
                   "two turns sent together to click twice")
        tray.turn(1, 0, -2, ms=20)  # (back where the journey expects the dials)
        tray.turn(0, 0, -2, ms=20)
        wait_until(lambda: net(1) == 0 and net(0) == 0, SYNC_S, "the dials turned back")

        # An AS5600 wedged mid-transfer holds SCL low: machine.I2C times out, the firmware
        # pulses the muxes' RESET (freeing the bus), the dial faults, then answers again and
        # counts on.
        tray.wedge_sensor(0, "speed")
        wait_until(lambda: any((f.dock, f.dial, f.cleared) == (0, 1, True)
                               for f in got.of(DialFault)), SYNC_S, "the wedged dial back")
        before = len(got.of(Click))
        tray.turn(0, "speed", 1, ms=20)
        wait_until(lambda: [(e.dock, e.dial, e.delta) for e in got.of(Click)[before:]]
                   == [(0, 1, 1)], SYNC_S, "a click on the dial that was wedged")

        # A roll of the two LED dice: the faces the tray reports are the faces its LEDs show.
        frames = tray.frames
        rolled = session.roll_dice(2, timeout=SYNC_S)
        wait_until(lambda: tray.frames > frames and [
            d.face for d in dice_faces(tray.leds, 2)] == list(rolled.faces), SYNC_S,
            f"the LEDs to show {rolled.faces}")

        # The roll button (to ground, the pad's pull-up): a press rolls, the LEDs show it.
        frames = tray.frames
        tray.press_button(80)
        wait_until(lambda: any(e.request_id == 0 for e in got.of(DiceRolled)), SYNC_S,
                   "the button's roll")
        pressed = next(e for e in got.of(DiceRolled) if e.request_id == 0)
        wait_until(lambda: tray.frames > frames and [
            d.face for d in dice_faces(tray.leds, 2)] == list(pressed.faces), SYNC_S,
            f"the LEDs to show the button's roll {pressed.faces}")

        # Self-test: every modelled sensor passes; the builder turns each dial once.
        rows = run_selftest(session, tray, ["turn 0 combat 1", "turn 0 speed 1",
                                            "turn 1 combat 1", "turn 1 speed 1"], SYNC_S)
        assert not failures(rows), rows
        assert [r.result.startswith("ok") for r in rows if r.check == "counts"] == [True] * 4

        # Faults, each failing with the fix the table names.
        tray.remove_mux(0x71)
        tray.set_gap(0, "combat", 4.0)  # 4 mm: a field under 30 mT, STATUS.ML
        tray.set_dead_encoder(0)
        # The dials that still count are turned and counted at once; the dead encoder never
        # counts, so the run waits out its window: 10 s of wall time, seconds of chip time
        # (a working encoder counts within 50 ms of chip time).
        rows = run_selftest(session, tray, ["turn 0 combat 1", "turn 0 speed 1",
                                            "turn 1 combat 1"], 10.0)
        bad = failures(rows)
        assert bad["dock 1 speed/AS5600"].fix.startswith("multiplexer 0x71 does not answer")
        assert bad["dock 0 combat/AS5600"].fix.startswith("magnet too far")
        assert bad["dock 1 combat/counts"].fix == TURN_FIX_QUAD
        assert "dock 0 speed/AS5600" not in bad and "dock 0 speed/counts" not in bad
        selftest.print_table(rows)  # what the builder reads (shown with -s)


def test_a_stalled_task_trips_the_watchdog_and_the_host_resyncs(tray: Rp2040Tray) -> None:
    """One task (the sampler) stops for good while the link and the heartbeat run on: the
    supervisor stops feeding the watchdog (machine.WDT on the chip), which resets the board; it
    comes back with WATCHDOG.REASON set and says BOOT_WATCHDOG; the host resyncs with nothing
    lost. (C_STALL is the firmware's watchdog test: no hardware fault can stop one task alone,
    every hardware access being bounded; see dialrig.app.)"""
    with TraySession(tray.port) as session:
        got = Got(session)
        session.wait_synced(SYNC_S)
        tray.turn(0, "combat", 1, ms=20)
        wait_until(lambda: len(got.of(Click)) >= 1, SYNC_S, "the first click")
        first_boot = session.boot_id
        session.request(proto.C_STALL, proto.STALL_FMT, proto.STALL_SAMPLER)
        # The link runs on (it answers; the watchdog needs 0.9 s of chip time to bite) ...
        frames = session.stats(SYNC_S).frames_ok
        assert len(tray.pico.events.boots) == 1 and frames > 0
        # ... but the sampler no longer reads the dials: this turn is not reported by this boot.
        tray.turn(0, "speed", 2, ms=20)
        wait_until(lambda: len(tray.pico.events.boots) >= 2, SYNC_S, "the watchdog reset")
        assert tray.pico.events.boots[1].reason == "watchdog"
        assert tray.pico.events.boots[1].watchdog_reason & 1  # REASON.TIMER, not a forced reset
        wait_until(lambda: session.boot_id not in (None, first_boot)
                   and session.state == SessionState.LIVE, SYNC_S, "the host to resync")
        wait_until(lambda: any(b.reason == proto.BOOT_WATCHDOG for b in got.of(Booted)),
                   SYNC_S, "the new boot's reason")
        # Nothing lost: the click before the stall once, and the turn made while the sampler
        # was stuck shows in the host's dial state after the resync.
        before = [e for e in got.of(Click) if (e.dock, e.dial) == (0, 0)]
        assert sum(e.delta for e in before) == 1, before
        wait_until(lambda: session.dials[(0, 1)].position == 2, SYNC_S,
                   "dock 0 speed at 2 after the resync")
        assert session.dials[(0, 0)].position == 1
        # ... and it came through the resync (inferred from the new boot's dials), never as a
        # click the stalled sampler would have reported
        assert all(e.recovered for e in got.of(Click) if (e.dock, e.dial) == (0, 1))
