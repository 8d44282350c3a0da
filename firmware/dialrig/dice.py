# dialrig.dice — the LED dice: WS2812 pips showing d6 faces, the d10 ring, and fair rolls from
# hardware entropy.
"""LED dice on one WS2812 chain, the ten-LED d10 ring after them, and fair rolls of any die.

Each die is 7 WS2812 LEDs, the 7 positions of a 3x3 grid a die face can light, chained in pip
order (the chain runs die 0 pip 0..6, die 1 pip 0..6, ...)::

    1 . 2        pip 0  centre          face 1: 0
    3 0 4        pip 1  top left        face 2: 1 6
    5 . 6        pip 2  top right       face 3: 1 0 6
                 pip 3  middle left     face 4: 1 2 5 6
                 pip 4  middle right    face 5: 1 2 0 5 6
                 pip 5  bottom left     face 6: 1 2 3 4 5 6
                 pip 6  bottom right

The d10 ring (hardware/README.md, "The d10 ring"): RING_LEDS = 10 WS2812 in a circle at the end
of the chain, after the last die, numerals 1..10 printed beside them clockwise from the top.
A d10 face f lights ring LEDs 0..f-1: the lit arc ends at the numeral f, and its length can be
read at a glance (a full ring is 10). Why not a numeral on the pips: a die is a 3x3 grid
without its top and bottom middle, which cannot draw the digits 0..9 legibly. The ring shows
the first die of a roll; every die of a d7..d10 roll is also shown on a pair of pip dice,
counted in fives (die 2k: min(f, 5) pips, die 2k+1: the rest), so 7 is five and two and 10
is five and five. A tray without the ring loses nothing else: the extra bytes fall off the end
of the chain. Dice of more than 10 sides are logged, not shown.

Current budget (why BRIGHTNESS_CAP): a WS2812 draws ~20 mA per colour channel at 255, 60 mA at
full white. The tray runs from USB (500 mA): the Pico takes ~25 mA, 16 AS5600 ~105 mA, 94 idle
WS2812 (84 pips, 10 ring) ~56 mA, leaving ~300 mA for lit pips. At most 12 dice x 6 pips = 72
LEDs are lit (a d10 roll: the full ring and 6 pairs of five and five, 10 + 60 = 70), so each may
draw 300 / 72 = 4.2 mA: the sum of its R+G+B values must stay <= 4.2 / 20 x 255 = 53.
set() scales every colour down so that R+G+B <= BRIGHTNESS_CAP (48), whatever the caller asks.

When the hardware fails: a WS2812 that is dead breaks the chain after it (the later dice stay
dark or show garbage); the driver cannot see that (WS2812 has no read-back) and does nothing.
The entropy source (the RP2040's ring oscillator random bit) can stop toggling, e.g. if the
ROSC is stopped, and then returns the same byte forever: roll_into() raises OSError(EIO) when
a whole refill of its scratch buffer is one repeated byte or contains no usable byte, rather
than rolling the same face forever (or looping forever).

Nothing here allocates after construction: set(), set_ring(), show_roll(), clear() and
roll_into() work in place.
"""

import errno

from dialrig import config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from micropython import const
else:
    try:
        from micropython import const
    except ImportError:  # CPython (the host imports this module too)

        def const(x):
            return x


PIPS = config.PIPS_PER_DIE
_PIPS = const(7)
_BYTES_PER_DIE = const(21)  # 7 LEDs x GRB
RING_LEDS = config.RING_LEDS  # the d10 ring, after the last die on the chain
_RING_LEDS = const(10)
if RING_LEDS != _RING_LEDS:  # const() needs a literal: keep the two in step
    raise ImportError("dialrig.dice: config.RING_LEDS must be 10")

# Colours as 0xRRGGBB (set() applies the brightness cap).
OFF = 0x000000
HIT = 0x00FF00  # green
MISS = 0xFF0000  # red
SIX = 0xFFB000  # gold: a natural six (any die's top face: a natural 10 on a d10)

BRIGHTNESS_CAP = 48  # max R+G+B per LED (of 765): see the current budget above

# Bit p set = pip p lit, indexed by face 0 (blank) .. 6.
FACE_PIPS = bytes((0x00, 0x01, 0x42, 0x43, 0x66, 0x67, 0x7E))

MIN_SIDES = 2
MAX_SIDES = 255
_SCRATCH = bytearray(16)


def _capped(colour, cap):
    """colour 0xRRGGBB scaled down so that R+G+B <= cap, packed as 0xGGRRBB (wire order)."""
    r = (colour >> 16) & 0xFF
    g = (colour >> 8) & 0xFF
    b = colour & 0xFF
    total = r + g + b
    if total > cap:
        r = r * cap // total
        g = g * cap // total
        b = b * cap // total
    return g << 16 | r << 8 | b


class DiceDisplay:
    """n_dice (0..config.MAX_DICE) dice and the d10 ring; ``buffer`` is the GRB bytearray for
    board.show_leds (the dice's n_dice x 7 LEDs, then the ring's RING_LEDS)."""

    def __init__(self, n_dice, cap=BRIGHTNESS_CAP):
        if not 0 <= n_dice <= config.MAX_DICE:
            raise ValueError("n_dice must be 0..%d" % config.MAX_DICE)
        self.n_dice = n_dice
        self.cap = cap
        self.ring_at = n_dice * _BYTES_PER_DIE  # the ring's first byte in the buffer
        self.buffer = bytearray(n_dice * _BYTES_PER_DIE + _RING_LEDS * 3)

    def set(self, i, face, colour):
        """Show face 1..6 (0: blank) on die i in colour 0xRRGGBB, capped to the current budget."""
        if not 0 <= i < self.n_dice:
            raise IndexError("no such die")
        if not 0 <= face <= 6:
            raise ValueError("face must be 0..6")
        grb = _capped(colour, self.cap)
        g = grb >> 16
        r = (grb >> 8) & 0xFF
        b = grb & 0xFF
        mask = FACE_PIPS[face]
        buf = self.buffer
        o = i * _BYTES_PER_DIE
        for p in range(_PIPS):
            if mask & (1 << p):
                buf[o] = g
                buf[o + 1] = r
                buf[o + 2] = b
            else:
                buf[o] = 0
                buf[o + 1] = 0
                buf[o + 2] = 0
            o += 3

    def set_ring(self, face, colour):
        """Show d10 face 1..10 on the ring (ring LEDs 0..face-1 lit; 0: dark), capped."""
        if not 0 <= face <= _RING_LEDS:
            raise ValueError("ring face must be 0..%d" % _RING_LEDS)
        grb = _capped(colour, self.cap)
        g = grb >> 16
        r = (grb >> 8) & 0xFF
        b = grb & 0xFF
        buf = self.buffer
        o = self.ring_at
        for k in range(_RING_LEDS):
            lit = k < face
            buf[o] = g if lit else 0
            buf[o + 1] = r if lit else 0
            buf[o + 2] = b if lit else 0
            o += 3

    def show_roll(self, faces, n, sides):
        """Show a roll of n dice of `sides` sides (faces[0:n]) as the module docstring says:
        d2..d6 on the pips, d7..d10 on the ring (die 0) and pip pairs in fives, larger dice not
        at all. Red, the top face gold. Everything else goes dark."""
        self.clear()
        if sides <= 6:
            for i in range(min(n, self.n_dice)):
                f = faces[i]
                self.set(i, f, SIX if f == sides else MISS)
        elif sides <= _RING_LEDS:
            if n:
                self.set_ring(faces[0], SIX if faces[0] == sides else MISS)
            for k in range(min(n, self.n_dice // 2)):
                f = faces[k]
                colour = SIX if f == sides else MISS
                self.set(2 * k, f if f < 5 else 5, colour)
                self.set(2 * k + 1, f - 5 if f > 5 else 0, colour)

    def clear(self):
        """Every LED off."""
        buf = self.buffer
        for k in range(len(buf)):
            buf[k] = 0


def shown_face(buf, i):
    """The d6 face die i shows in an LED frame `buf` (1..6, 0 dark), -1 if its lit pips are no
    face: what a person reads off the panel (tests read the simulated panel with it)."""
    mask = 0
    o = i * _BYTES_PER_DIE
    for p in range(_PIPS):
        if buf[o] or buf[o + 1] or buf[o + 2]:
            mask |= 1 << p
        o += 3
    for face in range(7):
        if FACE_PIPS[face] == mask:
            return face
    return -1


def shown_ring(buf, n_dice):
    """The d10 face the ring shows in an LED frame of n_dice dice (0: dark), -1 if the lit
    LEDs are not one arc from LED 0 (or the frame has no ring)."""
    o = n_dice * _BYTES_PER_DIE
    if len(buf) < o + 3 * _RING_LEDS:
        return -1
    face = 0
    for k in range(_RING_LEDS):
        if buf[o] or buf[o + 1] or buf[o + 2]:
            if face != k:
                return -1
            face = k + 1
        o += 3
    return face


def roll_into(faces, n, entropy_fn, sides=6):
    """Fill faces[0:n] with fair results 1..sides using entropy_fn(buf), which fills buf.

    Rejection sampling: a byte b < limit = 256 - 256 % sides gives b % sides + 1 (each face from
    exactly limit / sides byte values; for a d6 252 = 42 x 6, for a d10 250 = 25 x 10), the
    bytes from limit up are thrown away. Raises OSError(EIO) when the entropy source looks stuck.
    """
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError("sides must be 2..255")
    limit = 256 - 256 % sides
    scratch = _SCRATCH
    size = len(scratch)
    k = size
    got = 0
    while got < n:
        if k >= size:
            entropy_fn(scratch)
            k = 0
            first = scratch[0]
            same = True
            usable = False
            for j in range(size):
                b = scratch[j]
                if b != first:
                    same = False
                if b < limit:
                    usable = True
            if same or not usable:
                raise OSError(errno.EIO)
        b = scratch[k]
        k += 1
        if b < limit:
            faces[got] = b % sides + 1
            got += 1
