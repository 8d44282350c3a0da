"""Air Action actions: small value objects with a text form (the game-log notation).

``parse_action(text)`` is the inverse of ``action.text()`` for every action here; the full
grammar is in docs/notation.md. Geometric facts (physical-table mode) ride on the actions that
need them: ``left``/``obstacle``/``moved`` report a maneuver's outcome, ``overlap A B`` that two
final markers overlap, and a ``shoot`` asserts the target is in range (and may add ``rear-arc``,
``point-blank``).
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.errors import InvalidActionError

HEROIC_ACTS = ("none", "one-memento", "two-mementos", "crash-site")
FEAT_CHOICES = ("winged", "distraction", "ride")
MOVE_RESULTS = ("moved", "left", "obstacle")


@dataclass(frozen=True)
class FirstPlayerRoll:
    """AA-M13: every player rolls 2d6 for first player (ties reroll)."""

    def text(self) -> str:
        return "first-player"


@dataclass(frozen=True)
class Deploy:
    """AA-M14: ``player`` has placed all their planes within 3" of their edge."""

    player: str

    def text(self) -> str:
        return f"deploy {self.player}"


@dataclass(frozen=True)
class RollInitiative:
    """AA-M16: 2d6 each, ties reroll; highest is the aggressor."""

    def text(self) -> str:
        return "initiative"


@dataclass(frozen=True)
class SetSpeed:
    """AA-M18: first turn only, any value on the speed dial."""

    plane: str
    speed: int

    def text(self) -> str:
        return f"speed {self.plane} {self.speed}"


@dataclass(frozen=True)
class Throttle:
    """AA-M19/M20: change the speed dial by ``clicks`` (-2..+2; + is throttle up)."""

    plane: str
    clicks: int

    def text(self) -> str:
        return f"throttle {self.plane} {self.clicks:+d}"


@dataclass(frozen=True)
class Disengage:
    """AA-M59: announce disengaging."""

    player: str

    def text(self) -> str:
        return f"disengage {self.player}"


@dataclass(frozen=True)
class Plan:
    """AA-M23..M26: a navigation card and path for an active plane; ``card`` may be the
    words ``random`` (Timely Distraction, AA-M69) or ``none`` (no legal card left)."""

    plane: str
    card: str
    path: str = ""

    def text(self) -> str:
        if self.card in ("random", "none"):
            return f"plan {self.plane} {self.card}"
        card = f'"{self.card}"' if " " in self.card else self.card
        return f"plan {self.plane} {card} {self.path}"


@dataclass(frozen=True)
class ReportMove:
    """AA-M30/M31/M52 fact: ``moved`` (stayed on the table), ``left`` the area, hit an
    ``obstacle``."""

    plane: str
    result: str

    def text(self) -> str:
        return f"{self.result} {self.plane}"


@dataclass(frozen=True)
class ReportOverlap:
    """AA-M32 fact: the final markers of ``a`` and ``b`` overlap."""

    a: str
    b: str

    def text(self) -> str:
        return f"overlap {self.a} {self.b}"


@dataclass(frozen=True)
class OverlapsDone:
    """No more overlapping final markers to report for this maneuver."""

    def text(self) -> str:
        return "overlaps-done"


@dataclass(frozen=True)
class CollisionFate:
    """AA-M64: the Ace flying ``plane`` uses (or not) fate against a serious collision."""

    plane: str
    use: bool

    def text(self) -> str:
        return f"{'collision-fate' if self.use else 'no-collision-fate'} {self.plane}"


@dataclass(frozen=True)
class DaringFeat:
    """AA-M66: the Ace flying ``plane`` attempts a daring feat against ``target``
    (``target`` empty = declines)."""

    plane: str
    target: str = ""

    def text(self) -> str:
        return f"feat {self.plane} {self.target}" if self.target else f"no-feat {self.plane}"


@dataclass(frozen=True)
class FeatChoice:
    """AA-M69/M70: how to take a Timely Distraction or Enjoy the Ride result."""

    plane: str
    choice: str

    def text(self) -> str:
        return f"feat-choice {self.plane} {self.choice}"


@dataclass(frozen=True)
class Shoot:
    """AA-M36..M45: ``plane`` fires ``weapon`` (front/rear) at ``target``, which the player
    asserts is in range; ``rear_arc`` (AA-M39) and ``point_blank`` (AA-M43) are table facts;
    ``fate`` declares offensive fate (AA-M62)."""

    plane: str
    weapon: str
    target: str
    rear_arc: bool = False
    point_blank: bool = False
    fate: bool = False

    def text(self) -> str:
        flags = "".join(
            f" +{n}"
            for n, on in (
                ("rear-arc", self.rear_arc),
                ("point-blank", self.point_blank),
                ("fate", self.fate),
            )
            if on
        )
        return f"shoot {self.plane} {self.weapon} {self.target}{flags}"


@dataclass(frozen=True)
class PassShot:
    """AA-M40: ``plane`` passes its (remaining) shot opportunity this step."""

    plane: str

    def text(self) -> str:
        return f"pass {self.plane}"


@dataclass(frozen=True)
class DefensiveFate:
    """AA-M63: the Ace flying the target ``plane`` uses (or not) fate after the roll."""

    plane: str
    use: bool

    def text(self) -> str:
        return f"{'fate' if self.use else 'no-fate'} {self.plane}"


@dataclass(frozen=True)
class BailOut:
    """AA-M78/M80: the pilot of the destroyed ``plane`` bails out, with a heroic act."""

    plane: str
    act: str = "none"

    def text(self) -> str:
        return f"bail-out {self.plane} {self.act}"


@dataclass(frozen=True)
class CancelOptional:
    """AA-M04: cancel the optional skill/equipment on ``stat`` of ``plane`` until the turn ends."""

    plane: str
    stat: str

    def text(self) -> str:
        return f"cancel {self.plane} {self.stat}"


@dataclass(frozen=True)
class Dispute:
    """AA-M84: roll 1d6 to settle an ambiguous order: 1-3 not allowed, 4-6 allowed."""

    about: str

    def text(self) -> str:
        return f"dispute {self.about}"


@dataclass(frozen=True)
class EndGame:
    """AA-M53 conditions 2 and 3: ``time`` limit reached, or all players ``agreed``."""

    reason: str

    def text(self) -> str:
        return f"end {self.reason}"


AAAction = (
    FirstPlayerRoll
    | Deploy
    | RollInitiative
    | SetSpeed
    | Throttle
    | Disengage
    | Plan
    | ReportMove
    | ReportOverlap
    | OverlapsDone
    | CollisionFate
    | DaringFeat
    | FeatChoice
    | Shoot
    | PassShot
    | DefensiveFate
    | BailOut
    | CancelOptional
    | Dispute
    | EndGame
)


def _int(tok: str, text: str) -> int:
    try:
        if not tok.isascii():  # int() would take '٣' or '３' as 3: a log is written in ASCII
            raise ValueError(tok)
        return int(tok)
    except ValueError:
        raise InvalidActionError(f"{text!r}: {tok!r} is not a number") from None


def _split(text: str) -> list[str]:
    """Whitespace split that keeps "double quoted" card names together."""
    out: list[str] = []
    cur = ""
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
            continue
        if ch.isspace() and not quoted:
            if cur:
                out.append(cur)
                cur = ""
            continue
        cur += ch
    if quoted:
        raise InvalidActionError(f"{text!r}: unbalanced quote")
    if cur:
        out.append(cur)
    return out


def parse_action(text: str) -> AAAction:
    """Read the notation of one action (see docs/notation.md)."""
    toks = _split(text.strip())
    if not toks:
        raise InvalidActionError("empty action")
    verb, args = toks[0].lower(), toks[1:]

    def need(n: int) -> None:
        if len(args) != n:
            raise InvalidActionError(f"{text!r}: '{verb}' takes {n} argument(s)")

    if verb == "first-player":
        need(0)
        return FirstPlayerRoll()
    if verb == "deploy":
        need(1)
        return Deploy(args[0])
    if verb == "initiative":
        need(0)
        return RollInitiative()
    if verb == "speed":
        need(2)
        return SetSpeed(args[0], _int(args[1], text))
    if verb == "throttle":
        need(2)
        return Throttle(args[0], _int(args[1], text))
    if verb == "disengage":
        need(1)
        return Disengage(args[0])
    if verb == "plan":
        if len(args) == 2 and args[1] in ("random", "none"):
            return Plan(args[0], args[1])
        need(3)
        return Plan(args[0], args[1], args[2])
    if verb in MOVE_RESULTS:
        need(1)
        return ReportMove(args[0], verb)
    if verb == "overlap":
        need(2)
        return ReportOverlap(args[0], args[1])
    if verb == "overlaps-done":
        need(0)
        return OverlapsDone()
    if verb in ("collision-fate", "no-collision-fate"):
        need(1)
        return CollisionFate(args[0], verb == "collision-fate")
    if verb == "feat":
        need(2)
        return DaringFeat(args[0], args[1])
    if verb == "no-feat":
        need(1)
        return DaringFeat(args[0])
    if verb == "feat-choice":
        need(2)
        if args[1] not in FEAT_CHOICES:
            raise InvalidActionError(f"{text!r}: choice must be one of {FEAT_CHOICES}")
        return FeatChoice(args[0], args[1])
    if verb == "shoot":
        if len(args) < 3:
            raise InvalidActionError(f"{text!r}: shoot PLANE front|rear TARGET [+flags]")
        flags = set()
        for f in args[3:]:
            if f not in ("+rear-arc", "+point-blank", "+fate"):
                raise InvalidActionError(f"{text!r}: unknown flag {f!r}")
            flags.add(f)
        if args[1] not in ("front", "rear"):
            raise InvalidActionError(f"{text!r}: weapon must be front or rear")
        return Shoot(
            args[0],
            args[1],
            args[2],
            "+rear-arc" in flags,
            "+point-blank" in flags,
            "+fate" in flags,
        )
    if verb == "pass":
        need(1)
        return PassShot(args[0])
    if verb in ("fate", "no-fate"):
        need(1)
        return DefensiveFate(args[0], verb == "fate")
    if verb == "bail-out":
        if len(args) == 1:
            return BailOut(args[0])
        need(2)
        if args[1] not in HEROIC_ACTS:
            raise InvalidActionError(f"{text!r}: heroic act must be one of {HEROIC_ACTS}")
        return BailOut(args[0], args[1])
    if verb == "cancel":
        need(2)
        return CancelOptional(args[0], args[1])
    if verb == "dispute":
        return Dispute(" ".join(args) or "-")
    if verb == "end":
        need(1)
        if args[0] not in ("time", "agreed"):
            raise InvalidActionError(f"{text!r}: end time|agreed")
        return EndGame(args[0])
    raise InvalidActionError(f"{text!r}: unknown action {verb!r}")
