# MicroPython tests of sided dice in the firmware (issue 15, the tray as dice tower): a d10
# rolled by ROLL_SIDED or by a committed session's FAIR_ROLL is logged as EV_DICE and shown on
# the LED panel (the ring and pip pairs: dialrig.dice.DiceDisplay.show_roll); a ROLL_SIDED batch
# of many rolls is rolled a few per link tick, never faster than the host takes the events.
import struct
import time

from dialrig import dice, proto
from dialrig.app import BATCH_ROLLS_PER_TICK

from devrig import device, send


def _dice_events(app, since):
    out = []
    for s in range(since, app.ring.next_seq):
        e = struct.unpack(proto.EVENT_FMT, app.ring.record(s))
        if e[2] == proto.EV_DICE:
            out.append((e[4], proto.unpack_faces(e[3], e[5], e[6])))
    return out


def test_a_d10_roll_is_logged_and_shown_on_the_ring_and_pip_pairs():
    app, io = device()
    start = app.ring.next_seq
    send(app, proto.C_ROLL_SIDED, proto.ROLL_SIDED_FMT, 1, 3, 10, 7, 1)
    assert io.acks() == [(1, proto.ACK_OK, 0)]
    got = _dice_events(app, start)
    assert len(got) == 1 and got[0][0] == 7
    faces = got[0][1]
    assert len(faces) == 3 and all(1 <= f <= 10 for f in faces)
    leds = app.board.leds  # what the simulated panel was last sent
    assert dice.shown_ring(leds, app.cfg["dice"]) == faces[0]
    for k in range(3):
        assert dice.shown_face(leds, 2 * k) + dice.shown_face(leds, 2 * k + 1) == faces[k]
    assert app.button_dice == 2, "a d10 roll does not change the button's d6 count"


def test_twelve_d10_faces_of_ten_survive_the_event_record():
    # The 12th face in the int16 `extra`: a face of 8+ there sets its sign bit.
    value, extra = proto.pack_faces(bytearray([10] * 12), 12)
    assert proto.unpack_faces(12, value, extra) == [10] * 12
    app, io = device()
    app.ring.append(0, proto.EV_DICE, 12, 1, value, extra)
    e = struct.unpack(proto.EVENT_FMT, app.ring.record(app.ring.next_seq - 1))
    assert proto.unpack_faces(12, e[5], e[6]) == [10] * 12


def test_a_batch_rolls_a_few_per_tick_while_the_host_keeps_up():
    app, io = device()
    app.link.set_host_present(True)
    app.link.greeted = True
    rolls = 3000  # more events than the ring holds: they must be taken as they come
    start = app.ring.next_seq
    send(app, proto.C_ROLL_SIDED, proto.ROLL_SIDED_FMT, 1, 12, 10, 9, rolls)
    assert io.acks() == [(1, proto.ACK_OK, 0)]
    got = _dice_events(app, start)
    assert len(got) == BATCH_ROLLS_PER_TICK  # the first at once
    # A second batch while this one rolls is refused, naming the rolls still to roll.
    send(app, proto.C_ROLL_SIDED, proto.ROLL_SIDED_FMT, 2, 1, 10, 9, 5)
    assert io.acks() == [(2, proto.ACK_REJECTED, rolls - BATCH_ROLLS_PER_TICK)]
    # No acknowledgement from the host: rolling stops at half the ring.
    for _ in range(1000):
        app.batch_tick(time.ticks_ms())
    waiting = app.ring.next_seq - app.link.acked
    half = app.cfg["ring_size"] // 2
    assert half <= waiting < half + BATCH_ROLLS_PER_TICK, waiting
    assert app.batch_left > 0
    # The host acknowledges as it goes: the batch finishes, only its last roll shown.
    seen = app.ring.next_seq
    got = got + _dice_events(app, start + len(got))
    while app.batch_left:
        app.link.take_ack(app.ring.next_seq, time.ticks_ms())
        app.batch_tick(time.ticks_ms())
        got += _dice_events(app, seen)
        seen = app.ring.next_seq
    assert len(got) == rolls and all(r == 9 and len(f) == 12 for r, f in got)
    counts = [0] * 11
    for _, faces in got:
        for f in faces:
            counts[f] += 1
    assert counts[0] == 0 and min(counts[1:]) > 3000  # 36 000 d10: ~3 600 each
    assert dice.shown_ring(app.board.leds, app.cfg["dice"]) == got[-1][1][0]


def test_bad_batches_are_refused_and_change_nothing():
    app, io = device()
    start = app.ring.next_seq
    bad = ((0, 10, 1, 1), (13, 10, 1, 1), (1, 1, 1, 1), (1, 16, 1, 1), (1, 10, 0, 1),
           (1, 10, 1, 0))
    for i, fields in enumerate(bad):
        send(app, proto.C_ROLL_SIDED, proto.ROLL_SIDED_FMT, 10 + i, *fields)
    assert [a[1] for a in io.acks()] == [proto.ACK_BAD_ARGS] * len(bad)
    assert app.ring.next_seq == start and app.batch_left == 0


def test_a_committed_d10_roll_is_tagged_and_shown():
    app, io = device()
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 4)
    start = app.ring.next_seq
    send(app, proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 2, 1, 10, 3)
    kinds = []
    for s in range(start, app.ring.next_seq):
        kinds.append(struct.unpack(proto.EVENT_FMT, app.ring.record(s))[2])
    assert kinds == [proto.EV_FAIR_ROLL, proto.EV_DICE]
    (req, faces), = _dice_events(app, start)
    assert req == 3 and dice.shown_ring(app.board.leds, app.cfg["dice"]) == faces[0]
    # ROLL_SIDED in a session takes the seed too: a counter per roll.
    start = app.ring.next_seq
    send(app, proto.C_ROLL_SIDED, proto.ROLL_SIDED_FMT, 3, 2, 10, 5, 3)
    kinds = [struct.unpack(proto.EVENT_FMT, app.ring.record(s))[2]
             for s in range(start, app.ring.next_seq)]
    assert kinds == [proto.EV_FAIR_ROLL, proto.EV_DICE] * 3
    assert app.link.fair.counter == 4
