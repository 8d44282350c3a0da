# fwfuzz — a fuzzer for the firmware's receive path, run in MicroPython (issue 8).
#
# Everything a host (or line noise) can send reaches the firmware through Link.receive: the
# deframer, the parser and the command dispatch. This feeds it inputs of five kinds, built from a
# seeded xorshift32 so a failure can be replayed from (seed, index):
#   0 noise        random bytes, biased to the bytes the codec treats specially
#   1 command      a well-formed frame of any host command, fields drawn from edge values
#   2 mutant       a well-formed frame with 1-3 bit flips, deletions, insertions or a cut
#   3 wrong shape  any type byte (device-to-host, unknown) with a body of the wrong length
#   4 split        a command cut in two, delivered by two receive() calls with noise between
# and after every input checks what must always hold:
#   - receive() raises nothing;
#   - everything the device wrote back is well-formed frames (nothing corrupt, no text);
#   - the tray's configuration stays valid (config.validate: no two dials on one sensor, every
#     value in range), and the link's sequence state stays inside the ring;
# and at the end that the link still answers a HELLO.
# tests/mpy/test_fuzz_receive.py runs a quick pass; bench/bench_fw_fuzz.py runs >= 1 M inputs.
import time

from dialrig import config, hw_sim, proto
from dialrig.app import App

from devrig import CapturedIO

SPECIAL = (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x0D, 0x10, 0x1C, 0x1A, 0xA5, 0xFF)
EDGE_B = (0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 15, 16, 64, 65, 100, 101, 0x70, 0x71, 127,
          128, 254, 255)
EDGE_H = (0, 1, 4, 5, 100, 1000, 1001, 5000, 5001, 0x7FFF, 0xFFFF)
EDGE_SIGNED = (-128, -2, -1, 0, 1, 2, 7, 8, 127)
KINDS = ("noise", "command", "mutant", "wrong shape", "split")
_COMMANDS = [t for t in proto.BODY_FORMATS if t >= 0x40]


class Rng:
    def __init__(self, seed):
        self.x = (seed & 0xFFFFFFFF) or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.next() % len(seq)]

    def bytes(self, n):
        out = bytearray(n)
        for i in range(n):
            out[i] = self.pick(SPECIAL) if self.below(4) == 0 else self.next() & 0xFF
        return out


def _fields(rng, fmt, next_seq):
    """Field values for a struct format, drawn from edge values and the ring's neighbourhood."""
    out = []
    i = 1  # skip "<"
    while i < len(fmt):
        n = 0
        while fmt[i] in "0123456789":
            n = n * 10 + int(fmt[i])
            i += 1
        c = fmt[i]
        i += 1
        if c == "s":
            out.append(bytes(rng.below(9) for _ in range(n)))
        elif c == "B":
            out.append(rng.pick(EDGE_B) if rng.below(4) else rng.below(256))
        elif c == "b":
            out.append(rng.pick(EDGE_SIGNED))
        elif c == "H":
            out.append(rng.pick(EDGE_H) if rng.below(4) else rng.below(65536))
        elif c == "h":
            out.append(rng.pick(EDGE_SIGNED))
        elif c == "I":
            r = rng.below(6)
            if r < 3:
                out.append(max(0, next_seq - 2 + rng.below(5)))
            elif r == 3:
                out.append(rng.pick((0, 1, 0x7FFFFFFF, 0xFFFFFFFF)))
            else:
                out.append(rng.next())
        elif c == "i":
            r = rng.below(3)
            out.append(rng.pick((0, 1, -1, 4095, 4096, -4096)) if r else
                       (rng.next() & 0x7FFFFFFF) - 0x40000000)
        else:
            raise ValueError("format code " + c)
    return out


def _command(rng, next_seq):
    t = rng.pick(_COMMANDS)
    fmt = proto.BODY_FORMATS[t]
    return proto.encode(t, fmt, *_fields(rng, fmt, next_seq))


def _mutate(rng, frame):
    b = bytearray(frame)
    for _ in range(1 + rng.below(3)):
        r = rng.below(4)
        if not b:
            break
        at = rng.below(len(b))
        if r == 0:
            b[at] ^= 1 << rng.below(8)
        elif r == 1:
            b[at:at + 1] = b""
        elif r == 2:
            b[at:at] = bytes((rng.pick(SPECIAL),))
        else:
            b = b[:at]
    return bytes(b)


def make_input(rng, kind, next_seq):
    """One fuzz input: a list of chunks, each handed to one receive() call."""
    if kind == 0:
        return [rng.bytes(1 + rng.below(64))]
    if kind == 1:
        return [_command(rng, next_seq)]
    if kind == 2:
        return [_mutate(rng, _command(rng, next_seq))]
    if kind == 3:
        body = rng.bytes(rng.below(40))
        return [proto.encode_body(rng.below(256), bytes(body))]
    frame = _command(rng, next_seq)
    cut = 1 + rng.below(len(frame) - 1)
    return [frame[:cut], rng.bytes(rng.below(3)) if rng.below(2) else b"", frame[cut:]]


class Fuzzer:
    def __init__(self, seed, docks=2, quadrature=False):
        cfg = config.quadrature_config(docks) if quadrature else config.default_config(docks)
        self.seed = seed
        self.rng = Rng(seed)
        self.io = CapturedIO()  # keeps what the device writes until the checker reads it
        self.app = App(cfg, hw_sim.Board(cfg), self.io)
        self.link = self.app.link
        self.now = time.ticks_ms()
        self.app.dials.sample(self.now)
        self.out_frames = 0
        self.by_kind = [0] * len(KINDS)
        self.failures = []

    def check_output(self):
        out = self.io.out
        if not out:
            return None
        d = proto.Deframer()
        self.out_frames += len(d.feed(bytes(out) + b"\x00"))
        self.io.out = bytearray()
        if d.corrupt or d.noise or d.overflow:
            return "the device wrote a malformed frame"
        return None

    def check_state(self):
        problems = config.validate(self.app.cfg)
        if problems:
            return "config became invalid: " + "; ".join(problems)
        ring = self.app.ring
        if not (ring.oldest() <= ring.next_seq and self.link.acked <= ring.next_seq and
                1 <= self.link.send_seq <= ring.next_seq + 1):
            return "sequence state out of the ring: send %d acked %d next %d" % (
                self.link.send_seq, self.link.acked, ring.next_seq)
        return None

    def one(self, index):
        rng = self.rng
        kind = rng.below(len(KINDS))
        chunks = make_input(rng, kind, self.app.ring.next_seq)
        self.by_kind[kind] += 1
        self.now = time.ticks_add(self.now, 1 + rng.below(40))
        why = None
        try:
            for chunk in chunks:
                self.link.receive(chunk, self.now)
            self.link.pump(self.now)
            if index % 50 == 0:
                self.link.heartbeat(self.now)
            self.app.reboot_requested = False  # the board would reset here: carry on instead
            why = self.check_output() or (self.check_state() if index % 16 == 0 else None)
        except Exception as e:
            why = "%s: %s" % (type(e).__name__, e)
        if why:
            self.failures.append((index, KINDS[kind], why,
                                  "".join("%02x" % x for c in chunks for x in c)))
        return why

    def alive(self):
        """After the storm: a HELLO is still answered with an ACK and a HELLO."""
        self.io.out = bytearray()
        self.link.receive(proto.encode(proto.C_HELLO, proto.HOST_HELLO_FMT, 0xBEEF,
                                       proto.PROTO_VERSION), self.now)
        types = [t for t, _ in self.io.messages()]
        return proto.T_ACK in types and proto.T_HELLO in types

    def run(self, n):
        for i in range(n):
            self.one(i)
            if len(self.failures) >= 20:
                break
        return self.failures


def report(fz, n, seconds):
    stats = fz.link.deframer
    print("inputs %d seconds %.3f failures %d alive %d frames_out %d ok %d corrupt %d noise %d "
          "overflow %d unknown %d bad_args %d" % (
              n, seconds, len(fz.failures), 1 if fz.alive() else 0, fz.out_frames, stats.ok,
              stats.corrupt, stats.noise, stats.overflow, fz.link.unknown, fz.link.bad_args))
    print("kinds " + " ".join("%s=%d" % (KINDS[k].replace(" ", "_"), fz.by_kind[k])
                              for k in range(len(KINDS))))
    for f in fz.failures:
        print("FAILURE seed %d index %d kind %s: %s input %s" % (fz.seed, f[0], f[1], f[2], f[3]))


def main(seed, n, quadrature=False):
    fz = Fuzzer(seed, quadrature=quadrature)
    t0 = time.ticks_ms()
    fz.run(n)
    report(fz, n, time.ticks_diff(time.ticks_ms(), t0) / 1000)
