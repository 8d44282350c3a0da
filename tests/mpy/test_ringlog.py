# The ring log: sequence numbers, replay window, and no allocation when logging.
import struct

from dialrig import proto
from dialrig.ringlog import RingLog

import mpytest


def test_sequence_numbers_start_at_one_and_records_are_event_bodies():
    r = RingLog(8)
    assert r.append(100, proto.EV_CLICK, 3, 1, 5, -1) == 1
    assert r.append(101, proto.EV_CLICK, 3, 1, 4, -1) == 2
    rec = r.record(1)
    assert struct.unpack(proto.EVENT_FMT, rec) == (1, 100, proto.EV_CLICK, 3, 1, 5, -1)
    assert r.record(3) is None and r.record(0) is None


def test_the_window_slides_and_old_records_are_gone():
    r = RingLog(8)
    for i in range(20):
        r.append(i, proto.EV_CLICK, 0, 0, i, 1)
    assert r.oldest() == 13 and r.next_seq == 21
    assert r.record(12) is None
    assert struct.unpack(proto.EVENT_FMT, r.record(13))[5] == 12
    assert struct.unpack(proto.EVENT_FMT, r.record(20))[5] == 19


def test_logging_an_event_allocates_nothing():
    r = RingLog(64)
    assert mpytest.alloc(lambda: r.append(12345, proto.EV_CLICK, 7, 1, -3, 2), 500) == 0
