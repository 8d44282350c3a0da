"""Air Action events: everything that happens, as data (rendered by ``text()``).

The click taxonomy of rules-inventory §2.2 maps to ``DamageClicks`` (combat dial, clockwise),
``SpeedChanged`` (speed dial: throttle, forced speed), ``FateClick`` (the Ace's dial). The state is
the fold of these events (``state.apply_event``).
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.events import Event


@dataclass(frozen=True)
class PlaneSpec:
    id: str
    owner: str
    figure: str
    level: str
    ace: str | None


@dataclass(frozen=True)
class GameSetup(Event):
    players: tuple[str, ...]
    names: tuple[str, ...]
    build_total: int
    campaign: bool
    obstacles: bool
    removal_vp: str  # "split" | "each"  (AA-A08)
    planes: tuple[PlaneSpec, ...]
    # AA-M10 "should be at least 300" with Aces: a warning unless a tournament makes it strict
    strict_build_total: bool = False
    # AA-M75 XP for surviving a serious collision: value missing from the text (D-AA-17)
    collision_survival_xp: int = 0

    def text(self) -> str:
        n, m = len(self.players), len(self.planes)
        strict = ", strict build total" if self.strict_build_total else ""
        xp = f", {self.collision_survival_xp} XP per serious collision survived (AA-M75 setting)"
        return f"setup: {n} players, {m} planes, build {self.build_total}{strict}{xp}"


@dataclass(frozen=True)
class Rolled(Event):
    purpose: str
    who: str
    faces: tuple[int, ...]

    def text(self) -> str:
        return f"{self.who} rolls {'+'.join(map(str, self.faces))} ({self.purpose})"


@dataclass(frozen=True)
class PilotCheck(Event):
    plane: str
    purpose: str
    total: int
    piloting: int
    success: bool

    def text(self) -> str:
        verdict = "passes" if self.success else "fails"
        crit = " (critical failure)" if self.total == 2 else ""
        vs = f"{self.total} vs {self.piloting}"
        return f"{self.plane} pilot check for {self.purpose}: {vs}, {verdict}{crit}"


@dataclass(frozen=True)
class FirstPlayerChosen(Event):
    player: str

    def text(self) -> str:
        return f"{self.player} is first player"


@dataclass(frozen=True)
class Deployed(Event):
    player: str

    def text(self) -> str:
        return f"{self.player} deployed"


@dataclass(frozen=True)
class TurnStarted(Event):
    turn: int

    def text(self) -> str:
        return f"turn {self.turn}"


@dataclass(frozen=True)
class AggressorChosen(Event):
    player: str

    def text(self) -> str:
        return f"{self.player} is the aggressor"


@dataclass(frozen=True)
class SpeedChanged(Event):
    plane: str
    old_index: int | None
    new_index: int
    speed: int
    cause: str

    def text(self) -> str:
        if self.old_index is None:
            return f"{self.plane} speed dial set to {self.speed} ({self.cause})"
        n = self.new_index - self.old_index
        way = "counter-clockwise (up)" if n > 0 else "clockwise (down)"
        return f"{self.plane} speed dial {abs(n)} click(s) {way} to {self.speed} ({self.cause})"


@dataclass(frozen=True)
class ThrottleDone(Event):
    plane: str

    def text(self) -> str:
        return f"{self.plane} throttle set"


@dataclass(frozen=True)
class DamageClicks(Event):
    plane: str
    clicks: int
    cause: str

    def text(self) -> str:
        return f"{self.plane} combat dial {self.clicks} click(s) clockwise ({self.cause})"


@dataclass(frozen=True)
class FateClick(Event):
    ace: str  # the plane flown by the Ace
    mode: str

    def text(self) -> str:
        return f"{self.ace}: Ace dial 1 click clockwise (fate, {self.mode})"


@dataclass(frozen=True)
class PlaneRemoved(Event):
    plane: str
    reason: str
    shot_by: str | None = None

    def text(self) -> str:
        return f"{self.plane} removed: {self.reason}"


@dataclass(frozen=True)
class VPScored(Event):
    player: str
    points: int
    reason: str
    plane: str

    def text(self) -> str:
        return f"{self.player} scores {self.points} VP ({self.reason}: {self.plane})"


@dataclass(frozen=True)
class Disengaged(Event):
    player: str

    def text(self) -> str:
        return f"{self.player} is disengaging"


@dataclass(frozen=True)
class PhaseChanged(Event):
    phase: str

    def text(self) -> str:
        return f"phase: {self.phase}"


@dataclass(frozen=True)
class SpeedAnnounced(Event):
    speed: int
    active: tuple[str, ...]

    def text(self) -> str:
        return f"speed {self.speed}: active {' '.join(self.active)}"


@dataclass(frozen=True)
class CardPlanned(Event):
    plane: str
    card: str
    path: str
    random: bool = False

    def text(self) -> str:
        how = " (chosen at random)" if self.random else ""
        return f"{self.plane} plans {self.card} {self.path}{how}"


@dataclass(frozen=True)
class MoveReported(Event):
    plane: str
    result: str

    def text(self) -> str:
        return f"{self.plane} {self.result}"


@dataclass(frozen=True)
class OverlapReported(Event):
    a: str
    b: str

    def text(self) -> str:
        return f"{self.a} and {self.b}: final markers overlap"


@dataclass(frozen=True)
class CollisionStarted(Event):
    planes: tuple[str, ...]
    totals: tuple[int, ...]
    fate_offers: tuple[str, ...]

    def text(self) -> str:
        return f"collision: {' '.join(self.planes)}"


@dataclass(frozen=True)
class CollisionFateDecided(Event):
    plane: str
    use: bool

    def text(self) -> str:
        return f"{self.plane} {'uses' if self.use else 'does not use'} fate against the collision"


@dataclass(frozen=True)
class CollisionEnded(Event):
    planes: tuple[str, ...]
    clean: tuple[str, ...]  # planes for which this counts as "no collision" (AA-A05)

    def text(self) -> str:
        return f"collision resolved: {' '.join(self.planes)}"


@dataclass(frozen=True)
class FeatOffered(Event):
    planes: tuple[str, ...]

    def text(self) -> str:
        return f"daring feat possible for {' '.join(self.planes)}"


@dataclass(frozen=True)
class FeatRolled(Event):
    plane: str
    target: str
    total: int
    result: str
    choices: tuple[str, ...]

    def text(self) -> str:
        return f"{self.plane} daring feat vs {self.target}: {self.total} = {self.result}"


@dataclass(frozen=True)
class FeatDone(Event):
    plane: str
    result: str

    def text(self) -> str:
        return f"{self.plane} daring feat: {self.result}"


@dataclass(frozen=True)
class RandomCardNext(Event):
    plane: str

    def text(self) -> str:
        return f"{self.plane}: next navigation card chosen at random"


@dataclass(frozen=True)
class Commandeered(Event):
    ace_plane: str
    target: str
    new_owner: str

    def text(self) -> str:
        return f"{self.ace_plane}'s Ace commandeers {self.target}"


@dataclass(frozen=True)
class ShooterTurn(Event):
    player: str

    def text(self) -> str:
        return f"{self.player} to shoot"


@dataclass(frozen=True)
class ShotRolled(Event):
    plane: str
    weapon: str
    target: str
    dice: int
    target_number: int
    faces: tuple[int, ...]
    offensive_fate: bool

    def text(self) -> str:
        hits = sum(1 for f in self.faces if f >= self.target_number)
        return (
            f"{self.plane} {self.weapon} at {self.target}: {self.dice} dice need "
            f"{self.target_number}+: {' '.join(map(str, self.faces)) or '-'} = {hits} hit(s)"
        )


@dataclass(frozen=True)
class ShotResolved(Event):
    plane: str
    target: str
    hits: int
    prevented: int

    def text(self) -> str:
        p = f", {self.prevented} prevented by fate" if self.prevented else ""
        return f"{self.plane} hits {self.target} {self.hits} time(s){p}"


@dataclass(frozen=True)
class ShotPassed(Event):
    plane: str

    def text(self) -> str:
        return f"{self.plane} passes"


@dataclass(frozen=True)
class BailOutPending(Event):
    plane: str

    def text(self) -> str:
        return f"{self.plane}: pilot may bail out"


@dataclass(frozen=True)
class BailedOut(Event):
    plane: str
    pilot: str
    act: str
    total: int
    needed: int
    success: bool

    def text(self) -> str:
        how = "survives" if self.success else "perishes in a burning wreck"
        return f"{self.pilot} bails out ({self.act}): {self.total} vs {self.needed}, {how}"


@dataclass(frozen=True)
class XPAwarded(Event):
    pilot: str
    xp: int
    reason: str

    def text(self) -> str:
        return f"{self.pilot} +{self.xp} XP ({self.reason})"


@dataclass(frozen=True)
class OptionalCanceled(Event):
    plane: str
    stat: str

    def text(self) -> str:
        return f"{self.plane}: optional effect on {self.stat} canceled until the turn ends"


@dataclass(frozen=True)
class UnknownEffect(Event):
    plane: str
    where: str
    colour: str

    def text(self) -> str:
        return (
            f"{self.plane}: colour {self.colour!r} on {self.where} is not in the Skills & "
            "Equipment map; no effect applied"
        )


@dataclass(frozen=True)
class EffectApplied(Event):
    plane: str
    colour: str
    hook: str
    detail: str

    def text(self) -> str:
        return f"{self.plane}: {self.colour} ({self.hook}) {self.detail}"


@dataclass(frozen=True)
class DisputeRolled(Event):
    about: str
    face: int
    allowed: bool

    def text(self) -> str:
        return (
            f"dispute '{self.about}': {self.face}, {'allowed' if self.allowed else 'not allowed'}"
        )


@dataclass(frozen=True)
class GameEnded(Event):
    reason: str

    def text(self) -> str:
        return f"game over: {self.reason}"


@dataclass(frozen=True)
class WinnerDecided(Event):
    player: str
    how: str

    def text(self) -> str:
        return f"{self.player} wins ({self.how})"


@dataclass(frozen=True)
class PlanePosition:
    """One plane in a ``PositionSet``: its dials and who flies it (docs/notation.md)."""

    plane: str
    combat_click: int
    speed_index: int | None
    ace_click: int
    owner: str
    ace: str | None
    pilot: str
    random_card_next: bool = False
    removed: str | None = None  # why it left play; None while in play


@dataclass(frozen=True)
class PositionSet(Event):
    """A mid-game position from a log's ``Position:`` header: the game resumes at the start of
    ``turn`` (its initiative, AA-M16) with these dials, planes, VP, XP and disengagements."""

    turn: int
    first_player: str
    planes: tuple[PlanePosition, ...]
    vp: tuple[tuple[str, int], ...] = ()
    shot_down: tuple[tuple[str, int], ...] = ()
    xp: tuple[tuple[str, int], ...] = ()
    dead: tuple[str, ...] = ()
    disengaging: tuple[str, ...] = ()

    def text(self) -> str:
        return f"position: start of turn {self.turn}"
