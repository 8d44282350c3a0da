"""Dice of any size rolled by the tray's firmware: the host's side of ROLL_SIDED (issue 15).

Why a command of its own: ROLL_DICE rolls d6 only, and one roll per command. ROLL_SIDED asks
for ``rolls`` rolls of ``n`` dice of ``sides`` sides (2..15: a face travels as a nibble) in one
frame; the firmware rolls them a few per link tick with the same routine as every other roll
(the committed seed in a fair dice session, else the hardware entropy), logs each roll as one
DICE event with our request id, and shows the last on the LED panel (a d10 on the d10 ring and
pip pairs: ``dialrig.dice.DiceDisplay.show_roll``). So a game's d10 and a fairness test's
60 000 d10 come from the same firmware code, and the events arrive like any other: in order,
exactly once, replayed after a lost link.

::

    faces = roll_sided(session, request_id, n=1, sides=10)            # one d10: [(7,)]
    rolls = roll_sided(session, request_id, n=12, sides=10, rolls=5000)  # 60 000 d10
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from dialrig import proto

from dialtray.link.messages import Ack, DiceRolled, TrayEvent

MIN_SIDES = 2
MAX_SIDES = proto.MAX_WIRE_FACE
MAX_ROLLS = 0xFFFF


class SidedLink(Protocol):
    """What roll_sided needs of the link: ``TraySession`` provides it."""

    def request(self, mtype: int, fmt: str, *fields: int | bytes,
                timeout: float = 3.0) -> Ack: ...

    def subscribe(self, listener: Callable[[TrayEvent], None]) -> None: ...

    def unsubscribe(self, listener: Callable[[TrayEvent], None]) -> None: ...


class TrayBusy(ConnectionError):
    """The tray is still rolling an earlier batch (``left`` rolls to go)."""

    def __init__(self, left: int) -> None:
        super().__init__(f"the tray is still rolling an earlier batch ({left} rolls to go)")
        self.left = left


def roll_sided(link: SidedLink, request_id: int, n: int, sides: int, rolls: int = 1,
               timeout: float = 5.0) -> list[tuple[int, ...]]:
    """``rolls`` rolls of ``n`` dice of ``sides`` sides, in the order the tray rolled them.

    ``request_id`` (1..255) tags the tray's DICE events; the caller makes sure no other roll
    of its own uses it meanwhile. ``timeout`` bounds the wait for the acknowledgement and any
    stretch with no new roll arriving (not the whole batch: 5 000 rolls take a while). Raises
    ValueError for arguments the tray would refuse, TrayBusy, TimeoutError."""
    if not 1 <= request_id <= 255:
        raise ValueError(f"request id must be 1..255, not {request_id}")
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError(f"the tray rolls dice of {MIN_SIDES}..{MAX_SIDES} sides, not {sides}")
    if not 1 <= rolls <= MAX_ROLLS:
        raise ValueError(f"rolls must be 1..{MAX_ROLLS}, not {rolls}")
    if n < 1:
        raise ValueError(f"cannot roll {n} dice")
    got: list[tuple[int, ...]] = []
    cond = threading.Condition()

    def on(ev: TrayEvent) -> None:
        if isinstance(ev, DiceRolled) and ev.request_id == request_id:
            with cond:
                if len(got) < rolls:
                    got.append(ev.faces)
                cond.notify_all()

    link.subscribe(on)
    try:
        ack = link.request(proto.C_ROLL_SIDED, proto.ROLL_SIDED_FMT, n, sides, request_id,
                           rolls, timeout=timeout)
        if ack.status != proto.ACK_OK:
            raise TrayBusy(ack.info)
        with cond:
            while len(got) < rolls:
                if not cond.wait_for(_more_than(got, len(got)), timeout):
                    raise TimeoutError(f"the tray reported {len(got)} of the {rolls} rolls of "
                                       f"{n}d{sides} it was asked for, then nothing for "
                                       f"{timeout:.0f} s")
            out = list(got)
    finally:
        link.unsubscribe(on)
    for faces in out:
        if len(faces) != n or not all(1 <= f <= sides for f in faces):
            raise ConnectionError(f"the tray reported {faces} for a roll of {n}d{sides}")
    return out


def _more_than(got: list[tuple[int, ...]], count: int) -> Callable[[], bool]:
    """A wait_for predicate: a roll has arrived since ``got`` held ``count``."""
    return lambda: len(got) > count
