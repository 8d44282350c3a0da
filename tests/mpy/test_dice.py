# MicroPython tests of dialrig.dice: pip patterns, the brightness cap and fair rolls.
import errno

from dialrig import config, dice
from dialrig.dice import DiceDisplay, roll_into

import mpytest


def lit(d, i):
    """The set of lit pips of die i."""
    out = set()
    for p in range(7):
        o = (i * 7 + p) * 3
        if d.buffer[o] or d.buffer[o + 1] or d.buffer[o + 2]:
            out.add(p)
    return out


def test_buffer_size():
    # The dice, then the d10 ring's RING_LEDS at the end of the chain.
    assert len(DiceDisplay(config.MAX_DICE).buffer) == \
        (config.MAX_DICE * config.PIPS_PER_DIE + dice.RING_LEDS) * 3
    assert len(DiceDisplay(0).buffer) == dice.RING_LEDS * 3
    mpytest.raises(ValueError, DiceDisplay, config.MAX_DICE + 1)


def test_standard_pip_patterns():
    d = DiceDisplay(2)
    want = {
        0: set(),
        1: {0},
        2: {1, 6},
        3: {1, 0, 6},
        4: {1, 2, 5, 6},
        5: {0, 1, 2, 5, 6},
        6: {1, 2, 3, 4, 5, 6},
    }
    for face in range(7):
        d.set(1, face, dice.HIT)
        assert lit(d, 1) == want[face], face
        assert lit(d, 0) == set()
        assert len(lit(d, 1)) == face


def test_pattern_is_point_symmetric():
    # Every standard d6 face looks the same turned 180 degrees: pip p <-> its opposite.
    opposite = (0, 6, 5, 4, 3, 2, 1)
    for face in range(7):
        mask = dice.FACE_PIPS[face]
        for p in range(7):
            assert bool(mask & (1 << p)) == bool(mask & (1 << opposite[p]))


def test_grb_order_and_cap():
    d = DiceDisplay(1)
    d.set(0, 1, 0x102030)  # R=16 G=32 B=48: total 96, scaled to the cap of 48
    g, r, b = d.buffer[0], d.buffer[1], d.buffer[2]
    assert (g, r, b) == (16, 8, 24)
    assert r + g + b <= dice.BRIGHTNESS_CAP
    d.set(0, 1, 0x010203)  # under the cap: unchanged
    assert (d.buffer[0], d.buffer[1], d.buffer[2]) == (2, 1, 3)


def test_every_colour_within_budget():
    d = DiceDisplay(config.MAX_DICE)
    for i in range(config.MAX_DICE):
        d.set(i, 6, (dice.HIT, dice.MISS, dice.SIX, 0xFFFFFF)[i % 4])
    # Worst case current: 20 mA per channel at 255.
    ma = sum(d.buffer) * 20 / 255
    assert ma <= 72 * dice.BRIGHTNESS_CAP * 20 / 255
    assert ma < 300
    for k in range(0, len(d.buffer), 3):
        assert d.buffer[k] + d.buffer[k + 1] + d.buffer[k + 2] <= dice.BRIGHTNESS_CAP


def test_colours_distinct():
    d = DiceDisplay(3)
    d.set(0, 1, dice.HIT)
    d.set(1, 1, dice.MISS)
    d.set(2, 1, dice.SIX)
    px = [bytes(d.buffer[i * 21:i * 21 + 3]) for i in range(3)]
    assert len(set(px)) == 3
    d.set(0, 6, dice.OFF)
    assert lit(d, 0) == set()


def test_clear():
    d = DiceDisplay(4)
    for i in range(4):
        d.set(i, 5, dice.SIX)
    d.clear()
    assert d.buffer == bytearray(len(d.buffer))


def test_bad_arguments():
    d = DiceDisplay(2)
    mpytest.raises(IndexError, d.set, 2, 1, dice.HIT)
    mpytest.raises(IndexError, d.set, -1, 1, dice.HIT)
    mpytest.raises(ValueError, d.set, 0, 7, dice.HIT)


class Xorshift32:
    """A seeded entropy stub: entropy(buf) fills buf like board.entropy_into."""

    def __init__(self, seed):
        self.x = seed

    def entropy(self, buf):
        x = self.x
        for i in range(len(buf)):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            buf[i] = x >> 24
        self.x = x


def _chi_square_of_rolls(seed, sides):
    """(chi-square against uniform, face counts) of 12 000 rolls of a d<sides> from Xorshift32
    seeded with seed, 60 at a time; no roll may come out 0."""
    rng = Xorshift32(seed)
    faces = bytearray(60)
    counts = [0] * (sides + 1)
    for _ in range(200):
        roll_into(faces, 60, rng.entropy, sides)
        for f in faces:
            counts[f] += 1
    assert counts[0] == 0
    expected = 12000 / sides
    return sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1)), counts


def _counting_source():
    """(state, entropy): an entropy source giving the bytes 0, 1, 2, ... (mod 256); state[0] is
    how many bytes it has given."""
    state = [0]

    def counting(buf):
        for i in range(len(buf)):
            buf[i] = state[0] & 0xFF
            state[0] += 1

    return state, counting


def _face_counts(faces, sides):
    counts = [0] * (sides + 1)
    for f in faces:
        counts[f] += 1
    return counts


def test_roll_fair_chi_square():
    chi2, counts = _chi_square_of_rolls(0x12345678, 6)
    assert chi2 < 20.52, (chi2, counts)  # 5 degrees of freedom, p = 0.001


def test_every_byte_value_maps_evenly():
    # Feed each byte 0..255 exactly once: 42 of each face, the four bytes >= 252 rejected.
    state, counting = _counting_source()
    faces = bytearray(252)
    roll_into(faces, 252, counting)
    assert _face_counts(faces, 6) == [0, 42, 42, 42, 42, 42, 42]
    assert state[0] == 256  # 252 accepted + 4 rejected, nothing more consumed


def test_rejected_bytes_are_skipped():
    seq = bytes((255, 252, 5, 253, 0, 254, 251)) + bytes(range(9))

    def src(buf):
        for i in range(len(buf)):
            buf[i] = seq[i]

    faces = bytearray(3)
    roll_into(faces, 3, src)
    assert faces == bytearray((6, 1, 6))  # 5 % 6 + 1, 0 % 6 + 1, 251 % 6 + 1


def test_stuck_entropy_raises():
    def stuck(buf):
        for i in range(len(buf)):
            buf[i] = 0x55

    def all_rejected(buf):
        for i in range(len(buf)):
            buf[i] = 252 + (i & 3)

    faces = bytearray(4)
    assert mpytest.raises(OSError, roll_into, faces, 4, stuck).errno == errno.EIO
    assert mpytest.raises(OSError, roll_into, faces, 4, all_rejected).errno == errno.EIO


def test_roll_zero_dice():
    faces = bytearray(b"\x09")
    roll_into(faces, 0, Xorshift32(1).entropy)
    assert faces[0] == 9


def _full_panel(seed):
    """(display, faces, entropy) for rolling and showing config.MAX_DICE dice, all made before
    allocation is measured (entropy is bound once: looking a method up allocates)."""
    return DiceDisplay(config.MAX_DICE), bytearray(config.MAX_DICE), Xorshift32(seed).entropy


def test_no_allocation():
    d, faces, entropy = _full_panel(99)

    def show():
        roll_into(faces, config.MAX_DICE, entropy)
        for i in range(config.MAX_DICE):
            d.set(i, faces[i], dice.SIX if faces[i] == 6 else dice.HIT)

    assert mpytest.alloc(show, 20) == 0
    assert mpytest.alloc(d.clear) == 0


# ---- sided dice and the d10 ring (issue 15: the tray as dice tower) --------------------------


def test_roll_d10_chi_square_and_every_byte_maps_evenly():
    chi2, counts = _chi_square_of_rolls(0x2468ACE1, 10)
    assert chi2 < 27.88, (chi2, counts)  # 9 degrees of freedom, p = 0.001
    # Bytes 0..249 each once: 25 of every face; 250..255 rejected.
    _, counting = _counting_source()
    roll = bytearray(250)
    roll_into(roll, 250, counting, 10)
    assert _face_counts(roll, 10) == [0] + [25] * 10
    mpytest.raises(ValueError, roll_into, roll, 1, counting, 1)


def test_ring_shows_a_d10_face_as_an_arc_ending_at_its_numeral():
    d = DiceDisplay(config.MAX_DICE)
    for face in range(11):
        d.set_ring(face, dice.MISS)
        assert dice.shown_ring(d.buffer, config.MAX_DICE) == face
        for k in range(dice.RING_LEDS):
            o = d.ring_at + 3 * k
            px = d.buffer[o] + d.buffer[o + 1] + d.buffer[o + 2]
            assert (px > 0) == (k < face), (face, k)
            assert px <= dice.BRIGHTNESS_CAP
        assert all(lit(d, i) == set() for i in range(config.MAX_DICE))  # the dice untouched
    mpytest.raises(ValueError, d.set_ring, 11, dice.MISS)
    d.set_ring(0, dice.MISS)
    d.buffer[d.ring_at + 3 * 4] = 9  # LED 4 lit without 0..3: no face
    assert dice.shown_ring(d.buffer, config.MAX_DICE) == -1


def test_show_roll_d10_on_the_ring_and_pip_pairs_in_fives():
    d = DiceDisplay(config.MAX_DICE)
    faces = bytearray((7, 10, 5, 1, 6, 9, 3, 2, 8, 4, 10, 1))
    d.show_roll(faces, 12, 10)
    assert dice.shown_ring(d.buffer, 12) == 7
    for k in range(6):  # 12 dice: six pairs
        f = faces[k]
        assert dice.shown_face(d.buffer, 2 * k) + dice.shown_face(d.buffer, 2 * k + 1) == f
        assert dice.shown_face(d.buffer, 2 * k) == min(f, 5)
    # A natural 10 is gold (the top face), like a natural six.
    d.show_roll(bytearray((10,)), 1, 10)
    gold = bytes(d.buffer[d.ring_at:d.ring_at + 3])
    d.set_ring(1, dice.SIX)
    assert bytes(d.buffer[d.ring_at:d.ring_at + 3]) == gold
    # A d6 roll leaves the ring dark; a d12 is shown nowhere (logged only).
    d.show_roll(bytearray((3, 6)), 2, 6)
    assert dice.shown_ring(d.buffer, 12) == 0
    assert [dice.shown_face(d.buffer, i) for i in range(3)] == [3, 6, 0]
    d.show_roll(bytearray((12,)), 1, 12)
    assert d.buffer == bytearray(len(d.buffer))


def test_show_roll_within_the_current_budget():
    d = DiceDisplay(config.MAX_DICE)
    d.show_roll(bytearray([10] * 12), 12, 10)  # the most LEDs a d10 roll lights: 10 + 6 x 10
    lit_leds = sum(1 for k in range(0, len(d.buffer), 3)
                   if d.buffer[k] or d.buffer[k + 1] or d.buffer[k + 2])
    assert lit_leds == 70 <= 72
    assert sum(d.buffer) * 20 / 255 < 300


def test_sided_rolls_and_shows_do_not_allocate():
    d, faces, entropy = _full_panel(7)

    def roll_and_show():
        roll_into(faces, config.MAX_DICE, entropy, 10)
        d.show_roll(faces, config.MAX_DICE, 10)

    assert mpytest.alloc(roll_and_show, 20) == 0
