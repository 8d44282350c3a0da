"""Bot players for Air Action, on the approximate digital table (``table.py``).

A ``Bot`` answers any decision of its player from ``game.legal_actions()`` and the table:
it keeps a useful speed, judges maneuvers from the card diagram alone (Etiquette 3, AA-M83: the
flight path's end point, never a trial layout of markers on the table), takes the shot with the
most expected damage (exact odds), spends fate when it matters, and tries daring feats.
``play_game`` runs a whole bot-vs-bot game: the table supplies the geometric facts, dice come
from the injected source.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction.game import (
    BAIL_MODIFIER,
    HEROIC,
    AirActionGame,
    Outcome,
    SquadronPlane,
)
from dialtray.rules.airaction.odds import odds_of
from dialtray.rules.airaction.table import (
    ARC_HALF_ANGLE,
    PLAY_AREA,
    Pose,
    Table,
    apply_table_step,
)
from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.rules.core.odds import two_d6_at_least


@dataclass
class Bot:
    """A sensible player. ``rng`` only breaks ties between equally good choices."""

    player: str
    rng: random.Random

    def choose(self, game: AirActionGame, table: Table) -> ac.AAAction:
        acts = game.legal_actions()
        if not acts:
            raise RuntimeError(f"{self.player}: no legal action")
        first = acts[0]
        if isinstance(first, ac.BailOut):
            return self._bail_out(game, first.plane)
        if isinstance(first, ac.SetSpeed | ac.Throttle) or (
            game.state.phase == "throttle"  # the only phase that lists speed settings
            and any(isinstance(a, ac.SetSpeed | ac.Throttle) for a in acts)
        ):
            return self._throttle(game, acts)
        if isinstance(first, ac.Plan):
            return self._plan(game, table, acts)
        if isinstance(first, ac.CollisionFate):
            return ac.CollisionFate(first.plane, True)
        if isinstance(first, ac.DefensiveFate):
            return self._defensive_fate(game, first.plane)
        if isinstance(first, ac.FeatChoice):
            choices = [a.choice for a in acts if isinstance(a, ac.FeatChoice)]
            for pref in ("ride", "winged", "distraction"):
                if pref in choices:
                    return ac.FeatChoice(first.plane, pref)
        if isinstance(first, ac.DaringFeat):
            return next(a for a in acts if isinstance(a, ac.DaringFeat))
        if isinstance(first, ac.Shoot | ac.PassShot):
            return self._shoot(game, table, acts)
        return first

    # -- throttle ---------------------------------------------------------------------------
    def _throttle(self, game: AirActionGame, acts: Sequence[ac.AAAction]) -> ac.AAAction:
        pid = next(a.plane for a in acts if isinstance(a, ac.SetSpeed | ac.Throttle))
        max_speed = game.combat_values(pid)["max_speed"]
        if isinstance(acts[0], ac.SetSpeed) or any(isinstance(a, ac.SetSpeed) for a in acts):
            speeds = [a.speed for a in acts if isinstance(a, ac.SetSpeed) and a.plane == pid]
            want = max([s for s in speeds if s <= max_speed] or [min(speeds)])
            return ac.SetSpeed(pid, want - (1 if self.rng.random() < 0.3 and want > 1 else 0))
        speed = game.speed_of(pid) or 0
        goal = max_speed - self.rng.choice((0, 0, 1, 2))
        options = [a for a in acts if isinstance(a, ac.Throttle) and a.plane == pid]
        safe = [a for a in options if abs(a.clicks) <= 1]
        fig = game.cat.figures[game.state.planes[pid].figure]
        idx = game.state.planes[pid].speed_index or 0

        def after(a: ac.Throttle) -> int:
            return fig.speed_dial[idx + a.clicks].speed

        best = min(safe, key=lambda a: (abs(after(a) - goal), abs(a.clicks)))
        if speed > max_speed + 1:  # far over the red zone: risk the two-click check
            two = [a for a in options if a.clicks == -2]
            if two:
                return two[0]
        return best

    # -- navigation -------------------------------------------------------------------------
    def _plan(self, game: AirActionGame, table: Table, acts: Sequence[ac.AAAction]) -> ac.AAAction:
        plans = [a for a in acts if isinstance(a, ac.Plan)]
        pid = plans[0].plane
        plans = [a for a in plans if a.plane == pid]
        if plans[0].card in ("random", "none"):
            return plans[0]
        start = table.poses[pid]
        speed = game.speed_of(pid) or 0
        enemies = [
            table.poses[q]
            for q in game.in_play()
            if game.state.planes[q].owner != self.player and q in table.poses
        ]
        disengaging = self.player in game.state.disengaging
        is_ace = game.state.planes[pid].ace is not None  # overlapping opens a daring feat

        # Pose.offset and Table.in_arc, inlined with the start's trigonometry computed once
        # (the same arithmetic, so the same scores): this runs for every card and path
        r = math.radians(start.heading)
        cos_r, sin_r = math.cos(r), math.sin(r)
        w = table.marker
        half = w / 2

        def in_arc(
            fx: float, fy: float, fh: float, tx: float, ty: float, rear: bool, whole: bool
        ) -> bool:
            d = math.hypot(tx - fx, ty - fy)
            if d < 1e-9:
                return False
            b = (math.degrees(math.atan2(tx - fx, ty - fy)) - fh + 180.0) % 360.0 - 180.0
            off = abs(abs(b) - 180.0) if rear else abs(b)
            margin = math.degrees(math.asin(min(1.0, half / d)))
            return off + margin <= ARC_HALF_ANGLE if whole else off - margin <= ARC_HALF_ANGLE

        def score(a: ac.Plan) -> float:
            card = game.cat.cards[a.card]
            pts = card.paths[a.path]
            dx, dy, dh = pts[max(0, min(speed, len(pts)) - 1)]  # the diagram's end
            ex = start.x + dx * cos_r + dy * sin_r
            ey = start.y - dx * sin_r + dy * cos_r
            margin = min(ex, ey, PLAY_AREA - ex, PLAY_AREA - ey)
            if disengaging:
                return -margin
            s = 0.0 if margin > 3 * w else -40.0 + 10 * margin
            if enemies:
                near, d = enemies[0], math.inf  # the nearest enemy (the first of equals)
                for e in enemies:
                    de = math.hypot(e.x - ex, e.y - ey)
                    if de < d:
                        near, d = e, de
                s -= abs(d - 2.5 * w)  # close enough to shoot, not on top of the enemy
                eh = (start.heading + dh) % 360.0
                if in_arc(ex, ey, eh, near.x, near.y, rear=False, whole=False):
                    s += 6.0  # the enemy ahead of my guns
                if in_arc(near.x, near.y, near.heading, ex, ey, rear=True, whole=True):
                    s += 3.0  # on its tail: rear-arc bonus (AA-M39)
                if d < w and not is_ace:
                    s -= 8.0  # overlapping markers mean a collision check (AA-M33)
            return s + self.rng.random() * 0.5

        return max(plans, key=score)

    # -- combat -----------------------------------------------------------------------------
    def _shoot(self, game: AirActionGame, table: Table, acts: Sequence[ac.AAAction]) -> ac.AAAction:
        shots = table.legal_shots(game, acts)
        if not shots:
            return next(a for a in acts if isinstance(a, ac.PassShot))
        scored = []
        for a in shots:
            o = odds_of(game, a)
            value = float(o.expected_clicks) + 3.0 * float(o.shot_down)
            if a.fate:
                value -= 0.6  # fate is precious: only when it clearly pays
            scored.append((value, self.rng.random(), a))
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def _bail_out(self, game: AirActionGame, plane: str) -> ac.AAAction:
        """The boldest heroic act that still leaves at least a 5-in-6 chance to survive."""
        ps = game.state.planes[plane]
        value = game.cat.figures[ps.figure].combat_dial[ps.combat_click].bail_out or 0
        mod = BAIL_MODIFIER[ps.level]
        for act in ("crash-site", "two-mementos", "one-memento"):
            if two_d6_at_least(value + HEROIC[act][0] - mod) >= Fraction(5, 6):
                return ac.BailOut(plane, act)
        return ac.BailOut(plane, "none")

    def _defensive_fate(self, game: AirActionGame, plane: str) -> ac.AAAction:
        shot = game.state.shot
        assert shot is not None
        hits = sum(1 for f in shot.faces if f >= shot.target_number)
        prevented = game.fate_would_prevent(plane)  # 0: pointless, declined (D-AA-12)
        return ac.DefensiveFate(plane, prevented >= 2 or (prevented > 0 and hits >= 3))


@dataclass
class GameResult:
    outcome: Outcome
    actions: int
    turns: int


def play_game(
    squadrons: Mapping[str, Sequence[SquadronPlane]],
    *,
    seed: int = 0,
    dice: DiceSource | None = None,
    max_turns: int = 12,
    build_total: int = 300,
    campaign: bool = False,
    obstacles: bool = False,
    game: AirActionGame | None = None,
    observe: Callable[[AirActionGame], None] | None = None,
) -> tuple[AirActionGame, GameResult]:
    """A whole bot-vs-bot game on the digital table; ends by the rules or the time limit.
    ``observe(game)`` is called at every position before the next action (contract tests probe
    the position there; whatever it applies it must undo)."""
    rng = random.Random(seed)
    g = game or AirActionGame.new(
        squadrons,
        build_total=build_total,
        campaign=campaign,
        obstacles=obstacles,
        dice=dice if dice is not None else SeededDice(seed),
    )
    table = Table(marker=g.cat.marker_width)
    if obstacles:
        from dialtray.rules.airaction.table import Obstacle

        table.obstacles.append(Obstacle(PLAY_AREA / 2, PLAY_AREA / 2, 2.0))
    bots = {p: Bot(p, random.Random(rng.random())) for p in g.state.players}
    steps = 0
    while g.outcome() is None:
        steps += 1
        if steps > 20000:
            raise RuntimeError("bot game did not finish")
        if observe is not None:
            observe(g)
        s = g.state
        if s.phase == "initiative" and s.turn > max_turns:
            g.apply(ac.EndGame("time"))  # AA-M53(2): the agreed time limit
            break
        if s.phase == "deploy":
            nxt = g.to_move()
            assert nxt is not None
            table.deploy(g, nxt)
        if apply_table_step(g, table):
            continue
        who = g.to_move()
        if who in bots:
            g.apply(bots[who].choose(g, table))
        else:
            g.apply(g.legal_actions()[0])
    out = g.outcome()
    assert out is not None
    return g, GameResult(out, len(g.history), g.state.turn)


STANDARD_SQUADRONS: dict[str, list[SquadronPlane]] = {
    "P1": [
        SquadronPlane("A1", "sample-loyle-crawford", "rookie", "sample-ace-loyle-crawford"),
        SquadronPlane("A2", "sample-militia-fighter"),
        SquadronPlane("A3", "sample-pirate-fighter"),
    ],
    "P2": [
        SquadronPlane("B1", "sample-charlie-steele", "rookie", "sample-ace-charlie-steele"),
        SquadronPlane("B2", "sample-militia-fighter"),
        SquadronPlane("B3", "sample-pirate-fighter"),
    ],
}
__all__ = ["STANDARD_SQUADRONS", "Bot", "GameResult", "Pose", "play_game"]
