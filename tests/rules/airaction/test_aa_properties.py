"""Property tests (hypothesis): replay rebuilds the same state, undo restores it, a dial never
moves past its end, VP equals the AA-M57 formula."""

from __future__ import annotations

import copy
import random

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import EndGame, parse_action
from dialtray.rules.airaction.catalogue import SHOT_DOWN_HOLES
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
from dialtray.rules.airaction.notation import write_log
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from hypothesis import given, settings
from hypothesis import strategies as st

SQUADS = {
    "P1": [
        SquadronPlane("A1", "sample-loyle-crawford", "rookie", "sample-ace-loyle-crawford"),
        SquadronPlane("A2", "sample-militia-fighter"),
    ],
    "P2": [
        SquadronPlane("B1", "sample-charlie-steele", "rookie", "sample-ace-charlie-steele"),
        SquadronPlane("B2", "sample-pirate-fighter", "rookie"),
    ],
}


def random_game(seed: int, choices: list[int], campaign: bool, steps: int = 250) -> AirActionGame:
    """Random legal actions (never a rules-breaking one), then 'end agreed'."""
    rng = random.Random(seed)
    g = AirActionGame.new(
        SQUADS, build_total=300, campaign=campaign, obstacles=True, dice=SeededDice(seed)
    )
    for i in range(steps):
        if g.outcome() is not None:
            break
        acts = g.legal_actions()
        pick = choices[i] if i < len(choices) else rng.randrange(1000)
        g.apply(acts[pick % len(acts)])
    if g.outcome() is None:
        while g.state.bailouts:
            g.apply(g.legal_actions()[0])
        g.apply(EndGame("agreed"))
    return g


games = st.builds(
    random_game,
    st.integers(0, 10**6),
    st.lists(st.integers(0, 10**4), max_size=300),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_replay_rebuilds_the_same_state(g: AirActionGame) -> None:
    assert g.rebuilt_state() == g.state
    replayed = replay_log(parse_log(write_log(g), "prop.log")).game
    assert isinstance(replayed, AirActionGame) and replayed.state == g.state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**4), max_size=120), st.booleans())
def test_undo_restores_every_previous_state(seed: int, choices: list[int], campaign: bool) -> None:
    rng = random.Random(seed)
    g = AirActionGame.new(SQUADS, build_total=300, campaign=campaign, dice=SeededDice(seed))
    snapshots = []
    for c in choices:
        if g.outcome() is not None:
            break
        acts = g.legal_actions()
        snapshots.append(copy.deepcopy(g.state))
        g.apply(acts[(c + rng.randrange(7)) % len(acts)])
    while snapshots:
        g.undo()
        assert g.state == snapshots.pop()


@settings(max_examples=40, deadline=None)
@given(games)
def test_dials_never_move_past_their_ends(g: AirActionGame) -> None:
    state = g.fold([])
    for e in g.events():
        g.apply_event(state, e)
        for ps in state.planes.values():
            fig = g.cat.figures[ps.figure]
            assert 0 <= ps.combat_click < len(fig.combat_dial)
            assert ps.speed_index is None or 0 <= ps.speed_index < len(fig.speed_dial)
            if ps.ace:
                assert 0 <= ps.ace_click < len(g.cat.aces[ps.ace].dial)
            # no click beyond the first shot-down click (non-campaign) / the structural limit
            first_down = next(
                i for i, c in enumerate(fig.combat_dial) if c.bullet_holes >= SHOT_DOWN_HOLES
            )
            limit = next(
                (i for i, c in enumerate(fig.combat_dial) if c.structural_limit),
                len(fig.combat_dial) - 1,
            )
            assert ps.combat_click <= (limit if state.campaign else first_down)


@settings(max_examples=40, deadline=None)
@given(games)
def test_vp_equals_formula(g: AirActionGame) -> None:
    """AA-M57: (shot down opposing points x 2) + (enemy planes removed) + (remaining friendly)."""
    s = g.state
    owner = {pid: spec.owner for pid, spec in s.specs.items()}
    expect = dict.fromkeys(s.players, 0)
    for e in g.events():
        if isinstance(e, ev.Commandeered):  # AA-A06: scored as shot down by the Ace's player
            expect[e.new_owner] += 2 * g.plane_value(e.target)
            owner[e.target] = e.new_owner
        if isinstance(e, ev.PlaneRemoved):
            if e.shot_by is not None:
                expect[owner[e.shot_by]] += 2 * g.plane_value(e.plane)
            elif "disengaging" in e.reason or "Enjoy the Ride" in e.reason:
                pass  # AA-A07, AA-A06: nobody scores
            else:
                opps = [p for p in s.players if p != owner[e.plane]]
                share = g.plane_value(e.plane) // len(opps)
                for p in opps:
                    expect[p] += share
    for p in s.players:
        mine = [q for q in g.in_play(p)]
        if p not in s.disengaging and not (mine and all(g.shaken(q) for q in mine)):
            expect[p] += sum(g.plane_value(q) for q in mine)
    assert s.vp == expect


VERBS = [
    "first-player", "deploy P1", "deploy P2", "initiative", "speed {p} {n}", "throttle {p} {d}",
    "plan {p} Cruise straight", 'plan {p} "Half Loop" left', "plan {p} random", "moved {p}",
    "left {p}", "obstacle {p}", "overlap {p} {q}", "overlaps-done", "feat {p} {q}",
    "feat-choice {p} ride", "shoot {p} front {q} +fate", "shoot {p} rear {q}", "pass {p}",
    "fate {p}", "no-fate {p}", "collision-fate {p}", "bail-out {p}", "cancel {p} piloting",
    "disengage P1",
]  # fmt: skip
PLANES = ["A1", "A2", "B1", "B2", "Z9"]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.lists(
        st.tuples(
            st.sampled_from(VERBS),
            st.sampled_from(PLANES),
            st.sampled_from(PLANES),
            st.integers(-3, 11),
        ),
        min_size=1,
        max_size=60,
    ),
)
def test_illegal_actions_refused_with_rule_and_leave_no_trace(
    seed: int, attempts: list[tuple[str, str, str, int]]
) -> None:
    """Any refused action names a mechanic id and a seed heading and changes nothing."""
    rng = random.Random(seed)
    g = AirActionGame.new(SQUADS, build_total=300, obstacles=True, dice=SeededDice(seed))
    for verb, p, q, n in attempts:
        if g.outcome() is not None:
            break
        text = verb.format(p=p, q=q, n=n, d=f"{max(-2, min(2, n)):+d}")
        before = copy.deepcopy(g.state)
        count = len(g.history)
        try:
            g.apply(parse_action(text))
        except IllegalActionError as exc:
            assert exc.mechanic.startswith("AA-M") and exc.heading
            assert g.state == before and len(g.history) == count
        acts = g.legal_actions()
        if acts:
            g.apply(acts[rng.randrange(len(acts))])
