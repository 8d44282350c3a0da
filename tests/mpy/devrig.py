# devrig — the device the MicroPython link tests talk to: the real App on the simulated board
# (hw_sim), and a serial port that keeps what the device wrote until the test reads it.
#
# One copy for every test module that sends the device commands and reads its answers, so that a
# change to how the App is built (or to what a port must offer) is made once.
import time

from dialrig import config, hw_sim, proto
from dialrig.app import App


class CapturedIO:
    """The serial port, as a list of what the device wrote."""

    def __init__(self):
        self.out = bytearray()
        self.judge_ctrl_c = False

    def write(self, data):
        self.out.extend(data)

    def read_available(self):
        return None

    def messages(self):
        """Every (type, body) written since the last read, and forget them."""
        got = [proto.parse(p) for p in proto.Deframer().feed(bytes(self.out))]
        self.out = bytearray()
        return got

    def acks(self):
        """The fields of every ACK written since the last read (other messages are dropped)."""
        return [proto.fields(t, b) for t, b in self.messages() if t == proto.T_ACK]


def device(cfg=None, docks=2, entropy=None):
    """(app, io): an App on a simulated board with cfg (default: docks docks), its dials read
    once; entropy, when given, replaces the board's entropy source (board.entropy_into)."""
    if cfg is None:
        cfg = config.default_config(docks)
    board = hw_sim.Board(cfg)
    if entropy is not None:
        board.entropy_into = entropy
    io = CapturedIO()
    app = App(cfg, board, io)
    app.dials.sample(time.ticks_ms())
    return app, io


def send(app, mtype, fmt, *fields):
    """Deliver one host command to the device, now."""
    app.link.receive(proto.encode(mtype, fmt, *fields), time.ticks_ms())
