"""Bot players for both sides (tests, the 1 000-game run, the bench).

``GreedyBot`` plots safe maneuvers (no push) that close on the nearest enemy and keep it
straight ahead, and shoots whenever it can; ``RandomBot`` picks any legal choice, pushes now
and then. Bots use their own ``random.Random``: the engine's dice stay the injected source.

Both also play the rarer weapons so the 1 000-game sweep meets them: a plane with a harpoon
steers for the cargo and, towing it, for home (FS-M108..FS-M110); one with a torpedo lines up
on an object (FS-M115); a plane of the seat that owns a zeppelin heads for its landing hook
when damaged or late and lands (FS-M66, FS-M67); gun posts (zeppelin turrets, main guns,
ground turrets) fire or lay flak where an enemy plane is (FS-M120, FS-M121). ``bot_game``
varies the map (town with its ground turret, commercial and military zeppelins) and puts a
harpoon/torpedo raider in P1. A greedy plane likes a shot with a gas cell behind the target
(FS-M119 stray shots).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import chain

from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.rules.fasa.actions import (
    Barrage,
    Cut,
    FasaAction,
    Fire,
    Gun,
    Harpoon,
    Land,
    Pass,
    Plot,
    Reveal,
    Rocket,
    Seal,
    Tell,
    Torpedo,
    seal_digest,
)
from dialtray.rules.fasa.game import FasaGame, start_events
from dialtray.rules.fasa.hexmap import (
    Hex,
    distance,
    from_offset,
    step,
    straight_ahead,
    to_offset,
)
from dialtray.rules.fasa.legal import plot_order
from dialtray.rules.fasa.movement import Caps, caps, pushes, refusal
from dialtray.rules.fasa.notation import DEFAULT_SIDES, LogWriter
from dialtray.rules.fasa.state import PlaneState
from dialtray.rules.fasa.stray import stray_cell
from dialtray.rules.fasa.tailing import tells_due, told_for, wanted
from dialtray.rules.fasa.template import parse_plot, template


class Bot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, g: FasaGame) -> FasaAction:
        with g.bound():  # the game's own template and tables
            return self._choose(g)

    def _choose(self, g: FasaGame) -> FasaAction:
        st = g.state
        if st.sealed and st.phase in ("plot", "reveal", "pick", "pick-reveal"):
            return self.secret(g)
        if st.phase == "plot":
            return self.plot(g, self.plot_options(g, plot_order(st)[0]))
        return self.combat(g, list(g.legal_actions()))

    def plot(self, g: FasaGame, plots: list[Plot]) -> Plot:
        return self.rng.choice(plots)

    def plot_options(self, g: FasaGame, plane: str, k: int = 16) -> list[Plot]:
        """Up to ``k`` plots the plane may record, sampled from the template (a bot need not
        weigh all ~280 arrowheads; ``legal_actions`` still lists them all)."""
        p = g.state.planes[plane]
        c = caps(p, g.state.turn)
        every = list(template())
        start = self.rng.randrange(len(every))  # a random slice, then all (cheaper than sample)
        stride = self.rng.choice((7, 11, 13))
        names = chain((every[(start + i * stride) % len(every)] for i in range(len(every))),
                      every)  # the stride may not reach them all: then every one, in order
        out: list[Plot] = []
        for n in names:
            if refusal(c, template()[n]) is None:
                out.append(Plot(plane, n))
                if len(out) >= k:
                    break
        return out

    def combat(self, g: FasaGame, legal: list[FasaAction]) -> FasaAction:
        special = [a for a in legal if isinstance(a, Harpoon | Torpedo | Gun | Land)
                   or (isinstance(a, Fire | Rocket) and a.tow)]
        if special and self.rng.random() < 0.6:
            return self.rng.choice(special)
        cut = [a for a in legal if isinstance(a, Cut)]
        if cut and self.rng.random() < 0.1:  # FS-M110: let go of the prize now and then
            return cut[0]
        return self.rng.choice(legal)

    def secret(self, g: FasaGame) -> FasaAction:
        """Seal, then reveal the very plots sealed (kept until the reveal)."""
        st = g.state
        seat = g.to_move()
        assert seat is not None
        if st.phase == "plot":
            planned = getattr(self, "_planned", None)
            if planned is None or planned[0] != (seat, st.turn):
                mine = [p for p in st.planes.values() if p.seat == seat and p.flying]
                plots = tuple(sorted((p.id, self.plot(g, self.plot_options(g, p.id)).maneuver,
                                      False) for p in mine))
                self._planned = planned = ((seat, st.turn), plots)
            due = [t for t in tells_due(st) if st.planes[t].seat == seat]
            if due:  # FS-M61: tell the tailers first, from the plot this seat will seal
                m = parse_plot(dict((p, m) for p, m, _ in planned[1])[due[0]])
                return Tell(due[0], told_for(m, wanted(st, due[0])))
            self._sealed = (planned[1], f"{self.rng.getrandbits(64):016x}")
            return Seal(seat, seal_digest(seat, st.turn, *self._sealed))
        if st.phase == "pick":  # FS-M55: a secret number per plane in a shared hex
            picks = tuple(sorted((pid, str(self.rng.randint(1, 10)), False) for pid in st.order
                                 if st.planes[pid].seat == seat))
            self._sealed = (picks, f"{self.rng.getrandbits(64):016x}")
            return Seal(seat, seal_digest(seat, st.turn, *self._sealed))
        plots, salt = self._sealed
        return Reveal(seat, plots, salt)


def _stays(g: FasaGame, a: Plot) -> bool:
    """The plot keeps the plane on the sheet and out of standing obstacles (a zeppelin, a
    dotted building: FS-M56 would ask for an avoidance roll)."""
    p = g.state.planes[a.plane]
    walls = _walls(g)
    return all(g.map.on_map(h) and h not in walls
               for h in parse_plot(a.maneuver).path(p.hex, p.facing))


def _walls(g: FasaGame) -> frozenset[Hex]:
    """The standing obstacles now (cached for the position: bots ask once per plot)."""
    key = (id(g), len(g.history))
    if _WALLS[0] != key:
        st = g.state
        _WALLS[:] = [key, frozenset(h for h, o in g.map.blockers().items()
                                    if st.ground.get(o.id, 1) > 0)]
    walls = _WALLS[1]
    assert isinstance(walls, frozenset)
    return walls


_WALLS: list[object] = [None, frozenset()]


class RandomBot(Bot):
    def plot(self, g: FasaGame, plots: list[Plot]) -> Plot:
        safe = [a for a in plots if not a.bail and not _pushes(g, a) and _stays(g, a)]
        if safe and self.rng.random() < 0.95:
            return self.rng.choice(safe)
        return self.rng.choice([a for a in plots if not a.bail] or plots)


def _goals(g: FasaGame, p: PlaneState) -> tuple[list[Hex], int]:
    """Where a plane heads instead of the enemy: its zeppelin's landing hook (damaged, or late
    in the game: FS-M66), cargo (harpoon loaded, not towing), home
    (towing: the row beyond its home edge), an object to torpedo; and how far ahead it wants
    the goal (1 for the harpoon, 0 home, 2 for the torpedo)."""
    st = g.state
    loads = {c for load in p.rockets.values() for c in load}
    hook = [o.hex for o in g.map.objects if o.kind == "hook" and o.owner == p.seat]
    if hook and (_homeward(g, p.id) or g.map.id in ESCORTS):  # FS-M66: home to the zeppelin
        # (an escort holds its station at the hook all game, landing only when homeward)
        return _around(g, p, hook[0]), 0
    if g.map.id in ESCORTS:  # attack the landing approach: the hook 1..3 hexes ahead
        return [o.hex for o in g.map.objects if o.kind == "hook" and o.owner != p.seat], 3
    if p.towing:
        c, _ = to_offset(p.hex)
        home_row = g.map.rows if p.home == "south" else -1
        return [(c, home_row - (c - (c & 1)) // 2)], 0
    if "HP" in loads:
        cargo = [h for o, h in st.cargo.items() if h is not None and st.ground.get(o, 0) > 0]
        if cargo:
            return cargo, 1
    if "TP" in loads:
        return [o.hex for o in g.map.objects if st.ground.get(o.id, 0) > 0
                and o.kind in ("nacelle", "ground", "turret")], 2
    return [], 0


def _strays(g: FasaGame, a: Fire) -> bool:
    st = g.state
    p, t = st.planes[a.plane], st.planes[a.target]
    return stray_cell(st, g.map, p.hex, p.facing, t.hex) is not None


def _homeward(g: FasaGame, plane: str) -> bool:
    """A greedy pilot heads home to land when damaged or late in the game; an escort holds its
    station to the last turn."""
    p, st = g.state.planes[plane], g.state
    if g.map.id in ESCORTS:
        return st.turn >= st.turn_limit - 1
    return bool(p.marked) or st.turn >= st.turn_limit - 3


def _around(g: FasaGame, p: PlaneState, hook: Hex) -> list[Hex]:
    """The hook, or first a hex past either end of the hull when the hull lies between (the
    greedy measure of distance would press the plane against the gas cells)."""
    cells = [to_offset(o.hex) for o in g.map.objects if o.kind == "zeppelin"]
    _, hr = to_offset(hook)
    row = to_offset(p.hex)[1]
    lo, hi = min(r for _, r in cells), max(r for _, r in cells)
    if (row < lo) == (hr < lo) and (row > hi) == (hr > hi):
        return [hook]
    cols = [c for c, _ in cells]
    return [from_offset(min(cols) - 2, hr), from_offset(max(cols) + 2, hr)]


class GreedyBot(Bot):
    def plot(self, g: FasaGame, plots: list[Plot]) -> Plot:
        st = g.state
        p = st.planes[plots[0].plane]
        foes = [q for q in st.planes.values() if q.flying and q.seat != p.seat]
        goals, ahead = _goals(g, p)
        zeppelin = any(o.kind == "zeppelin" for o in g.map.objects)
        seen = [q.hex for q in foes] + [step(q.hex, q.facing, q.speed) for q in foes]
        best: list[tuple[float, Plot]] = []
        for a in plots:
            if a.bail or _pushes(g, a):
                continue
            m = parse_plot(a.maneuver)
            path = m.path(p.hex, p.facing)
            if not _stays(g, a):
                continue
            dest = path[-1] if path else p.hex
            face = (p.facing + m.facing) % 6
            if goals:
                score = min(distance(dest, h) for h in goals) * 1.0
                if ahead and any(straight_ahead(dest, face, h) in range(1, ahead + 1)
                                 for h in goals):
                    score -= 4
                if p.towing and m.gs >= 2:
                    score += 6  # FS-M110: a 2 G maneuver would break the cable
            else:
                score = min((distance(dest, q.hex) for q in foes), default=0) * 1.0
                if any(straight_ahead(dest, face, q.hex) is not None for q in foes):
                    score -= 3
            if zeppelin and any((straight_ahead(dest, face, h) or 9) <= 3
                                and stray_cell(st, g.map, dest, face, h) is not None
                                for h in seen):
                score -= 14  # FS-M119: a miss would still hit the gas cell behind
            best.append((score + self.rng.random(), a))
        if not best:  # every plot pushes or leaves: at least stay on the sheet, out of walls
            return self.rng.choice([a for a in plots if not a.bail and _stays(g, a)]
                                   or plots)
        return min(best, key=lambda x: x[0])[1]

    def combat(self, g: FasaGame, legal: list[FasaAction]) -> FasaAction:
        if g.state.launching is not None:  # FS-M68: one launched weapon is its round's plan
            return next(a for a in legal if isinstance(a, Pass))
        special = [a for a in legal if isinstance(a, Harpoon | Torpedo)
                   or (isinstance(a, Land) and _homeward(g, a.plane))]
        if special:
            return self.rng.choice(special)
        if Cut in map(type, legal) and self.rng.random() < 0.15:
            return next(a for a in legal if isinstance(a, Cut))  # FS-M110: drop it here
        tow = [a for a in legal if isinstance(a, Fire | Rocket | Gun) and a.tow]
        if tow and self.rng.random() < 0.5:  # FS-M110: shoot the prize off the cable
            return self.rng.choice(tow)
        fire = [a for a in legal if isinstance(a, Fire | Gun) and not a.tow]
        stray = [a for a in fire if isinstance(a, Fire) and a.double and _strays(g, a)]
        if stray:  # FS-M119: a gas cell behind the target catches the misses; double down
            return self.rng.choice(stray)
        if fire:
            return self.rng.choice(fire)
        barrage = [a for a in legal if isinstance(a, Barrage) and _near_foe(g, a)]
        if barrage:  # FS-M121: flak where an enemy plane is now
            return self.rng.choice(barrage)
        other = [a for a in legal if not isinstance(a, Pass | Cut | Barrage)]
        if other and self.rng.random() < 0.5:
            return self.rng.choice(other)
        return legal[0]


def _near_foe(g: FasaGame, a: Barrage) -> bool:
    owner = g.state.gunposts.get(a.plane)
    return any(q.flying and q.seat != owner and distance(q.hex, a.hex) <= 1
               for q in g.state.planes.values())


def _pushes(g: FasaGame, a: Plot) -> bool:
    """Whether the plot pushes the envelope (FS-M40): memoised on the plane's capabilities (the
    same few recur all game) and the plot, since bots weigh the same plots over and over."""
    key = (id(g), len(g.history), a.plane)
    if _CAPS[0] != key:
        c = caps(g.state.planes[a.plane], g.state.turn)
        if len(_BY_CAPS) > 4096:
            _BY_CAPS.clear()
        _CAPS[:] = [key, c, _BY_CAPS.setdefault(c, {})]
    memo: dict[str, bool] = _CAPS[2]  # type: ignore[assignment]
    hit = memo.get(a.maneuver)
    if hit is None:
        c = _CAPS[1]  # type: ignore[assignment]
        hit = memo[a.maneuver] = bool(pushes(c, parse_plot(a.maneuver)))
    return hit


_CAPS: list[object] = [None, None, {}]  # (game, position, plane), its caps, its memo
_BY_CAPS: dict[Caps, dict[str, bool]] = {}


RAIDER_SIDES = (("P1", "A1", "sample-raider"), ("P1", "A2", "sample-hawk"),
                ("P2", "B1", "sample-brute"), ("P2", "B2", "sample-gunship"))
MAPS = ("sample-town", "sample-zeppelin", "sample-town", "sample-warship")
ESCORT_SIDES = (("P1", "A1", "sample-pusher"), ("P1", "A2", "sample-pusher"),
                ("P2", "B1", "sample-hawk"), ("P2", "B2", "sample-gunship"))
ESCORTS = ("sample-escort",)  # one seed in 8 (FS-M119: the gas cells behind the escorts)


def bot_game(seed: int, observe: Callable[[FasaGame], None] | None = None,
             sealed: bool = False, turn_limit: int = 10, map_name: str | None = None,
             dice: DiceSource | None = None) -> tuple[FasaGame, str]:
    """A whole bot game (greedy P1 against random P2, or the other way by seed) and its log;
    the map turns with the seed (``MAPS``) and, but on every other town game, P1 flies the
    harpoon/torpedo raider. One seed in 8 (and one in 16) is an escort game on
    ``sample-escort``: two greedy sides, P2's escorts holding station at their zeppelin's hook,
    P1's pushers attacking them with the gas cells behind (FS-M119) until the escorts land
    (FS-M66)."""
    escort = seed % 8 == 4 or seed % 16 == 2
    name = map_name or ("sample-escort" if escort else MAPS[(seed // 2) % len(MAPS)])
    sides = DEFAULT_SIDES if name == "sample-town" and (seed // 8) % 2 == 0 else RAIDER_SIDES
    if name in ESCORTS:
        sides = ESCORT_SIDES
    g = FasaGame(dice or SeededDice(seed),
                 start_events(name, sides, turn_limit, sealed, seed % 3 == 0, seed % 4 == 0))
    w = LogWriter(g)
    bots: dict[str, Bot] = {"P1": GreedyBot(seed), "P2": RandomBot(seed + 1)}
    if name in ESCORTS:  # the escorts hold their station; the attackers come at them
        bots = {"P1": GreedyBot(seed), "P2": GreedyBot(seed + 1)}
    elif seed % 2:
        bots = {"P1": RandomBot(seed), "P2": GreedyBot(seed + 1)}
    for _ in range(5000):
        if g.outcome() is not None:
            break
        if observe is not None:
            observe(g)
        seat = g.to_move()
        assert seat is not None
        w.apply(bots[seat].choose(g))
    return g, w.text()
