"""A digital 2D table for Air Action: movement markers and navigation-card flight paths.

APPROXIMATE. The rules give the play area (AA-M11: 3' x 3') but not the navigation cards'
geometry, the marker size or the arc patterns (rules-inventory: DATA MISSING). This module uses
``data/airaction/navigation_cards.json`` (marked approximate) and these approximations:

- a movement marker is a regular octagon of flat-to-flat width ``w`` (1.5"); two markers overlap
  when their centres are closer than ``w``; a marker overhangs the boundary when its centre is
  within ``w/2`` of an edge; an obstacle is a circle;
- firing arcs are 90-degree cones (front: ahead, rear: behind); "range R" = R markers laid from
  the firer's marker, so the target's marker must come within ``(R + 1) * w`` (AA-M37);
- "within one movement marker" (AA-M43) = centres within ``2 * w``;
- the rear-arc bonus (AA-M39) needs the whole firing marker inside the target's rear cone;
- an obstacle blocks a shot when the line between the two markers passes within ``w/2`` of it
  (AA-M51).

It produces exactly the facts the physical table would report (``ReportMove``, ``ReportOverlap``
and the flags of a ``Shoot``), so the engine is the same in both modes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction.catalogue import NavCard
from dialtray.rules.airaction.game import AirActionGame

PLAY_AREA = 36.0  # AA-M11: 3' x 3' in inches
DEPLOY_DEPTH = 3.0  # AA-M14: within 3" of your own edge
ARC_HALF_ANGLE = 45.0


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    heading: float  # degrees clockwise from +y

    def offset(self, dx: float, dy: float, dh: float) -> Pose:
        """A point given in this pose's frame (+y ahead, +x right)."""
        r = math.radians(self.heading)
        x = self.x + dx * math.cos(r) + dy * math.sin(r)
        y = self.y - dx * math.sin(r) + dy * math.cos(r)
        return Pose(x, y, (self.heading + dh) % 360.0)


@dataclass(frozen=True)
class Obstacle:
    x: float
    y: float
    radius: float


@dataclass
class Table:
    """Marker positions of every plane on an approximate 2D play area."""

    marker: float = 1.5
    size: float = PLAY_AREA
    poses: dict[str, Pose] = field(default_factory=dict)
    obstacles: list[Obstacle] = field(default_factory=list)

    # -- setup ------------------------------------------------------------------------------
    def deploy(self, game: AirActionGame, player: str) -> None:
        """AA-M14: a player's planes in a row within 3" of their own edge, facing inwards."""
        players = list(game.state.players)
        edge = players.index(player) % 4
        mine = [p for p in game.state.specs.values() if p.owner == player]
        n = len(mine)
        for i, spec in enumerate(mine):
            along = self.size * (i + 1) / (n + 1)
            depth = DEPLOY_DEPTH / 2
            pose = (
                Pose(along, depth, 0.0),
                Pose(self.size - along, self.size - depth, 180.0),
                Pose(depth, self.size - along, 90.0),
                Pose(self.size - depth, along, 270.0),
            )[edge]
            self.poses[spec.id] = pose

    # -- geometry ----------------------------------------------------------------------------
    def overhangs(self, p: Pose) -> bool:
        """AA-M31: any part of the marker beyond the play area."""
        h = self.marker / 2
        return not (h <= p.x <= self.size - h and h <= p.y <= self.size - h)

    def overlap(self, a: Pose, b: Pose) -> bool:
        return math.hypot(a.x - b.x, a.y - b.y) < self.marker

    def hits_obstacle(self, p: Pose) -> bool:
        return any(
            math.hypot(p.x - o.x, p.y - o.y) < o.radius + self.marker / 2 for o in self.obstacles
        )

    def path(self, start: Pose, card: NavCard, path: str, speed: int) -> list[Pose]:
        """AA-M30: markers laid along the flight path up to the point equal to the speed (or
        the path's highest number)."""
        pts = card.paths[path]
        n = max(1, min(speed, len(pts)))
        return [start.offset(*pts[i]) for i in range(n)]

    def move(self, game: AirActionGame, pid: str) -> tuple[str, Pose]:
        """The outcome of ``pid``'s planned maneuver: ``moved``/``left``/``obstacle`` and the
        final marker (AA-M30, AA-M31, AA-M52)."""
        card_name, path = game.state.plans[pid]
        start = self.poses[pid]
        if card_name == "none":  # D-AA-09: fly the Cruise path
            card_name, path = "Cruise", "straight"
        card = game.cat.cards[card_name]
        markers = self.path(start, card, path, game.speed_of(pid) or 0)
        prev = start
        for m in markers:
            if game.state.obstacles and self.hits_obstacle(m):
                # AA-M52: rotate the last marker 180 degrees and slide it clear
                back = Pose(prev.x, prev.y, (prev.heading + 180.0) % 360.0)
                while self.hits_obstacle(back):
                    back = back.offset(0.0, self.marker / 4, 0.0)
                return "obstacle", back
            if self.overhangs(m):
                return "left", m
            prev = m
        return "moved", markers[-1]

    def bearing(self, frm: Pose, to: Pose) -> float:
        """Angle of ``to`` seen from ``frm`` relative to ``frm``'s heading, in -180..180."""
        ang = math.degrees(math.atan2(to.x - frm.x, to.y - frm.y))
        return (ang - frm.heading + 180.0) % 360.0 - 180.0

    def in_arc(self, frm: Pose, to: Pose, rear: bool, whole: bool = False) -> bool:
        d = math.hypot(to.x - frm.x, to.y - frm.y)
        if d < 1e-9:
            return False
        b = self.bearing(frm, to)
        off = abs(abs(b) - 180.0) if rear else abs(b)
        margin = math.degrees(math.asin(min(1.0, (self.marker / 2) / d)))
        return off + margin <= ARC_HALF_ANGLE if whole else off - margin <= ARC_HALF_ANGLE

    def blocked(self, a: Pose, b: Pose) -> bool:
        """AA-M51: an obstacle under the range markers blocks the shot."""
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        L2 = (bx - ax) ** 2 + (by - ay) ** 2
        for o in self.obstacles:
            t = (
                0.0
                if L2 == 0
                else max(0.0, min(1.0, ((o.x - ax) * (bx - ax) + (o.y - ay) * (by - ay)) / L2))
            )
            px, py = ax + t * (bx - ax), ay + t * (by - ay)
            if math.hypot(o.x - px, o.y - py) < o.radius + self.marker / 2:
                return True
        return False

    def shot_facts(
        self, game: AirActionGame, shooter: str, weapon: str, target: str
    ) -> tuple[bool, bool, bool]:
        """(in range and not blocked, rear-arc bonus, point-blank) for a shot (AA-M37, AA-M39,
        AA-M43, AA-M51)."""
        a, b = self.poses[shooter], self.poses[target]
        fig = game.cat.figures[game.state.planes[shooter].figure]
        rng = fig.front_range if weapon == "front" else fig.rear_range
        d = math.hypot(a.x - b.x, a.y - b.y)
        ok = (
            rng > 0
            and d <= (rng + 1) * self.marker
            and self.in_arc(a, b, rear=weapon == "rear")
            and not (game.state.obstacles and self.blocked(a, b))
        )
        rear_bonus = self.in_arc(b, a, rear=True, whole=True)
        point_blank = d <= 2 * self.marker
        return ok, rear_bonus, point_blank

    def legal_shots(
        self, game: AirActionGame, legal: Sequence[ac.AAAction] | None = None
    ) -> list[ac.Shoot]:
        """The game's legal shots (``legal``: its legal actions, if already listed) whose facts
        agree with this table."""
        out = []
        facts: dict[tuple[str, str, str], tuple[bool, bool, bool]] = {}
        for a in game.legal_actions() if legal is None else legal:
            if not isinstance(a, ac.Shoot):
                continue
            key = (a.plane, a.weapon, a.target)  # the same for every modifier/fate variant
            f = facts.get(key)
            if f is None:
                f = facts[key] = self.shot_facts(game, a.plane, a.weapon, a.target)
            ok, rb, pb = f
            if ok and a.rear_arc == rb and a.point_blank == pb:
                out.append(a)
        return out

    def overlaps(self, game: AirActionGame) -> list[ac.ReportOverlap]:
        legal = [a for a in game.legal_actions() if isinstance(a, ac.ReportOverlap)]
        return [a for a in legal if self.overlap(self.poses[a.a], self.poses[a.b])]


def apply_table_step(game: AirActionGame, table: Table) -> bool:
    """If the current decision is a table fact (move outcome, overlaps), apply it from the
    model and return True."""
    s = game.state
    if s.ended or s.bailouts:
        return False
    if s.phase == "move":
        for pid in s.active:
            if s.planes[pid].in_play and pid not in s.move_results:
                result, pose = table.move(game, pid)
                if result == "obstacle" and not s.obstacles:
                    result = "moved"
                game.apply(ac.ReportMove(pid, result))
                table.poses[pid] = pose
                return True
    if s.phase == "overlaps":
        found = table.overlaps(game)
        game.apply(found[0] if found else ac.OverlapsDone())
        return True
    return False
