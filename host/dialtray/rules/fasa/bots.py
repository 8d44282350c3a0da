"""Bot players for both sides (tests, the 1 000-game run, the bench).

``GreedyBot`` plots safe maneuvers (no push) that close on the nearest enemy and keep it
straight ahead, and shoots whenever it can; ``RandomBot`` picks any legal choice, pushes now
and then. Bots use their own ``random.Random``: the engine's dice stay the injected source.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.rules.fasa.actions import FasaAction, Fire, Pass, Plot, Reveal, Seal, seal_digest
from dialtray.rules.fasa.game import FasaGame, start_events
from dialtray.rules.fasa.hexmap import distance, straight_ahead
from dialtray.rules.fasa.legal import plot_order
from dialtray.rules.fasa.movement import Caps, caps, pushes, refusal
from dialtray.rules.fasa.notation import DEFAULT_SIDES, LogWriter
from dialtray.rules.fasa.state import PlaneState
from dialtray.rules.fasa.template import parse_plot, template


class Bot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, g: FasaGame) -> FasaAction:
        st = g.state
        if st.sealed and st.phase in ("plot", "reveal", "pick", "pick-reveal"):
            return self.secret(g)
        if st.phase == "plot":
            return self.plot(g, self.plot_options(g, plot_order(st)[0]))
        return self.combat(g, list(g.legal_actions()))

    def plot(self, g: FasaGame, plots: list[Plot]) -> Plot:
        return self.rng.choice(plots)

    def plot_options(self, g: FasaGame, plane: str, k: int = 24) -> list[Plot]:
        """Up to ``k`` plots the plane may record, sampled from the template (a bot need not
        weigh all ~280 arrowheads; ``legal_actions`` still lists them all)."""
        p = g.state.planes[plane]
        c = caps(p, g.state.turn)
        every = list(template())
        names = self.rng.sample(every, min(len(every), 4 * k)) + every  # then all, if need be
        out: list[Plot] = []
        for n in names:
            if refusal(c, template()[n]) is None:
                out.append(Plot(plane, n))
                if len(out) >= k:
                    break
        return out

    def combat(self, g: FasaGame, legal: list[FasaAction]) -> FasaAction:
        return self.rng.choice(legal)

    def secret(self, g: FasaGame) -> FasaAction:
        """Seal, then reveal the very plots sealed (kept until the reveal)."""
        st = g.state
        seat = g.to_move()
        assert seat is not None
        if st.phase == "plot":
            mine = [p for p in st.planes.values() if p.seat == seat and p.flying]
            plots = tuple(sorted((p.id, self.plot(g, self.plot_options(g, p.id)).maneuver, False)
                                 for p in mine))
            self._sealed = (plots, f"{self.rng.getrandbits(64):016x}")
            return Seal(seat, seal_digest(seat, st.turn, *self._sealed))
        if st.phase == "pick":  # FS-M55: a secret number per plane in a shared hex
            picks = tuple(sorted((pid, str(self.rng.randint(1, 10)), False) for pid in st.order
                                 if st.planes[pid].seat == seat))
            self._sealed = (picks, f"{self.rng.getrandbits(64):016x}")
            return Seal(seat, seal_digest(seat, st.turn, *self._sealed))
        plots, salt = self._sealed
        return Reveal(seat, plots, salt)


def _stays(g: FasaGame, a: Plot) -> bool:
    p = g.state.planes[a.plane]
    return all(g.map.on_map(h) for h in parse_plot(a.maneuver).path(p.hex, p.facing))


class RandomBot(Bot):
    def plot(self, g: FasaGame, plots: list[Plot]) -> Plot:
        safe = [a for a in plots if not a.bail and not _pushes(g, a) and _stays(g, a)]
        if safe and self.rng.random() < 0.85:
            return self.rng.choice(safe)
        return self.rng.choice([a for a in plots if not a.bail] or plots)


class GreedyBot(Bot):
    def plot(self, g: FasaGame, plots: list[Plot]) -> Plot:
        st = g.state
        p = st.planes[plots[0].plane]
        foes = [q for q in st.planes.values() if q.flying and q.seat != p.seat]
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
            score = min((distance(dest, q.hex) for q in foes), default=0) * 1.0
            if any(straight_ahead(dest, face, q.hex) is not None for q in foes):
                score -= 3
            best.append((score + self.rng.random(), a))
        if not best:
            return super().plot(g, plots)
        return min(best, key=lambda x: x[0])[1]

    def combat(self, g: FasaGame, legal: list[FasaAction]) -> FasaAction:
        fire = [a for a in legal if isinstance(a, Fire)]
        if fire:
            return self.rng.choice(fire)
        other = [a for a in legal if not isinstance(a, Pass)]
        if other and self.rng.random() < 0.5:
            return self.rng.choice(other)
        return legal[0]


def _pushes(g: FasaGame, a: Plot) -> bool:
    p: PlaneState = g.state.planes[a.plane]
    key = (id(g), len(g.history), a.plane)
    c = _CAPS.get(key)
    if c is None:
        _CAPS.clear()
        c = _CAPS[key] = caps(p, g.state.turn)
    return bool(pushes(c, parse_plot(a.maneuver)))


_CAPS: dict[tuple[int, int, str], Caps] = {}


def bot_game(seed: int, observe: Callable[[FasaGame], None] | None = None,
             sealed: bool = False, turn_limit: int = 10, map_name: str = "sample-town",
             dice: DiceSource | None = None) -> tuple[FasaGame, str]:
    """A whole bot game (greedy P1 against random P2, or the other way by seed) and its log."""
    g = FasaGame(dice or SeededDice(seed),
                 start_events(map_name, DEFAULT_SIDES, turn_limit, sealed, seed % 3 == 0,
                              seed % 4 == 0))
    w = LogWriter(g)
    bots: dict[str, Bot] = {"P1": GreedyBot(seed), "P2": RandomBot(seed + 1)}
    if seed % 2:
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
