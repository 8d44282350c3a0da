"""Actions of an Aces game: small value objects with a text form that ``parse_action`` reads back.

One rules *action* (AC-M17: move / move and attack / Second Wind / escape / pass) is given as one or
more steps, because some decisions come after dice: ``breakaway`` then ``move``; ``move`` then
``shoot``; ``shoot`` (several targets) then ``assign``; an attack then the target's ``fate`` /
``nofate``. Text forms::

    pass charlie            pass                    (a player with nobody to act, AC-M16)
    breakaway charlie       move charlie c5         move genghis d4 with d5   (captive to d5)
    shoot charlie show-stopper,genghis [fate]       close genghis vigilante [fate]
    capture genghis vigilante [fate]                assign show-stopper=3 genghis=1
    fate charlie            nofate charlie          escape vigilante [fate]
    secondwind genghis      end                     withdraw       endgame agreed|time
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.aces.grid import Square
from dialtray.rules.core.errors import InvalidActionError


@dataclass(frozen=True)
class Pass:
    label: str = ""

    def text(self) -> str:
        return f"pass {self.label}".strip()


@dataclass(frozen=True)
class BreakAway:
    label: str

    def text(self) -> str:
        return f"breakaway {self.label}"


@dataclass(frozen=True)
class Move:
    label: str
    to: Square
    captive_to: Square | None = None

    def text(self) -> str:
        extra = f" with {self.captive_to.name()}" if self.captive_to is not None else ""
        return f"move {self.label} {self.to.name()}{extra}"


ATTACK_WORDS = {"shoot": "ranged", "close": "close", "capture": "capture"}
_ATTACK_TEXT = {v: k for k, v in ATTACK_WORDS.items()}


@dataclass(frozen=True)
class Attack:
    label: str
    kind: str  # ranged | close | capture
    targets: tuple[str, ...]
    fate: bool = False

    def text(self) -> str:
        return f"{_ATTACK_TEXT[self.kind]} {self.label} {','.join(self.targets)}" + (
            " fate" if self.fate else ""
        )


@dataclass(frozen=True)
class Assign:
    pairs: tuple[tuple[str, int], ...]  # (target, 1-based die number)

    def text(self) -> str:
        return "assign " + " ".join(f"{t}={d}" for t, d in self.pairs)


@dataclass(frozen=True)
class DefensiveFate:
    label: str
    use: bool

    def text(self) -> str:
        return f"{'fate' if self.use else 'nofate'} {self.label}"


@dataclass(frozen=True)
class Escape:
    label: str
    fate: bool = False

    def text(self) -> str:
        return f"escape {self.label}" + (" fate" if self.fate else "")


@dataclass(frozen=True)
class SecondWind:
    label: str

    def text(self) -> str:
        return f"secondwind {self.label}"


@dataclass(frozen=True)
class EndAction:
    def text(self) -> str:
        return "end"


@dataclass(frozen=True)
class Withdraw:
    def text(self) -> str:
        return "withdraw"


@dataclass(frozen=True)
class EndGame:
    reason: str  # agreed | time  (AC-M67 (3) and (2))

    def text(self) -> str:
        return f"endgame {self.reason}"


AcesAction = (
    Pass
    | BreakAway
    | Move
    | Attack
    | Assign
    | DefensiveFate
    | Escape
    | SecondWind
    | EndAction
    | Withdraw
    | EndGame
)


def _square(tok: str, text: str) -> Square:
    try:
        return Square.parse(tok)
    except ValueError as exc:
        raise InvalidActionError(f"{text!r}: {exc}") from None


def parse_action(text: str) -> AcesAction:
    """Read an action's text form; ``InvalidActionError`` if it is not one.

    >>> parse_action("move charlie c5")
    Move(label='charlie', to=Square(c5), captive_to=None)
    """
    words = text.split()
    if not words:
        raise InvalidActionError("empty action")
    verb, args = words[0].lower(), words[1:]

    def want(n: int, usage: str) -> None:
        if len(args) != n:
            raise InvalidActionError(f"{text!r}: expected '{usage}'")

    if verb == "pass":
        if len(args) > 1:
            raise InvalidActionError(f"{text!r}: expected 'pass [CHARACTER]'")
        return Pass(args[0] if args else "")
    if verb == "breakaway":
        want(1, "breakaway CHARACTER")
        return BreakAway(args[0])
    if verb == "move":
        if len(args) == 2:
            return Move(args[0], _square(args[1], text))
        if len(args) == 4 and args[2].lower() == "with":
            return Move(args[0], _square(args[1], text), _square(args[3], text))
        raise InvalidActionError(f"{text!r}: expected 'move CHARACTER SQUARE [with SQUARE]'")
    if verb in ATTACK_WORDS:
        fate = bool(args) and args[-1].lower() == "fate"
        core = args[:-1] if fate else args
        if len(core) != 2:
            usage = f"{verb} CHARACTER TARGET[,TARGET] [fate]"
            raise InvalidActionError(f"{text!r}: expected '{usage}'")
        targets = tuple(t for t in core[1].split(",") if t)
        if not targets:
            raise InvalidActionError(f"{text!r}: no target")
        return Attack(core[0], ATTACK_WORDS[verb], targets, fate)
    if verb == "assign":
        pairs: list[tuple[str, int]] = []
        for a in args:
            t, eq, d = a.partition("=")
            if not eq or not (d.isascii() and d.isdigit()) or not t:
                raise InvalidActionError(f"{text!r}: expected 'assign TARGET=DIE ...'")
            pairs.append((t, int(d)))
        if not pairs:
            raise InvalidActionError(f"{text!r}: expected 'assign TARGET=DIE ...'")
        return Assign(tuple(pairs))
    if verb in ("fate", "nofate"):
        want(1, f"{verb} CHARACTER")
        return DefensiveFate(args[0], verb == "fate")
    if verb == "escape":
        if len(args) == 1:
            return Escape(args[0])
        if len(args) == 2 and args[1].lower() == "fate":
            return Escape(args[0], True)
        raise InvalidActionError(f"{text!r}: expected 'escape CHARACTER [fate]'")
    if verb == "secondwind":
        want(1, "secondwind CHARACTER")
        return SecondWind(args[0])
    if verb == "end":
        want(0, "end")
        return EndAction()
    if verb == "withdraw":
        want(0, "withdraw")
        return Withdraw()
    if verb == "endgame":
        if len(args) != 1 or args[0].lower() not in ("agreed", "time"):
            raise InvalidActionError(f"{text!r}: expected 'endgame agreed' or 'endgame time'")
        return EndGame(args[0].lower())
    raise InvalidActionError(f"{text!r}: unknown action {verb!r}")
