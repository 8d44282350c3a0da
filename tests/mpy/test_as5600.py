# MicroPython tests of dialrig.as5600 against the simulated bus, multiplexers and sensors.
import errno

from dialrig import as5600
from dialrig.as5600 import AS5600
from dialrig.sim_i2c import SimAS5600, SimI2C
from dialrig.tca9548a import MuxBus

import mpytest


def rig(n=16):
    """A full tray: 16 sensors on 2 muxes, dial k at angle 200 * k + 7."""
    bus = SimI2C()
    muxes = (bus.add_mux(0x70), bus.add_mux(0x71))
    mux = MuxBus(bus)
    sims = []
    drivers = []
    for k in range(n):
        sims.append(muxes[k // 8].attach(k % 8, SimAS5600(angle=200 * k + 7)))
        drivers.append(AS5600(bus, mux, (0x70, 0x71)[k // 8], k % 8))
    return bus, muxes, mux, sims, drivers


def test_reads_every_sensor_through_its_channel():
    bus, muxes, mux, sims, drv = rig()
    for k in range(16):
        assert drv[k].read_angle() == 200 * k + 7
    for k in (15, 0, 9, 8, 7):
        assert drv[k].read_angle() == 200 * k + 7


def test_angle_range_and_wrap():
    bus, muxes, mux, sims, drv = rig(1)
    for a in (0, 1, 2047, 4095):
        sims[0].angle = a
        assert drv[0].read_angle() == a
    sims[0].angle = 4096.2
    assert drv[0].read_angle() == 0


def test_missing_magnet_reads_minus_one():
    bus, muxes, mux, sims, drv = rig(2)
    sims[1].magnet = False
    for _ in range(50):
        assert drv[1].read_angle() == -1
    assert drv[0].read_angle() == 7
    assert drv[1].magnet_status() == as5600.MAGNET_NONE
    assert as5600.magnet_state(drv[1].status) == as5600.MAGNET_NONE
    sims[1].magnet = True
    assert drv[1].read_angle() == 207


def test_magnet_status():
    bus, muxes, mux, sims, drv = rig(1)
    s, d = sims[0], drv[0]
    assert d.magnet_status() == as5600.MAGNET_OK
    s.field = -1
    assert d.magnet_status() == as5600.MAGNET_WEAK
    assert d.read_angle() == 7  # still usable
    s.field = 1
    assert d.magnet_status() == as5600.MAGNET_STRONG
    assert as5600.MAGNET_NAMES[d.magnet_status()] == "strong"
    assert d.agc() == 0
    s.field = 0
    assert d.agc() == 64 and d.magnitude() == 2000


def test_sensor_nak_propagates_and_heals():
    bus, muxes, mux, sims, drv = rig(3)
    drv[2].read_angle()
    sims[2].nak = True
    e = mpytest.raises(OSError, drv[2].read_angle)
    assert e.errno == errno.EIO
    assert not mux.known  # the driver told the mux to forget
    assert drv[0].read_angle() == 7  # the others still read
    sims[2].nak = False
    assert drv[2].read_angle() == 407


def test_mux_brownout_heals_after_one_failed_read():
    bus, muxes, mux, sims, drv = rig(2)
    assert drv[1].read_angle() == 207
    bus.mux_reset()  # mux lost its control byte; the MuxBus cache still says channel 1
    mpytest.raises(OSError, drv[1].read_angle)
    assert drv[1].read_angle() == 207


def test_dead_mux_fails_its_dials_only():
    bus, muxes, mux, sims, drv = rig(16)
    muxes[1].nak = True
    for _ in range(3):
        for k in range(16):
            if k < 8:
                assert drv[k].read_angle() == 200 * k + 7
            else:
                assert mpytest.raises(OSError, drv[k].read_angle).errno == errno.EIO
    muxes[1].nak = False
    assert [d.read_angle() for d in drv] == [200 * k + 7 for k in range(16)]


def test_no_mux():
    bus = SimI2C()
    s = bus.add_device(SimAS5600(angle=321))
    d = AS5600(bus, None, -1, -1)
    assert d.read_angle() == 321
    s.nak = True
    mpytest.raises(OSError, d.read_angle)


def test_both_muxes_on_corrupts_without_muxbus():
    # Why MuxBus switches the other mux off: with both on, the read is the wired-AND.
    bus, muxes, mux, sims, drv = rig(16)
    bus.writeto(0x70, b"\x01")
    bus.writeto(0x71, b"\x01")
    d = AS5600(bus, None, -1, -1)
    assert d.read_angle() == (7 & 1607)
    assert drv[8].read_angle() == 1607  # through MuxBus: 0x70 switched off first


def test_status_read_every_sample_costs_one_byte():
    bus, muxes, mux, sims, drv = rig(1)
    drv[0].read_angle()
    b = bus.bits
    drv[0].read_angle()
    assert bus.bits - b == 57  # 3-byte burst: STATUS + RAW ANGLE, no mux write


def test_full_pass_bus_time():
    bus, muxes, mux, sims, drv = rig(16)
    for d in drv:
        d.read_angle()
    b = bus.bits
    for d in drv:
        d.read_angle()
    us = (bus.bits - b) * 1_000_000 // bus.freq
    assert 3000 < us < 3400, us  # ~3.2 ms of bus time per pass at 400 kHz


def test_read_angle_does_not_allocate():
    bus, muxes, mux, sims, drv = rig(16)
    for s in sims:
        s.jitter = True
        s.angle = s.angle + 0.25
    state = [0]

    def sweep():
        i = state[0]
        state[0] = (i + 1) & 15
        drv[i].read_angle()

    assert mpytest.alloc(sweep, 320) == 0
    sims[4].magnet = False
    assert mpytest.alloc(sweep, 320) == 0
    d = drv[0]
    assert mpytest.alloc(d.read_angle) == 0


def test_silent_short_read_is_no_magnet_not_a_stale_angle():
    class SilentBus:  # machine.I2C when the register byte is NAKed: returns, reads nothing
        def readfrom_mem_into(self, addr, memaddr, buf):
            pass

    bus = SimI2C()
    bus.add_device(SimAS5600(angle=99))
    d = AS5600(bus, None, -1, -1)
    assert d.read_angle() == 99
    d.i2c = SilentBus()
    assert d.read_angle() == -1
