"""Which dial reader on the tray holds which figure's dial: the binding.

The tray's calibration (``dialrig`` config / ``dialtray calibrate``) already says which encoder is
which dock and reader: every click arrives as ``(dock, dial)`` where dial 0 is the dock's combat
reader and 1 its speed reader, and positions count clockwise clicks from the calibrated click 0.
What the host must add is the figure on each dock. A :class:`Binding` maps each rules ``Dial``
(``Dial("B1", "combat")``) to a :class:`Slot` (``dock 3 combat``), both ways.

A binding comes from the players (``auto_bind`` in seating order, or ``--figures``) or from a
*dock file*, one dock per line (``#`` comments)::

    dock 0: A1            # A1's combat dial on the combat reader, speed dial on the speed one
    dock 6: A1 ace        # the Ace dial of A1's pilot on dock 6's combat reader
    dock 2 speed: louis   # a one-dial figure on dock 2's second reader

Every error names the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from dialtray.rules.core.dials import COMBAT, SPEED, Dial

READERS = (COMBAT, SPEED)
"""A dock's two readers, in the firmware's dial order (``dialrig.config.DIAL_NAMES``)."""


class BindingError(ValueError):
    """A binding that cannot work: a dial with no reader, two dials on one reader, a bad line."""


@dataclass(frozen=True, order=True)
class Slot:
    """One dial reader on the tray: ``dock`` from 0, ``dial`` 0 (combat reader) or 1 (speed)."""

    dock: int
    dial: int

    def text(self) -> str:
        return f"dock {self.dock} {READERS[self.dial] if self.dial < 2 else self.dial}"


class Binding:
    """Dials ↔ readers. ``slot_of(dial)``, ``dial_at(slot)``; iteration in slot order."""

    def __init__(self, pairs: Mapping[Dial, Slot]) -> None:
        self._slot: dict[Dial, Slot] = dict(pairs)
        self._dial: dict[Slot, Dial] = {}
        for dial, slot in sorted(self._slot.items(), key=lambda kv: kv[1]):
            other = self._dial.get(slot)
            if other is not None:
                raise BindingError(f"{slot.text()} holds both {other.text()} and {dial.text()}")
            self._dial[slot] = dial

    def slot_of(self, dial: Dial) -> Slot | None:
        return self._slot.get(dial)

    def dial_at(self, slot: Slot) -> Dial | None:
        return self._dial.get(slot)

    def slots(self) -> list[Slot]:
        return sorted(self._dial)

    def docks(self) -> list[int]:
        return sorted({s.dock for s in self._dial})

    def items(self) -> list[tuple[Slot, Dial]]:
        return [(s, self._dial[s]) for s in self.slots()]

    def missing(self, dials: Iterable[Dial]) -> list[Dial]:
        """The game's dials with no reader (the tracker refuses to start with any)."""
        return [d for d in dials if d not in self._slot]

    def label(self, slot: Slot) -> str:
        """``dock 4 combat dial (B2)`` — how instructions name a dial."""
        dial = self._dial.get(slot)
        who = f" ({dial.figure}{'' if dial.kind in READERS else ' ' + dial.kind})" if dial else ""
        return f"{slot.text()} dial{who}"

    def __len__(self) -> int:
        return len(self._dial)

    def __repr__(self) -> str:
        inner = ", ".join(f"{s.text()}={d.figure}/{d.kind}" for s, d in self.items())
        return f"Binding({inner})"


def auto_bind(dials: Iterable[Dial], docks: int, order: Iterable[str] = ()) -> Binding:
    """One figure per dock, in ``order`` (figure ids) then the rest sorted: a figure's combat
    dial on the combat reader, its speed dial on the speed reader; other dials (an Air Action
    Ace dial) get a dock of their own. When docks run out, one-dial figures share a dock, the
    second using its speed reader. ``BindingError`` if the tray has too few readers."""
    dials = sorted(set(dials))
    figures: list[str] = []
    for f in [*order, *(d.figure for d in dials if d.kind in READERS)]:
        if f not in figures and any(d.figure == f for d in dials):
            figures.append(f)
    out: dict[Dial, Slot] = {}
    free = list(range(docks))
    spare: list[Slot] = []
    pending: list[Dial] = []
    for f in figures:
        mine = [d for d in dials if d.figure == f and d.kind in READERS]
        if not free:
            pending.extend(mine)
            continue
        dock = free.pop(0)
        for d in mine:
            out[d] = Slot(dock, READERS.index(d.kind))
        if all(d.kind != SPEED for d in mine):
            spare.append(Slot(dock, 1))
    for d in dials:
        if d.kind not in READERS:
            if free:
                dock = free.pop(0)
                out[d] = Slot(dock, 0)
                spare.append(Slot(dock, 1))
            else:
                pending.append(d)
    for d in pending:
        if d.kind == SPEED or not spare:
            need = len(dials)
            raise BindingError(f"{d.text()} has no dial reader: the game has {need} dials and "
                               f"the tray {docks} docks ({docks * 2} readers, a plane needs a "
                               "whole dock)")
        out[d] = spare.pop(0)
    return Binding(out)


_LINE = re.compile(r"^dock\s+(\d+)(?:\s+(combat|speed))?\s*:\s*(\S+)(?:\s+(\S+))?$")


def parse_binding(text: str, name: str = "<dock file>", docks: int | None = None,
                  dials: Iterable[Dial] | None = None) -> Binding:
    """Read a dock file (format in the module docstring). ``dock N: FIG`` also puts FIG's speed
    dial on dock N's speed reader unless the game (``dials``) has none or another line uses it."""
    known = None if dials is None else set(dials)
    out: dict[Dial, Slot] = {}
    where: dict[Slot, int] = {}
    implied: dict[Slot, Dial] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        s = raw.split("#", 1)[0].strip()
        if not s:
            continue
        m = _LINE.match(s)
        if not m:
            raise BindingError(f"{name}:{n}: expected 'dock N: FIGURE [KIND]' or "
                               f"'dock N speed: FIGURE', got {s!r}")
        dock = int(m.group(1))
        if docks is not None and dock >= docks:
            raise BindingError(f"{name}:{n}: dock {dock}: the tray has docks 0..{docks - 1}")
        reader, figure, kind = m.group(2), m.group(3), m.group(4)
        slot = Slot(dock, READERS.index(reader or COMBAT))
        dial = Dial(figure, kind or COMBAT)
        if known is not None and dial not in known:
            raise BindingError(f"{name}:{n}: {dial.text()} is not in this game")
        if slot in where:
            raise BindingError(f"{name}:{n}: {slot.text()} is already given on line "
                               f"{where[slot]}")
        if dial in out:
            raise BindingError(f"{name}:{n}: {dial.text()} is already on {out[dial].text()}")
        where[slot] = n
        out[dial] = slot
        implied.pop(slot, None)
        speed = Dial(figure, SPEED)
        if reader is None and kind is None and (known is None or speed in known):
            implied[Slot(dock, 1)] = speed
    for slot, dial in implied.items():
        if slot not in where and dial not in out:
            out[dial] = slot
    return Binding(out)


def read_binding(path: str | Path, docks: int | None = None,
                 dials: Iterable[Dial] | None = None) -> Binding:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BindingError(f"{p}: cannot read the dock file: {e}") from None
    return parse_binding(text, str(p), docks, dials)


def format_binding(binding: Binding) -> str:
    """A dock file that ``parse_binding`` reads back to the same binding."""
    lines = ["# dialtray dock file: which figure's dial sits on which dock"]
    for slot, dial in binding.items():
        if slot.dial == 0 and dial.kind == COMBAT:
            lines.append(f"dock {slot.dock}: {dial.figure}")
            continue
        if slot.dial == 1 and dial.kind == SPEED and \
                binding.dial_at(Slot(slot.dock, 0)) == Dial(dial.figure, COMBAT):
            continue  # implied by the combat line
        kind = "" if dial.kind == COMBAT else f" {dial.kind}"
        reader = "" if slot.dial == 0 else f" {READERS[slot.dial]}"
        lines.append(f"dock {slot.dock}{reader}: {dial.figure}{kind}")
    return "\n".join(lines) + "\n"
