"""FASA decisions and their notation (docs/notation.md, "FASA")::

    plot A1 3L2F                 open plot of one plane (FS-M34); ``plot A1 bail 3SA`` (FS-M62)
    seal P1 <sha256 hex>         secret plots: the seat's sealed commitment (FS-M33)
    reveal P1 A1=3L2F A2=bail:2SA salt=<hex>   the plots behind the seal, revealed together
    fire A1 B1 [double]          all the plane's guns at one target (FS-M68), doubling down FS-M77
    attack A1 cell-3             all the plane's guns at a map object (gas cell, nacelle, ground)
    rocket A1 rockets_p1 AP B1   one lethal rocket at a target (FS-M103/FS-M104)
    launch A1 rockets_s1 FK 5,7  a flak, flare or sonic rocket at a hex (FS-M105..FS-M107);
                                 ``... FK 5,7 tow``: its hits on a towing enemy go at the object
    bomb A1 rockets_p1 5,7       a bomb on the plane's own or an adjacent hex (FS-M114)
    clear A1                     try to clear every jammed gun (FS-M78)
    place A1 3 [hit 2]           put a rolled gun hit (the first, or the 2nd...) in column 3
                                 (FS-M82 any order, FS-M21 Steady Hand shift)
    pick A1 7                    the pilot's number for a same-hex collision check (FS-M55);
                                 secret plots seal and reveal picks too (``A1=7``)
    pass A1                      no combat action (``pass turret-bow``: a gun post holds fire)
    fire B1 A1 tow               guns at the object A1 tows, not at A1 (FS-M110); also
                                 ``rocket B1 rockets_p1 AP A1 tow``, ``gun turret-port A1 tow``
    harpoon A1 rockets_p1 crate  a harpoon at cargo straight ahead; a hit lifts it (FS-M108/109)
    torpedo A1 rockets_s1 nacelle-port   an aerial torpedo at a stationary object (FS-M115)
    cut A1                       cut the tow cable: the object falls behind the plane (FS-M110)
    gun turret-bow A1            a zeppelin or ground turret's guns at a plane (FS-M120)
    barrage main-port-1 5,7      a main gun or flak cannon's flak round at a hex (FS-M121);
                                 ``tow`` as for ``launch``
    land A1                      land on the own zeppelin's hook from its hex (FS-M66, FS-M67)
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from dialtray.rules.core.errors import InvalidActionError
from dialtray.rules.fasa.hexmap import Hex, hex_text, parse_hex

PLANE = re.compile(r"^[A-Z][A-Z0-9]{0,5}$")
SEAT = re.compile(r"^P[1-9]$")
OBJECT = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Plot:
    plane: str
    maneuver: str
    bail: bool = False

    def text(self) -> str:
        return f"plot {self.plane} {'bail ' if self.bail else ''}{self.maneuver}"


@dataclass(frozen=True)
class Tell:
    """FS-M61 in a sealed game: a tailed plane's seat tells what its tailing number makes it
    reveal (``L``; ``L speed 4``; ``4L3``) before the tailer plots; checked at the reveal."""

    plane: str
    info: str

    def text(self) -> str:
        return f"tell {self.plane} {self.info}"


@dataclass(frozen=True)
class Seal:
    seat: str
    digest: str

    def text(self) -> str:
        return f"seal {self.seat} {self.digest}"


@dataclass(frozen=True)
class Reveal:
    seat: str
    plots: tuple[tuple[str, str, bool], ...]
    salt: str

    def text(self) -> str:
        body = " ".join(f"{p}={'bail:' if b else ''}{m}" for p, m, b in self.plots)
        return f"reveal {self.seat} {body} salt={self.salt}"


@dataclass(frozen=True)
class Fire:
    """FS-M68: guns (any or all: ``guns``, none named = every working gun) at one target;
    FS-M77: ``double`` doubles down with ``doubled`` (none named = every gun that fires)."""

    plane: str
    target: str
    double: bool = False
    tow: bool = False  # FS-M110: at the object the target tows
    guns: tuple[str, ...] = ()
    doubled: tuple[str, ...] = ()

    def text(self) -> str:
        return (f"fire {self.plane} {self.target}"
                + (f" with {','.join(self.guns)}" if self.guns else "")
                + (" double" if self.double else "")
                + (f" {','.join(self.doubled)}" if self.doubled else "")
                + (" tow" if self.tow else ""))


@dataclass(frozen=True)
class Rocket:
    plane: str
    hardpoint: str
    code: str
    target: str
    tow: bool = False  # FS-M110: at the object the target tows

    def text(self) -> str:
        return (f"rocket {self.plane} {self.hardpoint} {self.code} {self.target}"
                + (" tow" if self.tow else ""))


@dataclass(frozen=True)
class Launch:
    plane: str
    hardpoint: str
    code: str
    hex: Hex
    tow: bool = False  # FS-M110: the burst's hits on a towing enemy go at its object

    def text(self) -> str:
        return (f"launch {self.plane} {self.hardpoint} {self.code} {hex_text(self.hex)}"
                + (" tow" if self.tow else ""))


@dataclass(frozen=True)
class Bomb:
    plane: str
    hardpoint: str
    hex: Hex

    def text(self) -> str:
        return f"bomb {self.plane} {self.hardpoint} {hex_text(self.hex)}"


@dataclass(frozen=True)
class Clear:
    plane: str

    def text(self) -> str:
        return f"clear {self.plane}"


@dataclass(frozen=True)
class Place:
    plane: str
    column: int  # 1..10 as printed on the sheet
    hit: int = 1  # which pending hit, 1 = the first rolled (FS-M82: any order)

    def text(self) -> str:
        extra = f" hit {self.hit}" if self.hit != 1 else ""
        return f"place {self.plane} {self.column}{extra}"


@dataclass(frozen=True)
class Attack:
    """Guns at a map object: a ground target, a zeppelin's gas cell or nacelle (FS-M114's
    ground objects, FS-M117, FS-M118)."""

    plane: str
    target: str

    def text(self) -> str:
        return f"attack {self.plane} {self.target}"


@dataclass(frozen=True)
class Pick:
    plane: str
    number: int  # 1..10

    def text(self) -> str:
        return f"pick {self.plane} {self.number}"


@dataclass(frozen=True)
class Pass:
    plane: str

    def text(self) -> str:
        return f"pass {self.plane}"


@dataclass(frozen=True)
class Harpoon:
    """FS-M108: a harpoon rocket at cargo (on the ground, a building or a zeppelin)."""

    plane: str
    hardpoint: str
    obj: str

    def text(self) -> str:
        return f"harpoon {self.plane} {self.hardpoint} {self.obj}"


@dataclass(frozen=True)
class Torpedo:
    """FS-M115: an aerial torpedo at a stationary object straight ahead."""

    plane: str
    hardpoint: str
    obj: str

    def text(self) -> str:
        return f"torpedo {self.plane} {self.hardpoint} {self.obj}"


@dataclass(frozen=True)
class Cut:
    """FS-M110: the pilot cuts the tow cable."""

    plane: str

    def text(self) -> str:
        return f"cut {self.plane}"


@dataclass(frozen=True)
class Gun:
    """A gun post's machine guns at a plane (FS-M120; ground turrets, FS-M06 step 3)."""

    plane: str  # the gun post's id (the combatant acting)
    target: str
    tow: bool = False  # FS-M110: at the object the target tows

    def text(self) -> str:
        return f"gun {self.plane} {self.target}" + (" tow" if self.tow else "")


@dataclass(frozen=True)
class Barrage:
    """A main gun (FS-M121) or a turret's flak cannon (FS-M120): a flak round at a hex."""

    plane: str  # the gun post's id
    hex: Hex
    tow: bool = False  # FS-M110: the burst's hits on a towing enemy go at its object

    def text(self) -> str:
        return f"barrage {self.plane} {hex_text(self.hex)}" + (" tow" if self.tow else "")


@dataclass(frozen=True)
class Land:
    """FS-M66: the plane lands on its squadron's zeppelin (under the hook, D-FS-18)."""

    plane: str

    def text(self) -> str:
        return f"land {self.plane}"


FasaAction = (Plot | Tell | Seal | Reveal | Fire | Attack | Rocket | Launch | Bomb | Clear | Place
              | Pick | Pass | Harpoon | Torpedo | Cut | Gun | Barrage | Land)


def seal_digest(seat: str, turn: int, plots: tuple[tuple[str, str, bool], ...], salt: str) -> str:
    """The commitment shown to the other players: SHA-256 of the seat, the turn, the plots in
    notation and a secret salt (so a short plot cannot be guessed from its hash)."""
    body = Reveal(seat, plots, salt).text()
    return hashlib.sha256(f"fasa|turn {turn}|{body}".encode()).hexdigest()


GUN_LIST = re.compile(r"^(gun[0-9]+|turret_gun)(,(gun[0-9]+|turret_gun))*$")


def _fire(args: list[str], text: str) -> Fire:
    """``fire A1 B1 [with gun1,gun3] [double [gun1]] [tow]`` (FS-M68, FS-M77, FS-M110)."""
    rest, guns, doubled, double, tow = args[2:], "", "", False, False
    if rest[:1] == ["with"] and len(rest) > 1 and GUN_LIST.match(rest[1]):
        guns, rest = rest[1], rest[2:]
    if rest[:1] == ["double"]:
        double, rest = True, rest[1:]
        if rest and GUN_LIST.match(rest[0]):
            doubled, rest = rest[0], rest[1:]
    if rest[:1] == ["tow"]:
        tow, rest = True, rest[1:]
    if rest:
        raise InvalidActionError(f"{text!r}: fire PLANE TARGET [with gun1,gun2] "
                                 "[double [gun1]] [tow]")
    return Fire(_plane(args[0], text), _plane(args[1], text), double, tow, _split(guns),
                _split(doubled))


def _split(x: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x.split(","))) if x else ()


def _plane(tok: str, text: str) -> str:
    if not PLANE.match(tok):
        raise InvalidActionError(f"{text!r}: {tok!r} is not a plane id (A1)")
    return tok


def _hex(tok: str, text: str) -> Hex:
    try:
        return parse_hex(tok)
    except ValueError as exc:
        raise InvalidActionError(f"{text!r}: {exc}") from None


def _object(tok: str, text: str) -> str:
    if not OBJECT.match(tok):
        raise InvalidActionError(f"{text!r}: {tok!r} is not a map object id (crate)")
    return tok


def parse_action(text: str) -> FasaAction:
    """Read one action's notation; ``InvalidActionError`` says what is wrong."""
    t = text.split()
    if not t:
        raise InvalidActionError("empty action")
    verb, args = t[0].lower(), t[1:]
    n = len(args)
    if verb == "plot" and n in (2, 3) and (n == 2 or args[1] == "bail"):
        return Plot(_plane(args[0], text), args[-1].upper(), n == 3)
    if verb == "tell" and n >= 2:
        return Tell(_plane(args[0], text), " ".join(args[1:]))
    if verb == "seal" and n == 2 and SEAT.match(args[0]) and re.fullmatch(r"[0-9a-f]{64}", args[1]):
        return Seal(args[0], args[1])
    if verb == "reveal" and n >= 2 and SEAT.match(args[0]) and args[-1].startswith("salt="):
        plots = []
        for tok in args[1:-1]:
            plane, sep, plot = tok.partition("=")
            if not sep:
                raise InvalidActionError(f"{text!r}: {tok!r} is not PLANE=PLOT")
            bail = plot.startswith("bail:")
            plots.append((_plane(plane, text), plot.removeprefix("bail:").upper(), bail))
        salt = args[-1][5:]
        if not re.fullmatch(r"[0-9a-zA-Z]{1,64}", salt):
            raise InvalidActionError(f"{text!r}: the salt must be 1..64 letters or digits")
        return Reveal(args[0], tuple(plots), salt)
    if verb == "fire" and n >= 2:
        return _fire(args, text)
    if verb in ("harpoon", "torpedo") and n == 3:
        return (Harpoon if verb == "harpoon" else Torpedo)(_plane(args[0], text), args[1],
                                                            _object(args[2], text))
    if verb in ("cut", "land") and n == 1:
        return (Cut if verb == "cut" else Land)(_plane(args[0], text))
    if verb == "gun" and n in (2, 3) and args[2:] in ([], ["tow"]):
        return Gun(_object(args[0], text), _plane(args[1], text), n == 3)
    if verb == "barrage" and n in (2, 3) and args[2:] in ([], ["tow"]):
        return Barrage(_object(args[0], text), _hex(args[1], text), n == 3)
    if verb == "pass" and n == 1 and OBJECT.match(args[0]):
        return Pass(args[0])
    if verb == "rocket" and n in (4, 5) and args[4:] in ([], ["tow"]):
        # a lower-case target is a map object (``cell-1``, ``crate``; D-FS-42), else a plane
        target = args[3] if args[3].islower() and OBJECT.match(args[3]) else _plane(args[3],
                                                                                     text)
        return Rocket(_plane(args[0], text), args[1], args[2].upper(), target, n == 5)
    if verb == "launch" and n in (4, 5) and args[4:] in ([], ["tow"]):
        return Launch(_plane(args[0], text), args[1], args[2].upper(), _hex(args[3], text),
                      n == 5)
    if verb == "bomb" and n == 3:
        return Bomb(_plane(args[0], text), args[1], _hex(args[2], text))
    if verb == "attack" and n == 2 and re.fullmatch(r"[a-z0-9][a-z0-9-]*", args[1]):
        return Attack(_plane(args[0], text), args[1])
    if verb == "pick" and n == 2 and args[1].isascii() and args[1].isdigit():
        return Pick(_plane(args[0], text), int(args[1]))
    if verb in ("clear", "pass") and n == 1:
        return (Clear if verb == "clear" else Pass)(_plane(args[0], text))
    if verb == "place" and n in (2, 4) and all(x.isascii() and x.isdigit() for x in args[1::2]) \
            and (n == 2 or args[2] == "hit"):
        return Place(_plane(args[0], text), int(args[1]), int(args[3]) if n == 4 else 1)
    raise InvalidActionError(
        f"{text!r} is not a FASA action (plot, seal, reveal, pick, fire, attack, rocket, launch, "
        "bomb, harpoon, torpedo, cut, land, clear, place, pass, gun, barrage)")
