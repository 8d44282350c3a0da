# Issue 9, "Self-test says what a builder needs": dialrig.selftest on the simulated parts.
# Each AS5600 reports magnet ok / none / too weak / too strong with its AGC, a sensor or a
# multiplexer that does not answer is told apart (with its mux and channel), an encoder reports
# its count, and the lamp test lights every LED of every die in red, green and blue.
import asyncio
import struct

from dialrig import config, proto
from dialrig.sim_i2c import AGC_MAX, SimAS5600

from devrig import device


def _device(cfg):
    app, _ = device(cfg)
    return app, app.board


def _events(app, kind):
    out = []
    ring = app.ring
    for seq in range(ring.oldest(), ring.next_seq):
        f = struct.unpack(proto.EVENT_FMT, bytes(ring.record(seq)))
        if f[2] == kind:
            out.append(f[3:])  # dock, dial, value, extra
    return out


def _checks(app):
    return {(d, i): (extra & 0xFF, value) for d, i, value, extra in
            _events(app, proto.EV_SENSOR)}


def test_gap_model_follows_the_datasheet_range():
    s = SimAS5600()
    s.set_gap(1.0)  # the dock's default air gap
    assert s.field == 0 and 0 < s._gap_agc < AGC_MAX
    s.set_gap(0.2)
    assert s.field == 1 and s._gap_agc == 0  # too strong: MH, no gain left to take off
    s.set_gap(4.0)
    assert s.field == -1 and s._gap_agc == AGC_MAX and not s._gap_far  # too weak: ML
    s.set_gap(12.0)
    assert s._gap_far  # nothing detected
    near = SimAS5600()
    near.set_gap(0.8)
    far = SimAS5600()
    far.set_gap(2.5)
    assert near._gap_agc < far._gap_agc  # the further away, the more gain
    s.set_gap(None)
    assert s.gap is None and s._gap_agc == -1 and s.field == 0


def test_each_magnet_and_wiring_fault_is_reported_with_agc_and_channel():
    app, board = _device(config.default_config(4))
    board.set_gap(0, 0.2)  # dock 0 combat: too close
    board.set_gap(1, 4.0)  # dock 0 speed: too far
    board.set_magnet(2, False)  # dock 1 combat: no magnet
    board.set_nak(3, True)  # dock 1 speed: the AS5600 does not answer
    board.set_gap(4, 1.0)  # dock 2 combat: fine
    asyncio.run(_run(app, False))
    got = _checks(app)
    assert got[(0, 0)][0] == proto.SENSE_STRONG and got[(0, 0)][1] & 0xFF == 0
    assert got[(0, 1)][0] == proto.SENSE_WEAK and got[(0, 1)][1] & 0xFF == AGC_MAX
    assert got[(1, 0)][0] == proto.SENSE_NO_MAGNET
    assert got[(1, 1)][0] == proto.SENSE_NAK
    assert got[(1, 1)][1] >> 20 & 7 == 3 and got[(1, 1)][1] >> 23 == 0x70  # mux 0x70 ch 3
    assert got[(2, 0)][0] == proto.SENSE_OK and 0 < got[(2, 0)][1] & 0xFF < AGC_MAX
    assert got[(2, 1)][0] == proto.SENSE_OK  # no gap model: in range
    kinds = set(extra >> 8 for _, _, _, extra in _events(app, proto.EV_SENSOR))
    assert kinds == {1}  # every dial an AS5600
    ((_, _, failed, walked),) = _events(app, proto.EV_SELFTEST)
    assert failed == 0b1111 and walked == 0


async def _run(app, lamps):
    assert app.start_selftest(lamps)
    assert not app.start_selftest(lamps)  # one at a time
    while app.selftest_running:
        await asyncio.sleep_ms(5)


def test_a_multiplexer_that_does_not_answer_is_named_not_its_sensors():
    app, board = _device(config.default_config(8))
    board.i2c._muxes[1].nak = True  # 0x71: docks 4..7
    asyncio.run(_run(app, False))
    got = _checks(app)
    assert got[(4, 0)][0] == proto.SENSE_MUX_NAK and got[(4, 0)][1] >> 23 == 0x71
    assert got[(0, 0)][0] == proto.SENSE_OK


def test_an_encoder_reports_its_count_and_a_missing_sensor_says_so():
    cfg = config.quadrature_config(2)
    cfg["docks"][1][1] = dict(cfg["docks"][1][1], sensor="none")
    app, board = _device(cfg)
    got = None
    asyncio.run(_run(app, False))
    got = _checks(app)
    assert got[(0, 0)][0] == proto.SENSE_COUNTER
    assert got[(1, 1)][0] == proto.SENSE_NONE
    ((_, _, failed, _),) = _events(app, proto.EV_SELFTEST)
    assert failed == 0  # neither can fail before anyone turns a dial


def test_lamp_test_lights_every_led_of_every_die_in_each_colour():
    cfg = config.default_config(2)
    cfg["dice"] = 3
    app, board = _device(cfg)
    frames = []
    show = board.show_leds

    def record(buf):
        frames.append(bytes(buf))
        show(buf)

    board.show_leds = record
    asyncio.run(_run(app, True))
    # 3 dice, then the d10 ring (issue 15), in R, G, B each; then dark.
    assert len(frames) == 4 * 3 + 1 and frames[-1] == bytes(len(frames[-1]))
    per_die = 7 * 3
    for n, frame in enumerate(frames[:-1]):
        die, colour = divmod(n, 3)
        lit = [i // 3 for i in range(len(frame)) if frame[i]]
        want = 10 if die == 3 else 7  # the ring's 10 LEDs follow the last die
        assert sorted(set(lit)) == list(range(die * 7, die * 7 + want))  # all LEDs of that die
        grb = frame[die * per_die:die * per_die + 3]
        assert [c > 0 for c in grb] == [colour == 1, colour == 0, colour == 2]  # R, G, B
    ((_, _, _, walked),) = _events(app, proto.EV_SELFTEST)
    assert walked == 3
