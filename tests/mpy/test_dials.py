# Dial reading on the simulated board: settle window, wrap-around, bounce, faults, boot state.
# Mechanics of the tray itself (no game rules here).
import struct
import time

from dialrig import config, hw_sim, proto
from dialrig.dials import Dials
from dialrig.ringlog import RingLog

import mpytest


def _tray(docks=2, quad=False, settle=10):
    cfg = config.quadrature_config(docks) if quad else config.default_config(docks)
    cfg["settle_ms"] = settle
    board = hw_sim.Board(cfg)
    ring = RingLog(256)
    dials = Dials(cfg, board, ring)
    dials.sample(time.ticks_ms())
    return board, ring, dials


def _run(board, dials, ms):
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        now = time.ticks_ms()
        board.physics(now)
        dials.sample(now)
        time.sleep_ms(1)


def _events(ring, kind=None):
    out = []
    for seq in range(ring.oldest(), ring.next_seq):
        f = struct.unpack(proto.EVENT_FMT, ring.record(seq))
        if kind is None or f[2] == kind:
            out.append(f)
    return out


def test_a_click_is_reported_once_after_it_settles():
    board, ring, dials = _tray()
    board.turn(0, 1, 5)
    _run(board, dials, 4)
    assert _events(ring, proto.EV_CLICK) == [], "reported before the settle window"
    _run(board, dials, 40)
    clicks = _events(ring, proto.EV_CLICK)
    assert [(c[3], c[4], c[5], c[6]) for c in clicks] == [(0, 0, 1, 1)]


def test_a_quick_spin_is_one_event_with_its_delta():
    board, ring, dials = _tray()
    board.turn(2, 3, 6)  # dock 1 combat, three clicks in 6 ms
    _run(board, dials, 60)
    clicks = _events(ring, proto.EV_CLICK)
    assert [(c[3], c[4], c[5], c[6]) for c in clicks] == [(1, 0, 3, 3)]


def test_absolute_dials_wrap_the_short_way_round():
    board, ring, dials = _tray()
    board.turn(1, -1, 5)  # dock 0 speed: from 0 back to 11 on a 12-detent dial
    _run(board, dials, 50)
    clicks = _events(ring, proto.EV_CLICK)
    assert [(c[5], c[6]) for c in clicks] == [(11, -1)]


def test_contact_bounce_never_becomes_extra_clicks():
    board, ring, dials = _tray(quad=True)
    board.bounce = True
    off_detent = 0
    for n in range(1, 6):
        board.turn(0, 1, 6)
        # Sample for 30 ms at least, then until this turn's click is logged (a busy machine
        # may not run this process for longer than the turn and settle take: waiting for the
        # click, not a wall-clock window, keeps the next turn from starting before it settled).
        start = time.ticks_ms()
        while (time.ticks_diff(time.ticks_ms(), start) < 30
               or (sum(c[6] for c in _events(ring, proto.EV_CLICK)) < n
                   and time.ticks_diff(time.ticks_ms(), start) < 3000)):
            dials.sample(time.ticks_ms())
            off_detent += dials.raw[0] % 4 != 0
            time.sleep_ms(1)
    assert off_detent > 0, "the contacts never bounced: the test proves nothing"
    clicks = _events(ring, proto.EV_CLICK)
    assert sum(c[6] for c in clicks) == 5
    assert [c[5] for c in clicks] == [1, 2, 3, 4, 5]


def test_quadrature_dials_start_lost_and_say_so():
    board, ring, dials = _tray(quad=True)
    dials.announce_boot(time.ticks_ms())
    lost = _events(ring, proto.EV_FAULT)
    assert [(f[3], f[4], f[5]) for f in lost][:2] == [(0, 0, proto.ST_LOST_TRACK),
                                                       (0, 1, proto.ST_LOST_TRACK)]
    assert dials.status[0] == proto.ST_LOST_TRACK


def test_a_missing_magnet_is_one_fault_then_one_recovery_and_the_move_is_caught():
    board, ring, dials = _tray()
    board.set_magnet(2, False)
    _run(board, dials, 20)
    board.turn(2, 2, 5)  # the dial moves while its sensor is blind
    _run(board, dials, 20)
    board.set_magnet(2, True)
    _run(board, dials, 300)  # faulted sensors are retried every RETRY_MS
    faults = [(f[2], f[5]) for f in _events(ring) if f[2] in (proto.EV_FAULT,
                                                                proto.EV_FAULT_CLEARED)]
    assert faults == [(proto.EV_FAULT, proto.ST_NO_MAGNET),
                      (proto.EV_FAULT_CLEARED, proto.ST_NO_MAGNET)]
    assert [(c[5], c[6]) for c in _events(ring, proto.EV_CLICK)] == [(2, 2)]


def test_a_sensor_that_stops_answering_is_a_nak_fault():
    board, ring, dials = _tray()
    board.set_nak(3, True)
    _run(board, dials, 20)
    assert dials.status[3] == proto.ST_NAK
    assert dials.faulted_mask() == 1 << 3
    board.set_nak(3, False)
    _run(board, dials, 300)
    assert dials.status[3] == proto.ST_OK


def test_the_position_at_boot_is_where_the_dial_physically_is():
    cfg = config.default_config(1)
    board = hw_sim.Board(cfg)
    board.set_position(0, 7000)  # as DIALRIG_SIM_STATE does after a power cycle
    board.physics(time.ticks_ms())
    dials = Dials(cfg, board, RingLog(16))
    dials.sample(time.ticks_ms())
    assert dials.reported[0] == 7 and dials.known[0] == 1


def test_sampling_allocates_nothing():
    board, ring, dials = _tray(docks=8)
    board.turn(0, 1, 5)
    now = time.ticks_ms()
    assert mpytest.alloc(lambda: dials.sample(now), 200) == 0


def test_sampling_quadrature_dials_allocates_nothing():
    board, ring, dials = _tray(quad=True)
    board.bounce = True
    board.turn(0, 2, 50)
    now = time.ticks_ms()
    assert mpytest.alloc(lambda: dials.sample(now), 200) == 0


def test_a_bus_held_low_resets_the_muxes_and_the_dial_faults():
    # machine.I2C's timeout (ETIMEDOUT): SCL held by a wedged part. The muxes' RESET cuts
    # every channel off the bus; the dial is faulted and retried later (issue 29).
    board, ring, dials = _tray()
    pulses = []
    board.mux_reset = lambda: pulses.append(1)
    board.i2c.stuck = True
    dials.sample(time.ticks_ms())
    assert pulses, "no mux reset on a timed-out transfer"
    faults = _events(ring, proto.EV_FAULT)
    assert [(f[3], f[4], f[5]) for f in faults][:1] == [(0, 0, proto.ST_NAK)]
    board.i2c.stuck = False
    before = len(pulses)
    _run(board, dials, 300)  # RETRY_MS later the dials answer again
    assert len(pulses) == before
    assert _events(ring, proto.EV_FAULT_CLEARED)
