"""FASA events: the facts the fold (``state.fold_event``) turns into the position."""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.events import Event
from dialtray.rules.fasa.damage import Box
from dialtray.rules.fasa.hexmap import FACINGS, Hex, hex_text


@dataclass(frozen=True)
class GameSetup(Event):
    map: str
    seats: tuple[str, ...]
    turn_limit: int
    sealed: bool
    fractional_qd: bool
    collision_damage: bool
    start_speed: int = 2
    tables: str = ""  # the owner's tables directory ("" = the shipped samples)
    rescue: tuple[tuple[str, str], ...] = ()  # FS table 9: (plane, "memento" | "cargo")
    fields: tuple[str, ...] = ()  # seats whose home landing ground is a field, not a runway

    def text(self) -> str:
        return f"map {self.map}, seats {' '.join(self.seats)}, turn limit {self.turn_limit}"


@dataclass(frozen=True)
class PlanePlaced(Event):
    plane: str
    seat: str
    sheet: str
    hex: Hex
    facing: int
    speed: int
    home: str  # the map side the team started on (FS-M07)

    def text(self) -> str:
        return (f"{self.plane} ({self.sheet}) at {hex_text(self.hex)} facing "
                f"{FACINGS[self.facing]}, speed {self.speed}, home {self.home}")


@dataclass(frozen=True)
class Rolled(Event):
    plane: str
    purpose: str
    roll: int
    tn: int
    success: bool
    rule: str

    def text(self) -> str:
        if self.rule in ("FS-M55", "FS-M72"):  # a roll-off or a pick, not a check
            return f"{self.plane} {self.purpose}: d10 {self.roll} [{self.rule}]"
        word = "succeeds" if self.success else "fails"
        return f"{self.plane} {self.purpose}: d10 {self.roll} vs TN {self.tn} {word} [{self.rule}]"


@dataclass(frozen=True)
class PlotRecorded(Event):
    plane: str
    maneuver: str
    bail: bool = False
    illegal: bool = False  # FS-M44: a sealed plot that breaks the rules: random movement

    def text(self) -> str:
        return f"{self.plane} plotted" + (" (bail out)" if self.bail else "")


@dataclass(frozen=True)
class PlotSealed(Event):
    seat: str
    digest: str

    def text(self) -> str:
        return f"{self.seat} sealed plots: sha256 {self.digest}"


@dataclass(frozen=True)
class Picked(Event):
    """FS-M55: a pilot's secret number for a same-hex collision check."""

    plane: str
    number: int

    def text(self) -> str:
        return f"{self.plane} picks {self.number} [FS-M55]"


@dataclass(frozen=True)
class Told(Event):
    """FS-M61 in a sealed game: what a tailed plane's seat told before its tailers plot."""

    plane: str
    info: str

    def text(self) -> str:
        return f"{self.plane} tells its tailers: {self.info} [FS-M61]"


@dataclass(frozen=True)
class TailingInfo(Event):
    """FS-M61: what the tailed plane's plot tells the tailer."""

    tailer: str
    target: str
    number: int
    revealed: str

    def text(self) -> str:
        return f"{self.tailer} tails {self.target} (number {self.number}): {self.revealed}"


@dataclass(frozen=True)
class Moved(Event):
    plane: str
    maneuver: str
    hex: Hex
    facing: int
    speed: int
    gs: int
    pushed: bool
    how: str
    rule: str

    def text(self) -> str:
        return (f"{self.plane} {self.maneuver} -> {hex_text(self.hex)} facing "
                f"{FACINGS[self.facing]} speed {self.speed} ({self.how}) [{self.rule}]")


@dataclass(frozen=True)
class Marked(Event):
    plane: str
    boxes: tuple[Box, ...]
    cause: str
    rule: str
    attacker: str = ""

    def text(self) -> str:
        return f"{self.plane}: {len(self.boxes)} box(es) marked, {self.cause} [{self.rule}]"


@dataclass(frozen=True)
class LocationLost(Event):
    plane: str
    location: str
    rule: str

    def text(self) -> str:
        return f"{self.plane}: {self.location} destroyed [{self.rule}]"


@dataclass(frozen=True)
class Wounded(Event):
    plane: str
    crew: str  # pilot | gunner
    amount: int

    def text(self) -> str:
        return f"{self.plane} {self.crew} loses {self.amount} Constitution [FS-M92]"


@dataclass(frozen=True)
class Shocked(Event):
    plane: str
    crew: str
    until: int

    def text(self) -> str:
        return f"{self.plane} {self.crew} in shock until the end of turn {self.until} [FS-M17]"


@dataclass(frozen=True)
class Smoking(Event):
    plane: str
    until: int


@dataclass(frozen=True)
class GunState(Event):
    plane: str
    gun: str
    state: str  # jam-next | jammed | cleared | destroyed
    bursts_used: int = 0


@dataclass(frozen=True)
class RocketUsed(Event):
    plane: str
    hardpoint: str
    code: str


@dataclass(frozen=True)
class Counter(Event):
    """A flak, flare or sonic counter placed (FS-M105..FS-M107) or removed (``turn`` -1)."""

    kind: str
    hex: Hex
    owner: str
    turn: int
    tow: bool = False  # FS-M110: a flak burst aimed at the objects towing enemies tow

    def text(self) -> str:
        if self.turn < 0:
            return f"{self.kind} counter at {hex_text(self.hex)} removed"
        return (f"{self.owner} {self.kind} counter at {hex_text(self.hex)} (turn {self.turn})"
                + (", aimed at towed objects" if self.tow else ""))


@dataclass(frozen=True)
class Burning(Event):
    """Continuing damage (FS-M06 step 8): a magnesium burn or a drill, or its end (active
    False)."""

    plane: str
    kind: str
    table: str
    col: int
    range: int
    active: bool


@dataclass(frozen=True)
class Tagged(Event):
    plane: str
    until: int


@dataclass(frozen=True)
class PlaneOut(Event):
    plane: str
    status: str  # destroyed | dead | fled | withdrawn | bailed | crashed | projectile (FS-M63)
    reason: str
    rule: str

    def text(self) -> str:
        return f"{self.plane} out: {self.status} ({self.reason}) [{self.rule}]"


@dataclass(frozen=True)
class Credit(Event):
    """XP facts for the campaign log (FS table 6)."""

    plane: str
    what: str  # damage | kill | half-kill | bailout-combat | bailout-planned | fled | landed


@dataclass(frozen=True)
class Pending(Event):
    """Hits waiting to be placed by the attacker (FS-M21 column shift): (gun, table, column)."""

    plane: str
    target: str
    hits: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class Phase(Event):
    phase: str  # plot | combat | over
    turn: int
    order: tuple[str, ...] = ()

    def text(self) -> str:
        extra = f": {' '.join(self.order)}" if self.order else ""
        return f"turn {self.turn} {self.phase} phase{extra}"


@dataclass(frozen=True)
class Launching(Event):
    """FS-M68: the combatant has launched weapons this round and may launch more (lethal ones
    only at ``target``, "" while none is chosen), or pass; no guns this round."""

    plane: str
    target: str

    def text(self) -> str:
        at = f", lethal ones at {self.target}" if self.target else ""
        return f"{self.plane} may launch more{at} [FS-M68]"


@dataclass(frozen=True)
class Acted(Event):
    """The current combatant is done (FS-M72: each resolves all its combat in turn)."""

    plane: str

    def text(self) -> str:
        return f"{self.plane} done [FS-M72]"


@dataclass(frozen=True)
class GroundHit(Event):
    target: str
    points: int
    rule: str = "FS-M114"  # FS-M115 a torpedo, FS-M110 a shot at a towed object

    def text(self) -> str:
        return f"ground target {self.target} takes {self.points} point(s) [{self.rule}]"


@dataclass(frozen=True)
class Tow(Event):
    """FS-M108..FS-M110: a harpoon grabbed and lifted ``obj`` (``hex`` None: it hangs on the
    cable), or the object fell at ``hex`` (a failed lift, a broken or cut cable)."""

    plane: str
    obj: str
    what: str  # grabbed | dropped | lost
    hex: Hex | None
    rule: str

    def text(self) -> str:
        where = f" at {hex_text(self.hex)}" if self.hex is not None else ""
        return f"{self.plane} {self.what} {self.obj}{where} [{self.rule}]"


@dataclass(frozen=True)
class GunnerShocked(Event):
    """FS-M122: a zeppelin or ground gunner in shock: the gun does not fire until ``until``."""

    post: str
    until: int

    def text(self) -> str:
        return f"{self.post} gunner in shock until the end of turn {self.until} [FS-M122]"


@dataclass(frozen=True)
class Over(Event):
    termination: str
    winner: str | None

    def text(self) -> str:
        return f"game over: {self.termination}, winner {self.winner or 'none'} [FS-M13]"


@dataclass(frozen=True)
class Held(Event):
    """FS-M82 "Order of damage": a lethal rocket's hit, rolled (location and column, FS-M79),
    held until the attacker's launching ends; ``hits`` is every hit held so far (empty: none)."""

    plane: str
    target: str
    hits: tuple[tuple[str, str, int], ...]

    def text(self) -> str:
        return (f"{self.plane}: {len(self.hits)} rocket hit(s) on {self.target} held until "
                "its launches end" if self.hits else f"{self.plane}: rocket hits released")
