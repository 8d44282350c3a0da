# dialrig.fairdice — verifiably fair dice: commit to a secret seed, derive every roll from it,
# reveal it at the end so the host (or anyone) can check every roll.
"""Committed dice sessions (docs/protocol.md, "Verifiably fair dice").

Why: a roll from hardware entropy cannot be checked afterwards; a tray whose firmware was
tampered with (or is buggy) could show whatever it likes. So at game start the tray draws a
secret 32-byte seed and tells the host only its SHA-256 (the commitment). Every roll is then
derived from the seed and a roll counter, deterministically; at game end the tray reveals the
seed. The host checks that the seed hashes to the commitment and re-derives every roll: a face
the seed does not give, a skipped or repeated counter, or a swapped seed is caught.

The derivation (anyone can redo it with any SHA-256):

    seed        = SHA-256(64 bytes of hardware entropy)     (whitens a biased oscillator)
    commitment  = SHA-256(seed)
    key         = HMAC-SHA256(key=seed, msg=nonce)   once the host's 16-byte nonce arrived
                  (C_FAIR_MIX), else the seed itself
    block(c, j) = HMAC-SHA256(key=key, msg=u32le(c) || u32le(j))      c: roll counter, j = 0, 1…
    faces       bytes of block(c, 0), block(c, 1), … in order; a byte b is used when
                b < 256 - 256 % sides (rejection sampling: every face from the same number of
                byte values) and gives face b % sides + 1; the rest are skipped.

Why the nonce: without it a tampered tray could try seed after seed before committing and keep
one whose first rolls it likes. The host sends its nonce only after the commitment is out, and
the tray takes it only before the first roll, so neither side can steer the rolls.

Every roll in a session, whoever asked for it (the host, the roll button), takes the next
counter, starting at 0. On the wire a roll is an EV_FAIR_ROLL event (n dice, session, counter,
sides) followed at once by the usual EV_DICE event with the faces, so everything that already
listens for dice sees them unchanged. The commitment and the revealed seed travel as 8 events
each of 4 bytes (plus one with the number of rolls made), so they sit in the event log, are
replayed after a lost link and arrive exactly once, in order, like everything else.

The seed lives only in RAM: a reboot during a session loses it, and the host reports the
session's rolls as unverifiable rather than trusting them.

The sampling loop reaches this module only when the roll button is pressed (as it reached
dice.roll_into before). A roll computes one HMAC per 32 bytes of faces (one for any roll of
up to 12 d6, bar rejections) and allocates only the hash objects and digests (a few hundred
bytes); the seed, the HMAC pads and the scratch buffers are preallocated in the constructor.
"""

import errno
import hashlib
import struct

from dialrig import proto

SEED_BYTES = 32
_BLOCK = 64  # SHA-256 block size: HMAC pads the key to this
_IPAD = 0x36
_OPAD = 0x5C
MIN_SIDES = 2
MAX_SIDES = 255
NONCE_BYTES = 16
REVEAL_PARTS = SEED_BYTES // 4  # parts 0..7 carry the seed, part 8 the number of rolls made


class FairDice:
    """The tray's committed dice session: at most one open at a time (``session`` != 0)."""

    def __init__(self, ring, entropy_fn):
        self.ring = ring
        self.entropy_fn = entropy_fn
        self.session = 0  # 1..255 while a session is open
        self.counter = 0  # the next roll's counter
        self.seed = bytearray(SEED_BYTES)
        self._raw = bytearray(2 * SEED_BYTES)
        self._ipad = bytearray(_BLOCK)
        self._opad = bytearray(_BLOCK)
        self._msg = bytearray(8)
        self.mixed = False  # the host's nonce is in the key

    @property
    def active(self):
        return self.session != 0

    # ---- the session ---------------------------------------------------------------------------

    def begin(self, session, now):
        """Open session 1..255 with a fresh seed and log its commitment (EV_FAIR_COMMIT x 8).

        A session still open is revealed first, so its rolls can still be checked. Raises
        OSError(EIO) when the entropy source looks stuck (every byte the same): a seed the
        tray could predict would make the commitment worthless.
        """
        if not 1 <= session <= 255:
            raise ValueError("session must be 1..255")
        if self.session:
            self.reveal(now)
        raw = self._raw
        self.entropy_fn(raw)
        first = raw[0]
        stuck = True
        for b in raw:
            if b != first:
                stuck = False
                break
        if stuck:
            raise OSError(errno.EIO)
        self.seed[:] = hashlib.sha256(raw).digest()
        for i in range(len(raw)):
            raw[i] = 0
        _set_pads(self.seed, self._ipad, self._opad)
        commitment = hashlib.sha256(self.seed).digest()
        self.session = session
        self.counter = 0
        self.mixed = False
        self._log_bytes(proto.EV_FAIR_COMMIT, commitment, now)

    def mix(self, nonce, now):
        """Take the host's nonce into the key (key = HMAC(seed, nonce)) and log it
        (EV_FAIR_MIX x 4). Only once per session and only before its first roll: False if
        refused."""
        if not self.session or self.mixed or self.counter:
            return False
        key = hmac_sha256(self._ipad, self._opad, nonce)
        _set_pads(key, self._ipad, self._opad)
        self.mixed = True
        self._log_bytes(proto.EV_FAIR_MIX, nonce, now)
        return True

    def reveal(self, now):
        """Close the session: log the seed (EV_FAIR_REVEAL parts 0..7) and the number of rolls
        made (part 8), then forget the seed. Returns the number of rolls; 0 if none open."""
        if not self.session:
            return 0
        self._log_bytes(proto.EV_FAIR_REVEAL, self.seed, now)
        rolls = self.counter
        self.ring.append(now, proto.EV_FAIR_REVEAL, REVEAL_PARTS, self.session, rolls, 0)
        for i in range(SEED_BYTES):
            self.seed[i] = 0
        _set_pads(self.seed, self._ipad, self._opad)  # the key goes with the seed
        self.session = 0
        self.counter = 0
        self.mixed = False
        return rolls

    def _log_bytes(self, kind, data, now):
        for part in range(len(data) // 4):
            (value,) = struct.unpack_from("<i", data, 4 * part)
            self.ring.append(now, kind, part, self.session, value, 0)

    # ---- rolls ---------------------------------------------------------------------------------

    def roll_into(self, faces, n, sides, now):
        """Fill faces[0:n] from the seed with the next counter and log EV_FAIR_ROLL.

        The caller logs the EV_DICE event with the faces right after (App.roll_dice), so the
        two are consecutive in the log."""
        counter = self.counter
        derive_into(faces, n, sides, self._ipad, self._opad, counter, self._msg)
        self.counter = counter + 1
        self.ring.append(now, proto.EV_FAIR_ROLL, n, self.session, counter, sides)

    # ---- commands ------------------------------------------------------------------------------

    def command(self, app, link, mtype, cmd_id, body, now):
        """C_FAIR_BEGIN / C_FAIR_ROLL / C_FAIR_REVEAL from the host (dispatched by Link)."""
        if mtype == proto.C_FAIR_BEGIN:
            _, session = struct.unpack(proto.FAIR_SESSION_FMT, body)
            if session == 0:
                return link.reject(cmd_id)
            try:
                self.begin(session, now)
            except OSError:
                return link.ack(cmd_id, proto.ACK_REJECTED)
            link.ack(cmd_id, proto.ACK_OK)
        elif mtype == proto.C_FAIR_ROLL:
            _, n, sides, req = struct.unpack(proto.FAIR_ROLL_FMT, body)
            if not 1 <= n <= app.cfg["dice"] or not MIN_SIDES <= sides <= proto.MAX_WIRE_FACE \
                    or req == 0:
                return link.reject(cmd_id)
            if not self.session:
                return link.ack(cmd_id, proto.ACK_REJECTED)
            link.ack(cmd_id, proto.ACK_OK)
            # Rolled from the seed (the session is active) and shown like any roll: a d6 on
            # the pips, a d10 on the ring and pip pairs (dice.DiceDisplay.show_roll).
            app.roll_dice(n, req, now, sides)
        elif mtype == proto.C_FAIR_MIX:
            _, session, nonce = struct.unpack(proto.FAIR_MIX_FMT, body)
            if session == 0 or session != self.session or not self.mix(nonce, now):
                return link.ack(cmd_id, proto.ACK_REJECTED, self.counter)
            link.ack(cmd_id, proto.ACK_OK)
        elif mtype == proto.C_FAIR_REVEAL:
            _, session = struct.unpack(proto.FAIR_SESSION_FMT, body)
            if session == 0 or session != self.session:
                return link.ack(cmd_id, proto.ACK_REJECTED, self.session)
            rolls = self.reveal(now)
            link.ack(cmd_id, proto.ACK_OK, rolls)


def derive_into(faces, n, sides, ipad, opad, counter, msg):
    """faces[0:n] = the faces of roll `counter` (see the module docstring).

    ipad / opad: the seed zero-padded to 64 bytes, XORed with 0x36 / 0x5C (HMAC's pads);
    msg: an 8-byte scratch buffer."""
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError("sides must be 2..255")
    limit = 256 - 256 % sides
    struct.pack_into("<I", msg, 0, counter)
    block = 0
    got = 0
    while got < n:
        struct.pack_into("<I", msg, 4, block)
        for b in hmac_sha256(ipad, opad, msg):
            if b < limit:
                faces[got] = b % sides + 1
                got += 1
                if got == n:
                    break
        block += 1


def hmac_sha256(ipad, opad, msg):
    """HMAC-SHA256 (RFC 2104) of msg, the key given as its two 64-byte pads (MicroPython has
    no hmac module; the pads are computed once per key)."""
    h = hashlib.sha256(ipad)
    h.update(msg)
    inner = h.digest()
    h = hashlib.sha256(opad)
    h.update(inner)
    return h.digest()


def _set_pads(key, ipad, opad):
    for i in range(_BLOCK):
        k = key[i] if i < len(key) else 0
        ipad[i] = k ^ _IPAD
        opad[i] = k ^ _OPAD


def pads(key):
    """(ipad, opad) for a key: what derive_into needs (tests and tools re-deriving rolls)."""
    ipad = bytearray(_BLOCK)
    opad = bytearray(_BLOCK)
    _set_pads(key, ipad, opad)
    return ipad, opad
