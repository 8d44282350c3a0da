# Spins of more than half a turn on an absolute (AS5600) dial, and turns the simulated board
# reads together. Issue 8: the 10 000-click storm through a bad cable lost clicks on a busy
# machine while the link was live with nothing missing: MicroPython, not given the CPU for a few
# hundred ms, read eight queued turns of one dial at once; the simulated board played them as
# one spin of 8 clicks in 6 ms and the dial code took the short way round from the last report
# (+8 on a 12-detent dial logged as -4). A Pico reads every millisecond and would have seen each
# turn; a fast real spin of 7 clicks without a rest has the same short-way problem.
import struct
import time

from dialrig import config, hw_sim, proto
from dialrig.dials import Dials
from dialrig.ringlog import RingLog

# A settle window longer than a detent's dwell during these spins: nothing settles mid-spin
# however late this process is scheduled (a rest on a detent is shorter than the window), and a
# click is 40 ms long, so following the dial only needs a sample every few detents.
SETTLE_MS = 50
CLICK_MS = 40


def _tray():
    cfg = config.default_config(1)
    cfg["settle_ms"] = SETTLE_MS
    board = hw_sim.Board(cfg)
    ring = RingLog(64)
    dials = Dials(cfg, board, ring)
    dials.sample(time.ticks_ms())
    return board, ring, dials


def _clicks_until(board, ring, dials, total, ms=3000):
    """Sample until the logged clicks add up to ``total`` (or ``ms`` passes, or it is past)."""
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        now = time.ticks_ms()
        board.physics(now)
        dials.sample(now)
        if sum(c[1] for c in _clicks(ring)) == total:
            break
        time.sleep_ms(1)
    # And a settle window more, in case something else would still be logged.
    end = time.ticks_add(time.ticks_ms(), 2 * SETTLE_MS)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        now = time.ticks_ms()
        board.physics(now)
        dials.sample(now)
        time.sleep_ms(1)
    return _clicks(ring)


def _clicks(ring):
    out = []
    for seq in range(ring.oldest(), ring.next_seq):
        f = struct.unpack(proto.EVENT_FMT, ring.record(seq))
        if f[2] == proto.EV_CLICK:
            out.append((f[5], f[6]))  # (position, delta)
    return out


def test_a_spin_of_seven_clicks_is_plus_seven_not_minus_five():
    board, ring, dials = _tray()
    board.turn(0, 7, 7 * CLICK_MS)  # seven clicks, no rest long enough to settle
    assert _clicks_until(board, ring, dials, 7) == [(7, 7)]


def test_a_spin_back_of_eleven_clicks_is_minus_eleven():
    board, ring, dials = _tray()
    board.turn(1, -11, 11 * CLICK_MS)
    assert _clicks_until(board, ring, dials, -11) == [(1, -11)]


def test_a_whole_turn_is_twelve_clicks_though_the_dial_is_back_where_it_was():
    board, ring, dials = _tray()
    board.turn(0, 12, 12 * CLICK_MS)
    assert _clicks_until(board, ring, dials, 12) == [(0, 12)]


def test_turns_read_together_play_back_to_back():
    board, ring, dials = _tray()
    t = board.clk[0]  # a dial's motion is timed on its own clock, from the last read of it
    for _ in range(8):  # eight turns queued in the control FIFO, read in one go
        board.command("turn 0 1 %d" % CLICK_MS)
    # Each turn at its own pace after the one before: the motion lasts eight clicks' time (the
    # old board squeezed all eight into the last turn's 40 ms), and one click's time after it
    # began, about one click has been made.
    assert time.ticks_diff(board.t1[0], t) >= 8 * CLICK_MS
    began = board.t0[0]
    assert board._position(0, time.ticks_add(began, CLICK_MS)) <= 2 * hw_sim.TICKS_PER_DETENT
    assert board._position(0, board.t1[0]) == 8 * hw_sim.TICKS_PER_DETENT
    assert _clicks_until(board, ring, dials, 8) == [(8, 8)]


def test_a_turn_after_the_dial_came_to_rest_takes_its_own_time():
    board, ring, dials = _tray()
    board.turn(0, 1, CLICK_MS)
    _clicks_until(board, ring, dials, 1)
    board.turn(0, 1, CLICK_MS)
    # A motion long over adds nothing: this turn takes one click's time from when it began.
    assert time.ticks_diff(board.t1[0], board.t0[0]) == CLICK_MS
    assert _clicks_until(board, ring, dials, 2) == [(1, 1), (2, 1)]


# The 10 000-click storm again (a full run at 4 xdist workers on 2 cores): the host had 3108 of
# 3300 clicks, live, nothing missing, every click it had right. The tray had never logged the
# rest: every dial short reported exactly 12 or 24 clicks fewer than it was turned, at the
# position it was turned to. Turns queued while MicroPython waited for the CPU were read, their
# motion began, and the process lost the CPU again before the motion ended; on its return the
# dial had made a whole turn unseen, which an absolute sensor cannot tell from none. A Pico
# samples every millisecond and sees each detent. So each simulated dial moves on its own clock,
# which runs while the firmware reads it: while it does not look, the dial does not move on.
def _not_scheduled(ms):
    """MicroPython does not get the CPU for ``ms``: nothing samples, time goes on."""
    time.sleep_ms(ms)


def test_a_whole_turn_under_way_while_the_firmware_is_not_scheduled_is_still_twelve_clicks():
    board, ring, dials = _tray()
    for _ in range(12):  # twelve queued turns of one dial, read in one go
        board.command("turn 0 1 6")
    _not_scheduled(300)  # the whole motion (72 ms) would be over unseen
    assert _clicks_until(board, ring, dials, 12) == [(0, 12)]


def test_eight_clicks_under_way_while_the_firmware_is_not_scheduled_are_not_minus_four():
    board, ring, dials = _tray()
    for _ in range(8):
        board.command("turn 1 -1 6")
    _not_scheduled(300)
    assert _clicks_until(board, ring, dials, -8) == [(4, -8)]


def test_a_dial_not_read_while_the_others_are_does_not_turn_on_unseen():
    # Between two reads of one dial the firmware reads every other dial, and a busy computer
    # can take the CPU away anywhere in that pass: each dial's clock runs on its own reads.
    board, ring, dials = _tray()
    for _ in range(12):
        board.command("turn 0 1 6")
    end = time.ticks_add(time.ticks_ms(), 300)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        dials.sensors[1].read_angle()  # the speed dial's AS5600 is read, the combat dial's not
        time.sleep_ms(1)
    assert _clicks_until(board, ring, dials, 12) == [(0, 12)]


def test_a_fast_spin_read_only_every_twenty_ms_is_followed_detent_by_detent():
    # The storm again with a dial's clock capped at sample_ms + 20 ms only: at load averages of
    # 40 six clicks of -1 came as +6, reads of a dial 20 ms apart having landed between
    # detents. A Pico reads every dial every millisecond: between two reads a dial moves less
    # than a detent, and so does the simulated one.
    board, ring, dials = _tray()
    board.turn(0, 12, 24)  # a whole turn at 2 ms a detent
    end = time.ticks_add(time.ticks_ms(), 3000)
    while time.ticks_diff(end, time.ticks_ms()) > 0 and \
            sum(c[1] for c in _clicks(ring)) != 12:
        time.sleep_ms(20)  # the firmware is off the CPU between two passes
        dials.sample(time.ticks_ms())
    assert _clicks(ring) == [(0, 12)]


def test_between_two_reads_a_dial_moves_at_most_half_a_detent():
    # And again at a load average of 40: -9 logged as +3. A dial that moved a whole detent a
    # read kept the phase of the first read: once one fell between two detents (30 % of each
    # bin, where the firmware does not take a reading) every later one did, until the dial
    # stopped far away. Half a detent a read never lands twice in a row in that gap. Nor may
    # turns taken one by one while the dial is not read move it meanwhile.
    board, ring, dials = _tray()
    for _ in range(12):
        board.command("turn 0 1 2")
        time.sleep_ms(8)  # the next control line is read later; the dial is not read
    board.physics(time.ticks_ms())
    seen = board._position(0, board.clk[0])
    assert seen <= hw_sim.TICKS_PER_DETENT // 2
    while seen < 12 * hw_sim.TICKS_PER_DETENT:
        time.sleep_ms(20)  # the firmware off the CPU between two reads
        board.physics(time.ticks_ms())
        now = board._position(0, board.clk[0])
        assert 0 < now - seen <= hw_sim.TICKS_PER_DETENT // 2, (seen, now)
        seen = now


def test_a_dial_moves_on_time_while_the_firmware_samples():
    # A dial's clock keeps to real time while the firmware reads it: a turn of 40 ms is over
    # about 40 ms after it began, sampled or not in between by a loop that runs every few ms.
    board, ring, dials = _tray()
    t = time.ticks_ms()
    board.turn(0, 1, CLICK_MS)
    while time.ticks_diff(time.ticks_ms(), t) < 2 * CLICK_MS:
        board.physics(time.ticks_ms())
        time.sleep_ms(2)
    assert board._position(0, board.dial_clock(0, time.ticks_ms())) == hw_sim.TICKS_PER_DETENT
