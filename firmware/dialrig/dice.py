# dialrig.dice — the LED dice: WS2812 pips showing d6 faces, and fair rolls from hardware entropy.
"""LED dice on one WS2812 chain, and fair d6 rolls.

Each die is 7 WS2812 LEDs, the 7 positions of a 3x3 grid a die face can light, chained in pip
order (the chain runs die 0 pip 0..6, die 1 pip 0..6, ...)::

    1 . 2        pip 0  centre          face 1: 0
    3 0 4        pip 1  top left        face 2: 1 6
    5 . 6        pip 2  top right       face 3: 1 0 6
                 pip 3  middle left     face 4: 1 2 5 6
                 pip 4  middle right    face 5: 1 2 0 5 6
                 pip 5  bottom left     face 6: 1 2 3 4 5 6
                 pip 6  bottom right

Current budget (why BRIGHTNESS_CAP): a WS2812 draws ~20 mA per colour channel at 255, 60 mA at
full white. The tray runs from USB (500 mA): the Pico takes ~25 mA, 16 AS5600 ~105 mA, 84 idle
WS2812 ~50 mA, leaving ~300 mA for lit pips. At most 12 dice x 6 pips = 72 LEDs are lit, so
each may draw 300 / 72 = 4.2 mA: the sum of its R+G+B values must stay <= 4.2 / 20 x 255 = 53.
set() scales every colour down so that R+G+B <= BRIGHTNESS_CAP (48), whatever the caller asks.

When the hardware fails: a WS2812 that is dead breaks the chain after it (the later dice stay
dark or show garbage); the driver cannot see that (WS2812 has no read-back) and does nothing.
The entropy source (the RP2040's ring oscillator random bit) can stop toggling, e.g. if the
ROSC is stopped, and then returns the same byte forever: roll_into() raises OSError(EIO) when
a whole refill of its scratch buffer is one repeated byte or contains no usable byte, rather
than rolling the same face forever (or looping forever).

Nothing here allocates after construction: set(), clear() and roll_into() work in place.
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

# Colours as 0xRRGGBB (set() applies the brightness cap).
OFF = 0x000000
HIT = 0x00FF00  # green
MISS = 0xFF0000  # red
SIX = 0xFFB000  # gold: a natural six

BRIGHTNESS_CAP = 48  # max R+G+B per LED (of 765): see the current budget above

# Bit p set = pip p lit, indexed by face 0 (blank) .. 6.
FACE_PIPS = bytes((0x00, 0x01, 0x42, 0x43, 0x66, 0x67, 0x7E))

_REJECT = const(252)  # 252 = 42 x 6: bytes 252..255 would make faces 1..4 more likely
_SCRATCH = bytearray(16)


class DiceDisplay:
    """n_dice (0..config.MAX_DICE) dice; ``buffer`` is the GRB bytearray for board.show_leds."""

    def __init__(self, n_dice, cap=BRIGHTNESS_CAP):
        if not 0 <= n_dice <= config.MAX_DICE:
            raise ValueError("n_dice must be 0..%d" % config.MAX_DICE)
        self.n_dice = n_dice
        self.cap = cap
        self.buffer = bytearray(n_dice * _BYTES_PER_DIE)

    def set(self, i, face, colour):
        """Show face 1..6 (0: blank) on die i in colour 0xRRGGBB, capped to the current budget."""
        if not 0 <= i < self.n_dice:
            raise IndexError("no such die")
        if not 0 <= face <= 6:
            raise ValueError("face must be 0..6")
        r = (colour >> 16) & 0xFF
        g = (colour >> 8) & 0xFF
        b = colour & 0xFF
        total = r + g + b
        cap = self.cap
        if total > cap:
            r = r * cap // total
            g = g * cap // total
            b = b * cap // total
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

    def clear(self):
        """Every LED off."""
        buf = self.buffer
        for k in range(len(buf)):
            buf[k] = 0


def roll_into(faces, n, entropy_fn):
    """Fill faces[0:n] with fair d6 results 1..6 using entropy_fn(buf), which fills buf.

    Rejection sampling: a byte b < 252 gives b % 6 + 1 (each face from exactly 42 byte values),
    bytes 252..255 are thrown away. Raises OSError(EIO) when the entropy source looks stuck.
    """
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
                if b < _REJECT:
                    usable = True
            if same or not usable:
                raise OSError(errno.EIO)
        b = scratch[k]
        k += 1
        if b < _REJECT:
            faces[got] = b % 6 + 1
            got += 1
