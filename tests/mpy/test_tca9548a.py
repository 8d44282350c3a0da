# MicroPython tests of dialrig.tca9548a.MuxBus against the simulated bus.
import errno

from dialrig import tca9548a
from dialrig.sim_i2c import SimAS5600, SimI2C
from dialrig.tca9548a import MuxBus

import mpytest


def rig():
    bus = SimI2C()
    m0 = bus.add_mux(0x70)
    m1 = bus.add_mux(0x71)
    return bus, m0, m1, MuxBus(bus)


def test_default_addresses_come_from_config():
    from dialrig import config

    assert MuxBus(SimI2C()).addrs == config.MUX_ADDRS


def test_first_select_switches_the_other_mux_off():
    bus, m0, m1, mux = rig()
    m1.control = 0xFF  # left on by a warm reset
    mux.select(0x70, 3)
    assert m0.control == 0x08 and m1.control == 0
    assert mux.known and mux.mux_addr == 0x70 and mux.channel == 3


def test_select_same_channel_is_free():
    bus, m0, m1, mux = rig()
    mux.select(0x71, 6)
    t = bus.transfers
    for _ in range(10):
        mux.select(0x71, 6)
    assert bus.transfers == t


def test_same_mux_other_channel_is_one_write():
    bus, m0, m1, mux = rig()
    mux.select(0x70, 0)
    t = bus.transfers
    mux.select(0x70, 7)
    assert bus.transfers == t + 1
    assert m0.control == 0x80 and m1.control == 0


def test_crossing_muxes_turns_the_old_one_off_first():
    bus, m0, m1, mux = rig()
    mux.select(0x70, 1)
    w0, w1 = m0.writes, m1.writes
    mux.select(0x71, 2)
    assert m0.control == 0 and m1.control == 0x04
    assert m0.writes == w0 + 1 and m1.writes == w1 + 1
    mux.select(0x70, 1)
    assert m0.control == 0x02 and m1.control == 0


def test_only_one_sensor_ever_visible():
    bus, m0, m1, mux = rig()
    sensors = []
    for ch in range(8):
        sensors.append(m0.attach(ch, SimAS5600(angle=ch)))
        sensors.append(m1.attach(ch, SimAS5600(angle=100 + ch)))
    buf = bytearray(3)
    for rnd in range(3):
        for i in range(16):
            addr = 0x70 if (i + rnd) % 2 == 0 else 0x71
            ch = (i * 3 + rnd) % 8
            mux.select(addr, ch)
            assert bus.scan().count(0x36) == 1
            bus.readfrom_mem_into(0x36, 0x0B, buf)
            assert (buf[1] << 8) | buf[2] == (0 if addr == 0x70 else 100) + ch


def test_deselect_all():
    bus, m0, m1, mux = rig()
    mux.select(0x70, 2)
    mux.deselect_all()
    assert m0.control == 0 and m1.control == 0
    assert mux.known and mux.mux_addr == -1
    t = bus.transfers
    mux.select(0x71, 0)  # known all off: one write
    assert bus.transfers == t + 1


def test_deselect_all_tries_every_mux_then_raises():
    bus, m0, m1, mux = rig()
    m0.control = 0x01
    m1.control = 0x01
    m0.nak = True
    e = mpytest.raises(OSError, mux.deselect_all)
    assert e.errno == errno.EIO
    assert m1.control == 0
    assert not mux.known


def test_nak_raises_and_forgets_the_cache():
    bus, m0, m1, mux = rig()
    mux.select(0x70, 4)
    m1.nak = True
    assert mpytest.raises(OSError, mux.select, 0x71, 1).errno == errno.EIO
    assert not mux.known
    m1.nak = False
    t = bus.transfers
    mux.select(0x70, 4)  # was selected before the failure: must be written again, both muxes
    assert bus.transfers == t + 2
    assert m0.control == 0x10 and m1.control == 0


def test_forget_after_a_mux_reset_rewrites():
    bus, m0, m1, mux = rig()
    mux.select(0x70, 5)
    bus.mux_reset()  # brown-out: the mux lost its control byte
    mux.select(0x70, 5)  # the cache cannot know: no traffic
    assert m0.control == 0
    mux.forget()
    mux.select(0x70, 5)
    assert m0.control == 0x20


def test_data_nak_is_an_error():
    class NakData:
        def __init__(self, bus):
            self.bus = bus

        def writeto(self, addr, buf, stop=True):
            self.bus.writeto(addr, buf, stop)
            return 0  # address ACKed, control byte NAKed

    bus, m0, m1, mux = rig()
    mux = MuxBus(NakData(bus))
    assert mpytest.raises(OSError, mux.select, 0x70, 0).errno == errno.EIO
    assert not mux.known


def test_bad_channel_or_mux():
    bus, m0, m1, mux = rig()
    mpytest.raises(ValueError, mux.select, 0x70, 8)
    mpytest.raises(ValueError, mux.select, 0x72, 0)
    mpytest.raises(ValueError, mux.select, 0x70, -1)


def test_select_does_not_allocate():
    bus, m0, m1, mux = rig()
    state = [0]

    def cycle():  # walk all 16 channels, crossing between the muxes
        i = state[0]
        state[0] = (i + 1) & 15
        mux.select(0x70 if i < 8 else 0x71, i & 7)

    assert mpytest.alloc(cycle, 160) == 0
    assert mpytest.alloc(lambda: mux.select(0x71, 3)) == 0


def test_dead_other_mux_is_retried_once_then_skipped():
    bus, m0, m1, mux = rig()
    m1.nak = True
    mux.select(0x70, 1)  # 0x71 does not answer: retried, marked dead, 0x70 selected anyway
    assert m0.control == 0x02
    assert mux.state(0x71) == tca9548a.DEAD and mux.faults == 1
    assert mux.state(0x70) == 0x02
    t = bus.transfers
    mux.select(0x70, 2)  # the dead mux is not bothered again
    assert bus.transfers == t + 1
    mpytest.raises(OSError, mux.select, 0x71, 0)  # its own channel: tried, fails, forgotten
    assert mux.state(0x71) == tca9548a.UNKNOWN and mux.state(0x70) == tca9548a.UNKNOWN
    m1.nak = False
    mux.select(0x70, 3)
    assert m0.control == 0x08 and m1.control == 0
    assert mux.state(0x71) == 0


def test_dead_mux_selection_does_not_allocate_once_dead():
    bus, m0, m1, mux = rig()
    m1.nak = True
    mux.select(0x70, 0)
    state = [0]

    def cycle():
        i = state[0]
        state[0] = (i + 1) & 7
        mux.select(0x70, i)

    assert mpytest.alloc(cycle, 80) == 0
