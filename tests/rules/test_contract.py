"""The contract every rule set's game object keeps (``core.game.Game``, issue 10).

Written against the protocol only, and run for every engine in ``ENGINES``. A new engine (FASA,
Sky Ace, ...) plugs in by adding an ``Engine`` factory: a function that plays a seeded bot game to
its end, calling ``observe(game)`` at each position, and returns the game with its log text.

What is checked, at positions all along real bot games:
- every listed legal action applies, and ``undo`` restores the position exactly (state, history,
  dials) — python-chess's push/pop;
- actions that are not legal now (taken from other positions) are refused with
  ``IllegalActionError`` naming a rule id, and leave the state, history and events unchanged;
- replaying the game's log reproduces it byte for byte (actions, every event's text, dial
  changes, final state);
- the dial vocabulary is consistent: the clicks caused by every action, chained from the dials
  after setup, land exactly on the dials the final state shows, and summed per dial they equal
  the distance each dial travelled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from dialtray.rules.aces.bots import Bot, GreedyBot, RandomBot
from dialtray.rules.aces.notation import LogWriter
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.airaction import AirActionGame
from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, play_game
from dialtray.rules.airaction.notation import write_log
from dialtray.rules.core.dials import replay_changes
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Action, EventSourcedGame
from dialtray.rules.core.game import TABLE, Game, GameOutcome, state_json
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log

Observe = Callable[[Game], None]
RULE_ID = re.compile(r"^[A-Z]{2}-[MAT]\d+$")


@dataclass(frozen=True)
class Engine:
    name: str
    play: Callable[[int, Observe], tuple[Game, str]]  # seed, observer -> finished game, log


def _play_airaction(seed: int, observe: Observe) -> tuple[Game, str]:
    g, _ = play_game(
        STANDARD_SQUADRONS, seed=seed, max_turns=4, campaign=seed % 2 == 0, observe=observe
    )
    return g, write_log(g)


def _play_aces(seed: int, observe: Observe) -> tuple[Game, str]:
    scenario = ("kim-vs-tim", "zeppelin-raid")[seed % 2]
    g = start_scenario(load_scenario(scenario), SeededDice(seed), turn_limit=40)
    w = LogWriter(g, scenario, first=g.state.first_player, turn_limit=40)
    bots: list[Bot] = [GreedyBot(seed), RandomBot(seed + 1)]
    for _ in range(5000):
        if g.outcome() is not None:
            break
        observe(g)
        seat = g.to_move()
        assert seat is not None
        w.apply(bots[g.seats().index(seat) % 2].choose(g))
    return g, w.text()


def _play_skyace(seed: int, observe: Observe) -> tuple[Game, str]:
    from dialtray.rules.skyace.bots import bot_game

    # a duel (1.0) and The Mugging (2.0/4.0), each with dice-dealt decks
    return bot_game(seed, mission=seed % 2 == 0, observe=observe)


def _play_skyace_physical(seed: int, observe: Observe) -> tuple[Game, str]:
    from dialtray.rules.skyace.bots import bot_game

    # every card typed in (``draw P1 QH``): the table's decisions are the cards drawn
    return bot_game(seed, mission=seed % 2 == 1, physical=True, turn_limit=12, observe=observe)


def _play_fasa(seed: int, observe: Observe) -> tuple[Game, str]:
    from dialtray.rules.fasa.bots import bot_game

    # greedy against random bots; open plots (sealed plots list no legal actions: see FASA)
    return bot_game(seed, observe=observe, turn_limit=12)


ENGINES = [
    Engine("airaction", _play_airaction),
    Engine("aces", _play_aces),
    Engine("skyace", _play_skyace),
    Engine("skyace-physical", _play_skyace_physical),
    Engine("fasa", _play_fasa),
]
SEEDS = (1, 2)


@dataclass
class Probe:
    """Checks run at each observed position; counts prove the checks really ran."""

    every: int = 3
    max_legal: int = 12
    max_illegal: int = 6
    positions: int = 0
    applied: int = 0
    refused: int = 0
    pool: dict[str, Action] = field(default_factory=dict)
    refusing_rules: set[str] = field(default_factory=set)

    def __call__(self, g: Game) -> None:
        self.positions += 1
        legal = list(g.legal_actions())
        texts = {a.text() for a in legal}
        for a in legal:
            self.pool.setdefault(a.text(), a)
        if self.positions % self.every:
            return
        assert isinstance(g, Game)
        to_move = g.to_move()
        assert to_move in (*g.seats(), TABLE)
        before = snapshot(g)
        for a in _spread(legal, self.max_legal):
            assert g.parse_action(a.text()).text() == a.text()  # notation round trip
            events = g.apply(a)
            assert isinstance(events, tuple)
            self.applied += 1
            entry = g.undo()
            assert entry.action == a and entry.events == events
            assert snapshot(g) == before, f"undo of {a.text()} did not restore the position"
        others = [a for t, a in self.pool.items() if t not in texts]
        for a in _spread(others, self.max_illegal):
            try:
                g.apply(a)
            except IllegalActionError as exc:
                assert RULE_ID.match(exc.mechanic), f"{a.text()}: refused without a rule id: {exc}"
                self.refused += 1
                self.refusing_rules.add(exc.mechanic)
                assert snapshot(g) == before, f"refused {a.text()} changed the state"
            else:  # meta actions (a dispute, a cancel) are accepted at any time, unlisted
                g.undo()
                assert snapshot(g) == before


def _spread(actions: list[Action], k: int) -> list[Action]:
    """Up to ``k`` actions spread over the list (deterministic)."""
    if len(actions) <= k:
        return actions
    step = len(actions) / k
    return [actions[int(i * step)] for i in range(k)]


def snapshot(g: Game) -> tuple[str, int, str]:
    """The position: its canonical state, history length and the dials."""
    dials = json.dumps([s.to_dict() for _, s in sorted(g.dials().items())], sort_keys=True)
    return state_json(g), len(g.history), dials


@pytest.fixture(params=ENGINES, ids=lambda e: e.name)
def engine(request: pytest.FixtureRequest) -> Engine:
    e: Engine = request.param
    return e


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_apply_illegal_refused_undo_restores(engine: Engine, seed: int) -> None:
    probe = Probe()
    g, _ = engine.play(seed, probe)
    assert probe.positions > 20 and probe.applied > 50
    assert probe.refused > 10, "no illegal action was ever refused: the check did not run"
    out = g.outcome()
    assert isinstance(out, GameOutcome)
    assert out.winner is None or out.winner in g.seats()
    assert set(out.vp) == set(g.seats())
    assert g.to_move() is None and list(g.legal_actions()) == []
    with pytest.raises(IllegalActionError) as info:  # nothing is legal once the game is over
        g.apply(next(iter(probe.pool.values())))
    assert RULE_ID.match(info.value.mechanic)


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_of_a_bot_game_log_reproduces_it_byte_for_byte(engine: Engine, seed: int) -> None:
    g, log = engine.play(seed, lambda _: None)
    again = replay_log(parse_log(log, f"{engine.name}-{seed}.log")).game
    assert isinstance(again, Game)

    def transcript(x: Game) -> str:
        lines = []
        for entry in x.history:
            lines.append(entry.action.text())
            lines.extend("  " + e.text() for e in entry.events)
            lines.extend("  dial " + json.dumps(c.to_dict()) for c in entry.dial_changes)
        return "\n".join(lines)

    assert transcript(again) == transcript(g)
    assert state_json(again) == state_json(g)
    assert again.report() == g.report()


@pytest.mark.parametrize("seed", SEEDS)
def test_clicks_caused_over_a_game_equal_the_final_dials(engine: Engine, seed: int) -> None:
    g, _ = engine.play(seed, lambda _: None)
    assert isinstance(g, EventSourcedGame)
    start = g.initial_dials()
    changes = [c for entry in g.history for c in entry.dial_changes]
    assert changes, "a whole game without one click: the dial vocabulary reported nothing"
    for c in changes:
        assert RULE_ID.match(c.rule_id) and c.cause_event is not None
        assert c.direction in ("clockwise", "counter-clockwise", "set")
    final = {d: s.click for d, s in g.dials().items()}
    assert replay_changes(start, changes) == final
    for dial, setting in start.items():
        if setting.click is None:
            continue
        moved = sum(c.delta for c in changes if c.key == dial)
        assert setting.click + moved == final[dial], dial.text()


def test_both_engines_are_importable_by_name_and_share_the_core() -> None:
    from dialtray.rules import aces, airaction
    from dialtray.rules.aces import AcesGame

    assert "AirActionGame" in airaction.__all__ and "AcesGame" in aces.__all__
    assert issubclass(AirActionGame, EventSourcedGame) and issubclass(AcesGame, EventSourcedGame)
    assert AirActionGame.undo is EventSourcedGame.undo is AcesGame.undo
