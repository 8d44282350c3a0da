"""Checking a committed dice session: re-derive every roll from the revealed seed.

This is the host's independent implementation of the derivation in ``docs/protocol.md``
("Verifiably fair dice"); it shares no code with the firmware (``dialrig.fairdice``), so a
firmware that drifts from the documented scheme fails here instead of agreeing with itself.
Both are tested against the same published test vector.

Pure functions and plain data: :func:`verify` takes what the host saw (the commitment, the
nonce it mixed in, every roll with its counter, the revealed seed, the roll count the tray
claims) and returns a
:class:`Verdict` whose problems name the roll at fault: its counter, its purpose, the faces
the tray reported and the faces the seed gives.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field

SEED_BYTES = 32
MIN_SIDES = 2
MAX_SIDES = 255
MAX_LISTED = 20  # counters listed one by one in a problem before "… and N more"


def commitment_of(seed: bytes) -> bytes:
    """The commitment a tray publishes for ``seed``: SHA-256(seed)."""
    return hashlib.sha256(seed).digest()


def roll_key(seed: bytes, nonce: bytes | None) -> bytes:
    """The key rolls are drawn with: HMAC-SHA256(seed, nonce) once the host's nonce was mixed
    in, else the seed itself."""
    return hmac.new(seed, nonce, hashlib.sha256).digest() if nonce is not None else seed


def derive_faces(key: bytes, counter: int, sides: int, n: int) -> tuple[int, ...]:
    """The ``n`` faces of roll ``counter`` of a ``sides``-sided die, drawn with ``key``
    (:func:`roll_key`).

    Bytes of HMAC-SHA256(key, u32le(counter) || u32le(block)) for block 0, 1, … in order;
    a byte b < 256 - 256 % sides gives face b % sides + 1, the others are skipped (rejection
    sampling, so every face comes from the same number of byte values: unbiased).
    """
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError(f"a die has {MIN_SIDES}..{MAX_SIDES} sides, not {sides}")
    if not 0 <= counter <= 0xFFFFFFFF:
        raise ValueError(f"roll counter {counter} is not a u32")
    limit = 256 - 256 % sides
    faces: list[int] = []
    block = 0
    while len(faces) < n:
        msg = counter.to_bytes(4, "little") + block.to_bytes(4, "little")
        for b in hmac.new(key, msg, hashlib.sha256).digest():
            if b < limit:
                faces.append(b % sides + 1)
                if len(faces) == n:
                    break
        block += 1
    return tuple(faces)


@dataclass(frozen=True)
class FairRoll:
    """One roll as the host saw it: the tray's counter, the faces it reported, and why."""

    counter: int
    sides: int
    faces: tuple[int, ...]
    purpose: str
    seq: int = 0  # the DICE event's sequence number (0: not from a tray log)
    request_id: int = 0  # 0: the roll button
    asked: int = 0  # the sides the host asked for (0: not known)

    def describe(self) -> str:
        where = f", event {self.seq}" if self.seq else ""
        return f"roll #{self.counter} ({self.purpose}{where})"


@dataclass(frozen=True)
class Problem:
    """Something that makes a session fail verification, in words a judge can act on.

    ``kind``: commitment, nonce, face, sides, count, missing, duplicate, extra, unseeded,
    reboot, incomplete.
    For a ``face`` problem ``claimed`` is what the tray reported, ``derived`` what the seed
    gives.
    """

    kind: str
    message: str
    counter: int | None = None
    purpose: str | None = None
    claimed: tuple[int, ...] | None = None
    derived: tuple[int, ...] | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking one session. ``ok`` only when nothing at all is wrong."""

    commitment: bytes
    seed: bytes | None
    nonce: bytes | None
    rolls_claimed: int
    rolls: tuple[FairRoll, ...]
    problems: tuple[Problem, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def rolls_checked(self) -> int:
        return len(self.rolls)

    def __str__(self) -> str:
        head = (f"fair dice: commitment {self.commitment.hex()[:16]}…, "
                f"{len(self.rolls)} roll(s) checked")
        if self.ok:
            return head + ": every roll matches the revealed seed"
        return head + f": {len(self.problems)} problem(s)\n" + "\n".join(
            f"  - {p}" for p in self.problems)


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(map(str, faces))


def _listed(counters: list[int]) -> str:
    shown = ", ".join(f"#{c}" for c in counters[:MAX_LISTED])
    more = len(counters) - MAX_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def verify(commitment: bytes, seed: bytes | None, rolls_claimed: int,
           rolls: list[FairRoll] | tuple[FairRoll, ...],
           anomalies: list[Problem] | tuple[Problem, ...] = (),
           nonce: bytes | None = None) -> Verdict:
    """Check every roll of a session against the revealed ``seed`` and the ``commitment``.

    ``rolls_claimed`` is how many rolls the tray says it drew; ``anomalies`` are problems the
    caller saw while the session ran (a DICE event without its counter, a reboot), passed
    through so one verdict says everything. ``seed`` None: the tray never revealed it.
    ``nonce``: the host's nonce the tray accepted before the first roll (None: not mixed).
    """
    problems: list[Problem] = list(anomalies)
    rolls = tuple(rolls)
    if seed is None:
        problems.append(Problem("incomplete", "the tray never revealed its seed: none of the "
                                f"{len(rolls)} roll(s) can be checked"))
        return Verdict(commitment, None, nonce, rolls_claimed, rolls, tuple(problems))
    actual = commitment_of(seed)
    if len(seed) != SEED_BYTES or actual != commitment:
        problems.append(Problem(
            "commitment", f"the revealed seed {seed.hex()} does not match the commitment: "
            f"SHA-256(seed) is {actual.hex()}, the tray committed to {commitment.hex()} — "
            "it changed its seed after the game began"))
    key = roll_key(seed, nonce)
    seen: dict[int, FairRoll] = {}
    for r in rolls:
        first = seen.get(r.counter)
        if first is not None:
            problems.append(Problem(
                "duplicate", f"{r.describe()} reuses the counter of {first.describe()}: a "
                "roll counter is used once", r.counter, r.purpose))
            continue
        seen[r.counter] = r
        if r.asked and r.asked != r.sides:
            problems.append(Problem(
                "sides", f"{r.describe()}: the tray drew a d{r.sides}, a d{r.asked} was asked "
                "for", r.counter, r.purpose, r.faces))
        if r.counter >= rolls_claimed:
            problems.append(Problem(
                "extra", f"{r.describe()}: the tray says it made only {rolls_claimed} roll(s)",
                r.counter, r.purpose))
        try:
            derived = derive_faces(key, r.counter, r.sides, len(r.faces))
        except ValueError as e:
            problems.append(Problem("face", f"{r.describe()}: {e}", r.counter, r.purpose,
                                    r.faces, None))
            continue
        if derived != r.faces:
            problems.append(Problem(
                "face", f"{r.describe()}: the tray reported {_faces(r.faces)}, the seed gives "
                f"{_faces(derived)}", r.counter, r.purpose, r.faces, derived))
    missing = [c for c in range(rolls_claimed) if c not in seen]
    if missing:
        problems.append(Problem(
            "missing", f"roll(s) {_listed(missing)} were drawn from the seed but never reported "
            "to the host: a tray that rolls in secret can keep the rolls it likes",
            missing[0]))
    return Verdict(commitment, seed, nonce, rolls_claimed, rolls, tuple(problems))
