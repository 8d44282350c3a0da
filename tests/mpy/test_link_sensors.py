# Issue 8, defect 4: SET_DIAL must never put two dials on one sensor (they would both report the
# same turns). The device refuses with ACK_IN_USE, naming the dial already there, and changes
# nothing; moving a dial onto a free sensor, or re-sending its own, still works.
import time

from dialrig import config, proto

from devrig import device


def _set_dial(app, cmd_id, dock, dial, sensor, mux, channel, quad):
    frame = proto.encode(proto.C_SET_DIAL, proto.SET_DIAL_FMT, cmd_id, dock, dial,
                         proto.SENSOR_CODES[sensor], mux, channel, quad, 12, 1, 1, 0)
    app.link.receive(frame, time.ticks_ms())


def test_an_as5600_already_read_by_another_dial_is_refused_naming_it():
    app, io = device(config.default_config(2))
    before = repr(app.cfg)
    # dock 0 combat is on mux 0x70 channel 0: put dock 1 speed there too
    _set_dial(app, 11, 1, 1, "as5600", 0x70, 0, -1)
    assert io.acks() == [(11, proto.ACK_IN_USE, 0)]
    assert repr(app.cfg) == before and app.link.bad_args == 1
    # dock 0 speed (channel 1) onto dock 1 combat's channel 2: refused, names dial 2
    _set_dial(app, 12, 0, 1, "as5600", 0x70, 2, -1)
    assert io.acks() == [(12, proto.ACK_IN_USE, 2)]
    assert repr(app.cfg) == before


def test_a_free_sensor_or_the_dials_own_is_accepted():
    app, io = device(config.default_config(2))
    _set_dial(app, 21, 1, 1, "as5600", 0x70, 7, -1)  # a free channel
    _set_dial(app, 22, 0, 0, "as5600", 0x70, 0, -1)  # dock 0 combat keeps its own channel
    _set_dial(app, 23, 0, 1, "as5600", 0x70, 3, -1)  # dock 1 speed's old channel, now free
    assert io.acks() == [(21, proto.ACK_OK, 0), (22, proto.ACK_OK, 0), (23, proto.ACK_OK, 0)]
    assert app.cfg["docks"][1][1]["channel"] == 7 and app.cfg["docks"][0][1]["channel"] == 3
    # the same channel on the other mux is another sensor
    _set_dial(app, 24, 1, 0, "as5600", 0x71, 0, -1)
    assert io.acks() == [(24, proto.ACK_OK, 0)]


def test_a_quadrature_decoder_already_used_is_refused_naming_it():
    cfg = config.quadrature_config(2)
    app, io = device(cfg)
    before = repr(app.cfg)
    used = cfg["docks"][0][0]["quad"]
    _set_dial(app, 31, 1, 1, "quadrature", 0, -1, used)
    assert io.acks() == [(31, proto.ACK_IN_USE, 0)]
    assert repr(app.cfg) == before


def test_a_resent_refusal_gets_the_same_answer_naming_the_same_dial():
    app, io = device(config.default_config(2))
    _set_dial(app, 41, 1, 1, "as5600", 0x70, 2, -1)  # dock 1 combat's sensor (dial 2)
    _set_dial(app, 41, 1, 1, "as5600", 0x70, 2, -1)  # the ACK was lost: the host resends
    acks = io.acks()
    assert acks == [(41, proto.ACK_IN_USE, 2), (41, proto.ACK_IN_USE, 2)]
