"""The maneuver template and the plot notation (FS-M34 "Plot notation", FS-M35 "Legal moves").

The box's plastic maneuver template is not in the seed (FS-M34 DATA MISSING). A game reads its
template from ``data/fasa/tables/template.json`` or the owner's own file (``tables``); the
shipped file is the SAMPLE template built here (``sample_template``) from the text's examples,
documented in docs/rules-decisions.md (D-FS-01); its numbers are not the box's:

- a plot is ``<speed><L|R|S><hexrow><facing>`` (``3L2F``); straight plots omit the hexrow
  (``3SA``, the Immelmann ``1SD``); a stall is the facing letter alone (FS-M41); the plane is
  always at facing A on the template (FS-M34);
- hexrows are the template's columns beside the straight row; an L/R path goes one hex
  forward, then ``hexrow`` hexes one hexside to the turn side, then forward again (so 3L2 is
  "forward 1 hex, turn left and move 2 hexes straight", FS-T04, and 4L2 passes through 3L2,
  FS-T07); a plot equal to its speed turns at once (2L2A); hexrow 0 turns only the facing
  (3R0D, FS-T10);
- Gs (the bars behind the arrowhead, 0..6, FS-T05) = max(0, 2 x hexrow - speed) + one per
  hexside the final facing is twisted beyond the path's last heading (beyond the first):
  3L2F is 1 G (FS-T04), 3L3B and 3R3F are 4 G (FS-T09);
- no plot turns and then comes back to the straight row: jinking round an object takes two
  turns (FS-M38 "No jinking", FS-T06).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from dialtray.rules.fasa.hexmap import FACINGS, Hex, step
from dialtray.rules.fasa.tables import active

MAX_TEMPLATE_SPEED = 6
MAX_GS = 6
RESTRICTED = 3  # FS-M42: maneuvers of 3 G or more are restricted
IMMELMANN = "1SD"
PLOT = re.compile(r"^(?:(?P<speed>[0-9])(?P<dir>[LRS])(?P<row>[0-9])?)?(?P<facing>[A-F])$")


@dataclass(frozen=True)
class Maneuver:
    """One arrowhead of the template: where it goes relative to facing A, and its Gs."""

    speed: int
    direction: str  # "L", "R", "S"; "" for a stall
    hexrow: int
    facing: int  # final facing relative to A (0..5)
    gs: int
    steps: tuple[int, ...]  # the relative heading of each hex entered
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self._name())

    def text(self) -> str:
        return self.name

    def _name(self) -> str:
        if self.speed == 0:
            return FACINGS[self.facing]
        row = "" if self.direction == "S" else str(self.hexrow)
        return f"{self.speed}{self.direction}{row}{FACINGS[self.facing]}"

    @property
    def destination(self) -> str:
        """The hex designation without the facing (what tailing reveals, FS-M61)."""
        return self.text()[:-1]

    @property
    def restricted(self) -> bool:
        return self.gs >= RESTRICTED

    @property
    def immelmann(self) -> bool:
        return self.speed == 1 and self.direction == "S" and self.facing == 3

    def path(self, start: Hex, facing: int) -> list[Hex]:
        """The hexes entered, in order, for a plane at ``start`` facing ``facing``."""
        out: list[Hex] = []
        h = start
        for rel in self.steps:
            h = step(h, facing + rel)
            out.append(h)
        return out


def _steps(speed: int, direction: str, row: int) -> tuple[int, ...]:
    side = 5 if direction == "L" else 1
    if direction == "S" or row == 0:
        return (0,) * speed
    if row == speed:
        return (side,) * row
    return (0,) + (side,) * row + (0,) * (speed - 1 - row)


def _twist(direction: str, facing: int) -> int:
    """Hexsides the facing is rotated toward the turn side (negative: the other way)."""
    signed = facing if facing <= 3 else facing - 6  # clockwise positive
    return signed if direction == "R" else -signed if direction == "L" else abs(signed)


def template() -> dict[str, Maneuver]:
    """Every arrowhead of the game's template by its notation (``data/fasa/tables/
    template.json`` or the owner's, ``tables``)."""
    return active().template


@lru_cache(maxsize=1)
def sample_template() -> dict[str, Maneuver]:
    """The SAMPLE template as built from the text's examples (D-FS-01): how the shipped
    ``template.json`` was made; tests compare the two."""
    out: dict[str, Maneuver] = {}
    for f in (0, 1, 5):  # FS-M41 stall: stay, one of three facings, 0 G
        out[FACINGS[f]] = Maneuver(0, "", 0, f, 0, ())
    for v in range(1, MAX_TEMPLATE_SPEED + 1):
        out[f"{v}SA"] = Maneuver(v, "S", 0, 0, 0, (0,) * v)
        if v >= 2:
            for f in (1, 5):
                out[f"{v}S{FACINGS[f]}"] = Maneuver(v, "S", 0, f, 2, (0,) * v)
        for d in "LR":
            for row in range(v + 1):
                steps = _steps(v, d, row)
                last = 1 if row and steps[-1] != 0 else 0
                for f in range(6):
                    twist = _twist(d, f)
                    if row == 0 and twist < 2:
                        continue  # hexrow 0 is only a hard facing change (3R0D)
                    gs = max(0, 2 * row - v) + max(0, abs(twist - last) - 1)
                    if gs <= MAX_GS:
                        m = Maneuver(v, d, row, f, gs, steps)
                        out[m.text()] = m
    out[IMMELMANN] = Maneuver(1, "S", 0, 3, 2, (0,))  # FS-M47: the Immelmann
    return out


def parse_plot(text: str) -> Maneuver:
    """A plot's notation: ``ValueError`` naming FS-M34/FS-M35 if it is not on the template."""
    t = text.strip().upper()
    found = template().get(t)
    if found is not None:
        return found
    if not PLOT.match(t):
        raise ValueError(f"{text!r} is not a plot (speed, L/R/S, hexrow, facing A-F: 3L2F; "
                         "FS-M34)")
    raise ValueError(f"{text!r}: no arrowhead for that hex and facing on the template (FS-M35)")


def flown_randomly(text: str, speed: int) -> Maneuver:
    """FS-M44 "Illegal moves": "an illegal recorded move becomes random movement at the
    recorded speed". A plot the template has is flown as itself (``parse_plot``); one it lacks
    keeps the speed and direction written (``9SA``: 9 straight; ``4L7C``: 4, turning left);
    with no speed written, the plane's current ``speed`` (D-FS-31). Never raises."""
    try:
        return parse_plot(text)
    except ValueError:
        pass
    m = re.match(r"^\s*([0-9])?\s*([LRSlrs])?", text)
    v = int(m.group(1)) if m and m.group(1) else speed
    way = (m.group(2) or "S").upper() if m else "S"
    return Maneuver(v, way, 0, 0, 0, (0,) * v, f"{v}{way}{'' if way == 'S' else '0'}A")
