"""The four games as the table sets them up: a new game on the tracker's dice, its log header,
and the bots' brains (which decision each seat takes; the bots' *hands* — turning dials — are
engine-independent, in ``dialtray.tracker.hands``).

This is the one place a front end's game is named by engine; the tracker never does. Air Action
and Aces are played on dials (the tracker confirms every click); FASA (record sheets on paper)
and Sky Ace (cards; LIFE counters on the tray's LED dice) have no dial to track: the table keeps
their record and rolls their dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from dialtray.rules.core.dials import Dial
from dialtray.rules.core.game import Game
from dialtray.tracker.dice import TableDice

if TYPE_CHECKING:
    from dialtray.table.ownfiles import OwnFiles

GAMES = ("airaction", "aces", "fasa", "skyace")
DIALLED = ("airaction", "aces")  # games whose figures' dials sit on the tray's docks
TITLES = {"airaction": "Crimson Skies: Air Action", "aces": "Crimson Skies: Aces",
          "fasa": "Crimson Skies (FASA 1998)", "skyace": "Sky Ace"}
FASA_MAP = "sample-town"
ACES_SCENARIO = "zeppelin-raid"  # 9 figures: fits the default 8-dock tray (see auto_bind)


class Brain(Protocol):
    """Chooses the action for whoever is to move (a bot seat, or the table's facts)."""

    def choose(self, game: Any) -> Any: ...


@dataclass
class Setup:
    game: Game
    header: list[tuple[str, str]]
    brain: Brain
    order: Sequence[str]  # figures in dock order
    owner: Callable[[Dial], str | None]  # the seat whose player turns that dial


class AirActionBrain:
    """Air Action bots on the approximate digital table (``rules.airaction.table``): the table
    reports maneuver outcomes and overlaps, bots decide for their players, the agreed time limit
    ends the game (AA-M53(2))."""

    def __init__(self, game: Any, seed: int, max_turns: int) -> None:
        from dialtray.rules.airaction.bots import Bot
        from dialtray.rules.airaction.table import Table

        self.table = Table(marker=game.cat.marker_width)
        rng = random.Random(seed)
        self.bots = {p: Bot(p, random.Random(rng.random())) for p in game.state.players}
        self.max_turns = max_turns
        self.seen = 0  # history entries already folded into the digital table
        self.laid: set[tuple[int, str]] = set()  # (history index, plane): moves it laid itself
        self._shadow: tuple[int, Any] | None = None  # (history index, the state before it)

    def observe(self, game: Any) -> None:
        """Fold every action taken since the last look into the digital table, whoever took
        it: a person's deployment (AA-M14) puts their planes on it, a move reported by a
        person (``moved A1``) moves its marker along the path planned *when it was reported*.
        The table must know every plane before a bot asks it anything (issue 30: a person's
        deployment was never seen, and the first move phase failed on their planes). A bot
        that joins a game midway (``play --resume`` with a bot seat) rebuilds every marker
        the same way: the engine's history is replayed, each move laid out in the state just
        before it (``_then``), so nothing about the planes' places needs storing."""
        from dialtray.rules.airaction import actions as ac

        history = game.history
        if len(history) < self.seen:  # an undo (a judge's ruling): markers stay where they are
            self.seen = len(history)
            self._shadow = None
        for i in range(self.seen, len(history)):
            a = history[i].action
            if isinstance(a, ac.Deploy):
                self.table.deploy(game, a.player)
            elif isinstance(a, ac.ReportMove) and (i, a.plane) not in self.laid and \
                    a.plane in self.table.poses:
                then = self._then(game, i)
                if a.plane in then.state.plans:  # a move the bot did not report: lay it out
                    _result, pose = self.table.move(then, a.plane)
                    self.table.poses[a.plane] = pose
        self.seen = len(history)

    def _then(self, game: Any, index: int) -> Any:
        """``game`` as it stood just before history entry ``index`` (a shallow copy whose
        state is the fold of the events before it; folded forward from the last one asked)."""
        import copy

        history = game.history
        if self._shadow is None or self._shadow[0] > index:
            events = list(game.setup_events)
            for entry in history[:index]:
                events.extend(entry.events)
            self._shadow = (index, game.fold(events))
        at, state = self._shadow
        for entry in history[at:index]:
            for e in entry.events:
                game.apply_event(state, e)
        self._shadow = (index, state)
        then = copy.copy(game)
        then.state = state
        return then

    def choose(self, game: Any) -> Any:
        from dialtray.rules.airaction import actions as ac

        self.observe(game)
        s = game.state
        if s.turn > self.max_turns and not s.bailouts:  # the table rolls initiative itself,
            return ac.EndGame("time")  # so the agreed limit is called at the next decision
        if s.phase == "deploy":
            who = game.to_move()
            self.table.deploy(game, who)
        if not s.ended and not s.bailouts:
            if s.phase == "move":
                for pid in s.active:
                    if s.planes[pid].in_play and pid not in s.move_results:
                        result, pose = self.table.move(game, pid)
                        if result == "obstacle" and not s.obstacles:
                            result = "moved"
                        self.table.poses[pid] = pose
                        self.laid.add((len(game.history), pid))  # laid out already
                        return ac.ReportMove(pid, result)
            if s.phase == "overlaps":
                found = self.table.overlaps(game)
                return found[0] if found else ac.OverlapsDone()
        who = game.to_move()
        if who in self.bots:
            return self.bots[who].choose(game, self.table)
        return game.legal_actions()[0]


class AcesBrain:
    """Aces bots: the greedy bot for every seat (``rules.aces.bots``)."""

    def __init__(self, seed: int) -> None:
        from dialtray.rules.aces.bots import GreedyBot

        self.bots = [GreedyBot(seed), GreedyBot(seed + 1)]

    def choose(self, game: Any) -> Any:
        seat = game.to_move()
        i = game.seats().index(seat) if seat in game.seats() else 0
        return self.bots[i % len(self.bots)].choose(game)


class SeatBrains:
    """FASA and Sky Ace: one greedy bot per seat (``rules.fasa.bots``, ``rules.skyace.bots``);
    the table's own steps (``TABLE``) take the first legal action — a roll or a deal."""

    def __init__(self, kind: str, seats: Sequence[str], seed: int) -> None:
        if kind == "fasa":
            from dialtray.rules.fasa.bots import GreedyBot as FasaBot

            self.bots: dict[str, Any] = {s: FasaBot(seed + i) for i, s in enumerate(seats)}
        else:
            from dialtray.rules.skyace.bots import GreedyBot as SkyBot

            self.bots = {s: SkyBot(seed + i) for i, s in enumerate(seats)}

    def choose(self, game: Any) -> Any:
        bot = self.bots.get(game.to_move())
        return bot.choose(game) if bot is not None else game.legal_actions()[0]


def new_game(kind: str, dice: TableDice, seed: int, turns: int,
             own: OwnFiles | None = None) -> Setup:
    """A fresh game of ``kind`` rolling with ``dice``; ``turns`` is the agreed time limit;
    ``own``: the owner's FASA tables and sheets or Sky Ace heroes (``table.ownfiles``)."""
    if kind == "airaction":
        from dialtray.rules.airaction import AirActionGame
        from dialtray.rules.airaction.bots import STANDARD_SQUADRONS
        from dialtray.rules.airaction.notation import header_of

        g = AirActionGame.new(STANDARD_SQUADRONS, build_total=300, dice=dice)
        header = header_of(g.setup_events[0])  # type: ignore[arg-type]
        return setup_of(kind, g, header, seed, turns)
    if kind == "aces":
        from dialtray.rules.aces.scenarios import load_scenario, start_scenario

        ga = start_scenario(load_scenario(ACES_SCENARIO), dice, turn_limit=turns * 10)
        header = [("Scenario", ACES_SCENARIO), ("First", str(ga.state.first_player + 1)),
                  ("Turn-limit", str(turns * 10))]
        return setup_of(kind, ga, header, seed, turns)
    if kind == "fasa":
        from dialtray.rules.fasa.game import FasaGame, start_events
        from dialtray.rules.fasa.notation import DEFAULT_SIDES
        from dialtray.rules.fasa.notation import header_of as fasa_header

        gf = FasaGame(dice, own.fasa_events(turns) if own is not None else
                      start_events(FASA_MAP, DEFAULT_SIDES, turns))
        return setup_of(kind, gf, fasa_header(gf), seed, turns)
    if kind == "skyace":
        from dialtray.rules.skyace import SkyAceGame
        from dialtray.rules.skyace.notation import header_of as skyace_header

        gs = own.skyace_game(dice) if own is not None else SkyAceGame.duel(dice)
        return setup_of(kind, gs, skyace_header(gs), seed, turns)
    raise ValueError(f"unknown game {kind!r}: {' or '.join(GAMES)}")


def setup_of(kind: str, game: Any, header: list[tuple[str, str]], seed: int,
             turns: int) -> Setup:
    """The bots' brain, dock order and dial owners for ``game`` — a new one, or one rebuilt
    from the store (``play --resume``)."""
    if kind == "airaction":
        from dialtray.rules.airaction.bots import STANDARD_SQUADRONS

        order = [p.id for ps in STANDARD_SQUADRONS.values() for p in ps]
        owners = {p.id: seat for seat, ps in STANDARD_SQUADRONS.items() for p in ps}
        return Setup(game, header, AirActionBrain(game, seed, turns), order,
                     lambda d: owners.get(d.figure))
    if kind == "aces":
        seats = game.seats()
        team = {label: seats[c.player] for label, c in game.state.chars.items()}
        return Setup(game, header, AcesBrain(seed), [], lambda d: team.get(d.figure))
    if kind in ("fasa", "skyace"):
        st = game.state
        pieces = st.planes if kind == "fasa" else st.pawns  # a plane's or a pawn's seat
        seat_of = {pid: str(p.seat) for pid, p in pieces.items()}
        return Setup(game, header, SeatBrains(kind, game.seats(), seed), [],
                     lambda d: seat_of.get(d.figure))
    raise ValueError(f"unknown game {kind!r}: {' or '.join(GAMES)}")
