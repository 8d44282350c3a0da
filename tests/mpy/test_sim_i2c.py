# MicroPython tests of dialrig.sim_i2c: the simulated bus must fail the way the real parts do.
import errno

from dialrig.sim_i2c import SimAS5600, SimI2C

import mpytest


def rig():
    bus = SimI2C()
    m0 = bus.add_mux(0x70)
    m1 = bus.add_mux(0x71)
    a = m0.attach(2, SimAS5600(angle=1000))
    b = m1.attach(5, SimAS5600(angle=3000))
    return bus, m0, m1, a, b


def read3(bus):
    buf = bytearray(3)
    bus.readfrom_mem_into(0x36, 0x0B, buf)
    return buf


def test_scan_sees_muxes_and_enabled_channels_only():
    bus, m0, m1, a, b = rig()
    assert bus.scan() == [0x70, 0x71]
    bus.writeto(0x70, b"\x04")
    assert m0.control == 0x04
    assert bus.scan() == [0x36, 0x70, 0x71]


def test_mux_control_byte_reads_back_and_last_byte_wins():
    bus, m0, m1, a, b = rig()
    assert bus.writeto(0x71, b"\x01\x20") == 2
    assert bus.readfrom(0x71, 1) == b"\x20"
    bus.mux_reset()
    assert m1.control == 0


def test_nobody_answers_raises_eio_like_rp2():
    bus, m0, m1, a, b = rig()
    e = mpytest.raises(OSError, read3, bus)  # no channel enabled: 0x36 is nobody
    assert e.errno == errno.EIO
    e = mpytest.raises(OSError, bus.writeto, 0x72, b"\x00")
    assert e.errno == errno.EIO


def test_zero_length_write_and_softi2c_mode_raise_enodev():
    bus = SimI2C()
    assert mpytest.raises(OSError, bus.writeto, 0x70, b"").errno == errno.ENODEV
    soft = SimI2C(nodev_errno=errno.ENODEV)
    assert mpytest.raises(OSError, soft.readfrom, 0x36, 2).errno == errno.ENODEV


def test_stuck_bus_times_out():
    bus, m0, m1, a, b = rig()
    bus.stuck = True
    assert mpytest.raises(OSError, bus.writeto, 0x70, b"\x01").errno == errno.ETIMEDOUT
    assert bus.scan() == []


def test_raw_angle_status_burst():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    assert read3(bus) == bytearray((0x20, 1000 >> 8, 1000 & 0xFF))
    a.angle = 4095.6  # rounds to 4096, wraps to 0
    assert read3(bus) == bytearray((0x20, 0, 0))
    a.angle = -1
    assert read3(bus)[1:] == bytearray((0x0F, 0xFF))


def test_angle_register_subtracts_zpos():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    bus.writeto_mem(0x36, 0x01, b"\x00\x64")  # ZPOS = 100
    assert bus.readfrom_mem(0x36, 0x01, 2) == b"\x00\x64"
    assert bus.readfrom_mem(0x36, 0x0E, 2) == bytes(((900 >> 8), 900 & 0xFF))


def test_pointer_holds_on_raw_angle_high_byte():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    bus.writeto(0x36, b"\x0c")  # set the pointer only
    buf = bytearray(4)
    bus.readfrom_into(0x36, buf)
    assert buf == bytearray((3, 0xE8, 3, 0xE8))  # 1000 = 0x3E8, re-read without re-addressing
    bus.readfrom_into(0x36, buf)
    assert buf == bytearray((3, 0xE8, 3, 0xE8))


def test_invalid_register_is_nak_and_silent_like_machine_i2c():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    assert bus.writeto(0x36, b"\x10") == 0  # 0x10 is not a register: word address NAKed
    buf = bytearray(b"\xaa\xaa")
    bus.readfrom_mem_into(0x36, 0x10, buf)  # machine.I2C returns without raising
    assert buf == bytearray(b"\xaa\xaa")


def test_missing_magnet_status_and_noise():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    a.magnet = False
    seen = set()
    for _ in range(20):
        s = read3(bus)
        assert s[0] & 0x20 == 0  # MD clear
        assert s[0] & 0x10  # ML: AGC at maximum gain
        seen.add((s[1] << 8) | s[2])
    assert len(seen) > 10  # noise, not a frozen value
    assert bus.readfrom_mem(0x36, 0x1A, 1) == b"\x80"  # AGC maxed (3.3 V range)


def test_weak_and_strong_field_flags():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    a.field = -1
    assert read3(bus)[0] == 0x30
    a.field = 1
    assert read3(bus)[0] == 0x28
    a.field = 0
    assert read3(bus)[0] == 0x20
    mag = bus.readfrom_mem(0x36, 0x1B, 2)
    assert (mag[0] << 8) | mag[1] == 2000


def test_sensor_nak():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    a.nak = True
    assert mpytest.raises(OSError, read3, bus).errno == errno.EIO
    a.nak = False
    assert read3(bus)[0] == 0x20


def test_mux_nak_only_its_own_address():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    m0.nak = True
    assert mpytest.raises(OSError, bus.writeto, 0x70, b"\x00").errno == errno.EIO
    assert read3(bus)[0] == 0x20  # what was switched on stays on


def test_both_muxes_enabled_read_the_wired_and():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    bus.writeto(0x71, b"\x20")
    s = read3(bus)
    assert (s[1] << 8) | s[2] == 1000 & 3000  # 0x3E8 & 0xBB8 = 0x2A8: plausible, wrong
    assert (s[1] << 8) | s[2] not in (1000, 3000)
    a.nak = True  # one of them gone: the other reads clean again
    s = read3(bus)
    assert (s[1] << 8) | s[2] == 3000


def test_jitter_is_bounded_and_deterministic():
    def run():
        bus, m0, m1, a, b = rig()
        bus.writeto(0x70, b"\x04")
        a.jitter = True
        out = []
        for _ in range(200):
            s = read3(bus)
            out.append((s[1] << 8) | s[2])
        return out

    first = run()
    assert first == run()
    assert min(first) == 999 and max(first) == 1001


def test_traffic_counters():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")  # START + addr + 1 byte + STOP = 20 bits
    assert bus.bits == 20 and bus.transfers == 1
    read3(bus)  # 1 + 9 + 9 + 1 + 9 + 27 + 1 = 57 bits
    assert bus.bits == 77
    assert bus.bus_time_us() == 77 * 1_000_000 // 400_000


def test_reads_do_not_allocate():
    bus, m0, m1, a, b = rig()
    bus.writeto(0x70, b"\x04")
    a.jitter = True
    a.angle = 1234.5
    buf = bytearray(3)
    one = bytearray(1)
    mv = memoryview(buf)

    def hot():
        one[0] = 0x04
        bus.writeto(0x70, one)
        bus.readfrom_into(0x70, one)
        bus.readfrom_mem_into(0x36, 0x0B, buf)
        bus.readfrom_mem_into(0x36, 0x0B, mv)

    assert mpytest.alloc(hot) == 0
    a.magnet = False  # the noise path too
    assert mpytest.alloc(hot) == 0
