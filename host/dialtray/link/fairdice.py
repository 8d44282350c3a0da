"""Verifiably fair tray dice: the host's side of a committed dice session.

At game start :meth:`FairDice.begin` asks the tray to commit to a secret seed (it publishes
SHA-256 of it), then sends a random nonce of its own that the tray mixes into its roll key
(so a tampered tray cannot shop for a seed it likes before committing); every roll in the
session — the host's, and the roll button's — is derived from that key and a counter;
:meth:`FairDice.reveal` at game end makes the tray publish the seed, and the host re-derives
every roll it saw (:mod:`dialtray.link.fairproof`). A tray that showed a face its seed does
not give, skipped a counter (rolled in secret and kept the roll it liked), or revealed a seed
other than the committed one is caught, and the verdict names the roll.

Everything travels as logged events (``docs/protocol.md``, "Verifiably fair dice"), so a lost
link or a host reconnect loses nothing; a tray reboot loses the seed, which the verdict says.

::

    fair = FairDice(session)
    commitment = fair.begin()
    faces = fair.roll(2, "initiative")        # also usable as a rules DiceSource
    verdict = fair.reveal()
    if not verdict.ok:
        for problem in verdict.problems: print(problem)

Built on ``TraySession``'s public API only (``request``, ``subscribe``, ``roll_dice``).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from dialrig import config, proto

from dialtray.link.fairproof import FairRoll, Problem, Verdict, verify
from dialtray.link.messages import (
    Ack,
    Booted,
    DiceRolled,
    FairCommit,
    FairMix,
    FairReveal,
    FairRollTag,
    TrayEvent,
)

__all__ = ["FairDice", "FairDiceError", "FairRoll", "Problem", "Verdict"]

log = logging.getLogger("dialtray.link")

PARTS = 8  # 8 x 4 bytes: the commitment, the seed
NONCE_PARTS = 4  # 4 x 4 bytes: the host's nonce
BUTTON = "roll button"


class FairDiceError(ConnectionError):
    """The tray cannot roll committed dice now (no session, refused, rebooted, no answer)."""


class FairLink(Protocol):
    """What FairDice needs of the link: ``TraySession`` provides it."""

    def request(self, mtype: int, fmt: str, *fields: int | bytes,
                timeout: float = 3.0) -> Ack: ...

    def subscribe(self, listener: Callable[[TrayEvent], None]) -> None: ...

    def unsubscribe(self, listener: Callable[[TrayEvent], None]) -> None: ...

    def roll_dice(self, n: int, timeout: float = 3.0) -> DiceRolled: ...


class FairDice:
    """One committed dice session on one tray (a new ``FairDice`` per game).

    Usable as a rules-engine dice source (``roll(count, purpose)``) and as a
    ``TrayDiceLink`` (``roll_led_dice``)."""

    def __init__(self, link: FairLink, timeout: float = 5.0) -> None:
        self.link = link
        self.timeout = timeout
        self.session_id = 0
        self.commitment: bytes | None = None
        self.nonce: bytes | None = None  # ours, once the tray took it
        self.verdict: Verdict | None = None
        self.rolls: list[FairRoll] = []
        self.anomalies: list[Problem] = []
        self._cond = threading.Condition()
        self._commit: dict[int, bytes] = {}
        self._mix: dict[int, bytes] = {}
        self._reveal: dict[int, bytes] = {}
        self._tag: FairRollTag | None = None
        self._last_seq = 0
        self._by_seq: dict[int, int] = {}  # DICE event seq -> index in self.rolls
        self._untagged: dict[int, DiceRolled] = {}
        self._claimed: set[int] = set()  # DICE seqs already handed out by roll()
        self._asked_sides: dict[int, int] = {}  # request id -> sides of our C_FAIR_ROLL
        self._open = False
        self._lost = False  # the tray rebooted while the session was open: its seed is gone
        self._next_req = secrets.randbelow(255) + 1

    # ---- the session ---------------------------------------------------------------------------

    def begin(self) -> bytes:
        """Open a session: the tray draws a seed and commits to it, then takes our nonce into
        its roll key. Returns the commitment (SHA-256 of the seed, 32 bytes). Raises
        FairDiceError when the tray refuses (its entropy source looks stuck, or a roll came
        before our nonce: begin again) or its answers do not arrive."""
        if self.session_id:
            raise FairDiceError("this FairDice has already begun a session: use a new one")
        self.session_id = secrets.randbelow(255) + 1
        self.link.subscribe(self._on_event)
        ack = self.link.request(proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, self.session_id,
                                timeout=self.timeout)
        if ack.status != proto.ACK_OK:
            self.close()
            raise FairDiceError("the tray refused to commit to a seed: its entropy source "
                                "looks stuck (every byte the same)")
        with self._cond:
            if not self._cond.wait_for(lambda: len(self._commit) == PARTS, self.timeout):
                raise FairDiceError(f"the tray acknowledged session {self.session_id} but its "
                                    f"commitment did not arrive within {self.timeout:.0f} s")
            self.commitment = b"".join(self._commit[i] for i in range(PARTS))
        self._mix_nonce()
        log.info("fair dice session %d: commitment %s", self.session_id, self.commitment.hex())
        return self.commitment

    def _mix_nonce(self) -> None:
        """Send our nonce now that the commitment is out; the tray takes it before any roll."""
        nonce = secrets.token_bytes(16)
        ack = self.link.request(proto.C_FAIR_MIX, proto.FAIR_MIX_FMT, self.session_id, nonce,
                                timeout=self.timeout)
        if ack.status != proto.ACK_OK:
            raise FairDiceError(f"the tray refused the host's nonce (it had made {ack.info} "
                                "roll(s) already): begin a new session")
        with self._cond:
            if not self._cond.wait_for(lambda: len(self._mix) == NONCE_PARTS, self.timeout):
                raise FairDiceError("the tray took the host's nonce but did not log it within "
                                    f"{self.timeout:.0f} s")
            logged = b"".join(self._mix[i] for i in range(NONCE_PARTS))
            self.nonce = nonce
            if logged != nonce:
                self.anomalies.append(Problem(
                    "nonce", f"the tray logged the host's nonce as {logged.hex()}, the host "
                    f"sent {nonce.hex()}"))

    def roll(self, count: int, purpose: str, sides: int = 6) -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` sides from the committed seed, in batches of the 12
        the panel shows (d6 on the pip dice, d7..d10 on the d10 ring and pip pairs). Each roll
        is recorded with its counter."""
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        if not 2 <= sides <= proto.MAX_WIRE_FACE:
            raise ValueError(f"the tray rolls dice of 2..{proto.MAX_WIRE_FACE} sides, not {sides}")
        faces: list[int] = []
        while len(faces) < count:
            batch = min(config.MAX_DICE, count - len(faces))
            faces.extend(self._roll_batch(batch, sides, purpose))
        return tuple(faces)

    def roll_led_dice(self, count: int, purpose: str) -> tuple[int, ...]:
        """``rules.core.dice.TrayDiceLink``: ``TrayDice(FairDice(session))`` works."""
        return self.roll(count, purpose)

    def roll_led_dice_sided(self, count: int, purpose: str, sides: int) -> tuple[int, ...]:
        """``rules.core.dice.SidedTrayDiceLink``: a d10 (FASA) from the committed seed, shown
        on the tray's d10 ring like any roll (``dialrig.dice.DiceDisplay.show_roll``)."""
        return self.roll(count, purpose, sides)

    def reveal(self) -> Verdict:
        """End the session: the tray reveals its seed; every recorded roll is re-derived.
        Returns the Verdict (also kept in ``self.verdict``); never raises for a lying tray —
        a lie is a problem in the verdict."""
        if not self.session_id or self.commitment is None:
            raise FairDiceError("no session to reveal: call begin() first")
        if self.verdict is not None:
            return self.verdict
        problems: list[Problem] = []
        if not self._lost:
            try:
                ack = self.link.request(proto.C_FAIR_REVEAL, proto.FAIR_SESSION_FMT,
                                        self.session_id, timeout=self.timeout)
                refused = ack.status != proto.ACK_OK
            except (TimeoutError, ConnectionError) as e:
                problems.append(Problem("incomplete", f"the reveal was not acknowledged: {e}"))
                refused = True
            with self._cond:
                # Refused: the parts may still come, if another begin() revealed this session.
                wait = 0.5 if refused else self.timeout
                self._cond.wait_for(lambda: PARTS in self._reveal or self._lost, wait)
        with self._cond:
            self._open = False
            seed = b"".join(self._reveal[i] for i in range(PARTS)) \
                if all(i in self._reveal for i in range(PARTS)) else None
            claimed = int.from_bytes(self._reveal[PARTS], "little") if PARTS in self._reveal \
                else max((r.counter + 1 for r in self.rolls), default=0)
            if self._tag is not None:
                self.anomalies.append(Problem(
                    "unseeded", f"roll #{self._tag.counter} was announced but its dice never "
                    "followed", self._tag.counter))
                self._tag = None
            verdict = verify(self.commitment, seed, claimed, self.rolls,
                             self.anomalies + problems, self.nonce)
        self.verdict = verdict
        self.close()
        (log.info if verdict.ok else log.warning)("%s", verdict)
        return verdict

    def close(self) -> None:
        """Stop listening (reveal() does this)."""
        self.link.unsubscribe(self._on_event)

    # ---- rolling -------------------------------------------------------------------------------

    def _roll_batch(self, n: int, sides: int, purpose: str) -> tuple[int, ...]:
        with self._cond:
            if self._lost:
                raise FairDiceError("the tray rebooted during the fair dice session: its seed "
                                    "is gone; start a new session")
            if not self._open:
                raise FairDiceError("no fair dice session is open: call begin() first")
        req = 0
        try:
            if sides == 6:
                seq = self.link.roll_dice(n, timeout=self.timeout).seq  # on the LED dice
            else:
                req = self._next_req
                self._next_req = req % 255 + 1
                with self._cond:
                    self._asked_sides[req] = sides
                ack = self.link.request(proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, n, sides, req,
                                        timeout=self.timeout)
                if ack.status != proto.ACK_OK:
                    raise FairDiceError("the tray has no open fair dice session (it rebooted?)")
                seq = 0
        except (RuntimeError, OSError) as e:  # refused (CommandFailed), no answer, link gone
            with self._cond:
                self._asked_sides.pop(req, None)
            if isinstance(e, FairDiceError):
                raise
            raise FairDiceError(f"the tray could not roll {n}d{sides} for {purpose}: {e}") from e
        with self._cond:
            if seq:
                ok = self._cond.wait_for(lambda: self._last_seq >= seq, self.timeout)
            else:
                ok = self._cond.wait_for(lambda: self._req_seen(req) is not None, self.timeout)
                seq = self._req_seen(req) or 0
            if not ok:
                raise FairDiceError(f"the tray did not report the {n}d{sides} it rolled")
            self._claimed.add(seq)
            index = self._by_seq.get(seq)
            if index is None:
                raise FairDiceError(f"the tray rolled {n}d{sides} for {purpose} without its "
                                    "committed seed (no roll counter): those dice are not "
                                    "verifiable")
            r = self.rolls[index]
            self.rolls[index] = replace(r, purpose=purpose)
            if len(r.faces) != n:
                self.anomalies.append(Problem(
                    "count", f"{self.rolls[index].describe()}: the tray rolled {len(r.faces)} "
                    f"dice, {n} were asked for", r.counter, purpose, r.faces))
                raise FairDiceError(f"the tray rolled {len(r.faces)} dice for {purpose}, "
                                    f"{n} were asked for")
            return r.faces

    def _req_seen(self, req: int) -> int | None:
        """The DICE event answering our C_FAIR_ROLL with request id ``req``, if it came."""
        for r in reversed(self.rolls):
            if r.request_id == req and r.seq not in self._claimed:
                return r.seq
        for seq, ev in self._untagged.items():
            if ev.request_id == req and seq not in self._claimed:
                return seq
        return None

    # ---- what the tray says (on the link thread) -----------------------------------------------

    def _on_event(self, ev: TrayEvent) -> None:
        with self._cond:
            self._take(ev)
            if ev.seq:
                self._last_seq = max(self._last_seq, ev.seq)
            self._cond.notify_all()

    def _take(self, ev: TrayEvent) -> None:
        sid = self.session_id
        if isinstance(ev, FairCommit) and ev.session == sid and ev.part < PARTS:
            self._commit[ev.part] = ev.data
            if len(self._commit) == PARTS and not self._reveal:
                self._open = True  # rolls count from here, even before begin() returns
        elif isinstance(ev, FairMix) and ev.session == sid and ev.part < NONCE_PARTS:
            self._mix[ev.part] = ev.data
        elif isinstance(ev, FairReveal) and ev.session == sid and ev.part <= PARTS:
            self._reveal[ev.part] = ev.data
            if ev.part == PARTS:
                self._open = False  # closed: later dice are plain entropy dice again
        elif not self._open:
            return
        elif isinstance(ev, FairRollTag):
            if ev.session == sid:
                self._tag = ev
            else:
                self.anomalies.append(Problem(
                    "unseeded", f"event {ev.seq}: a roll of another session ({ev.session}) "
                    f"while session {sid} was open"))
        elif isinstance(ev, DiceRolled):
            tag, self._tag = self._tag, None
            who = BUTTON if ev.request_id == 0 else f"request {ev.request_id}"
            if tag is None or tag.seq + 1 != ev.seq or tag.n != len(ev.faces):
                self._untagged[ev.seq] = ev
                self.anomalies.append(Problem(
                    "unseeded", f"dice at event {ev.seq} ({who}: {' '.join(map(str, ev.faces))}) "
                    "were rolled during the session without a roll counter: not drawn from the "
                    "committed seed", purpose=who, claimed=ev.faces))
                return
            asked = self._asked_sides.pop(ev.request_id, 6)  # the button rolls d6
            self._by_seq[ev.seq] = len(self.rolls)
            self.rolls.append(FairRoll(tag.counter, tag.sides, ev.faces, who, ev.seq,
                                       ev.request_id, asked))
        elif isinstance(ev, Booted):
            self._lost = True
            self._open = False
            self.anomalies.append(Problem(
                "reboot", f"the tray rebooted (event {ev.seq}) during session {sid}: its seed "
                f"was in RAM and is gone, so the {len(self.rolls)} roll(s) before it cannot be "
                "checked"))

