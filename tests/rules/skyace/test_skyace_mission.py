"""The advanced game and the 4.0 example mission "The Mugging" (SA-M35..SA-M57, SA-T05..SA-T09)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from dialtray.rules.core.dice import ManualDice, SeededDice
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event
from dialtray.rules.core.game import TABLE, state_json
from dialtray.rules.skyace import SkyAceGame
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.actions import Attack, Hold, Knock, Move
from dialtray.rules.skyace.bots import GreedyBot, RandomBot
from dialtray.rules.skyace.cards import preferred_of
from dialtray.rules.skyace.flow import after_draw
from dialtray.rules.skyace.heroes import (
    ATTRIBUTE_NAMES,
    ability_count,
    advance,
    hero,
    task_succeeds,
)
from dialtray.rules.skyace.missions import load_mission, mission_setup, villain_count
from dialtray.rules.skyace.state import GM, SkyAceState, fold_event
from skyace_helpers import feed


def _near(heroes: tuple[str, ...] | None = None, seed: int = 1) -> SkyAceGame:
    """The Mugging with no gap rows (heroes' and villains' rows touch), dealt with dice."""
    setup = dataclasses.replace(mission_setup("mugging", heroes), gap=0)
    g = SkyAceGame(setup, SeededDice(seed))
    g.apply("deal")
    return g


def _play_until(g: SkyAceGame, pick: Callable[[Attack, SkyAceGame], bool],
                limit: int = 400) -> list[Event]:
    """Heroes look for an attack ``pick(attack, game)`` accepts (trying every maneuver), the GM
    plays greedy; stops after the first such attack. Returns every event on the way."""
    gm = GreedyBot(3)
    seen: list[Event] = []
    for _ in range(limit):
        if g.outcome() is not None:
            break
        p = g.state.active()
        assert p is not None and g.to_move() != TABLE
        if p.seat == GM:
            seen += g.apply(gm.choose(g))
            continue
        for m in [a for a in g.legal_actions() if isinstance(a, Move)]:
            g.apply(m)
            ok = [a for a in g.legal_actions() if isinstance(a, Attack) and pick(a, g)]
            if ok:
                seen += g.history[-1].events
                seen += g.apply(ok[0])
                return seen
            g.undo()
        moves = [a for a in g.legal_actions() if isinstance(a, Move)]
        seen += g.apply(moves[0]) if moves else g.apply("pass")
        if g.state.phase in ("attack", "maneuver2"):
            seen += g.apply(Hold())
    return seen


def _type_of(a: Attack, g: SkyAceGame) -> str:
    from dialtray.rules.skyace.turn import targets

    p = g.state.active()
    assert p is not None
    return targets(g.state, p)[a.target]


def test_sa_t09_mugging_setup_sa_m55_four_thugs_victim_and_gap() -> None:
    """SA-T09 / SA-M55: two heroes face 4 Thugs (2 x the heroes) of LIFE 3, a victim of LIFE 3,
    two card spaces between the rows; SA-M35: the GM plays the villains; SA-M38 / SA-M49: LIFE 5,
    Twilight (Lucky) 6, hands equal to LIFE; SA-M36: the GM holds 4 cards."""
    m = load_mission("mugging")
    assert villain_count(m, 2) == 4 and villain_count(m, 3) == 6
    g = SkyAceGame.mission(SeededDice(2))
    g.apply("deal")
    st = g.state
    assert g.seats() == ("P1", "P2", GM)
    thugs = [p for p in st.pawns.values() if p.seat == GM]
    assert len(thugs) == 4 and {p.life for p in thugs} == {3} and st.victim_life == 3
    assert {p.cell[1] for p in thugs if p.cell} == {3}
    assert {p.cell[1] for p in st.pawns.values() if p.seat != GM and p.cell} == {0}
    assert (st.pawns["P1"].life, st.pawns["P2"].life) == (5, 6)
    assert (len(st.hands["P1"]), len(st.hands["P2"]), len(st.hands[GM])) == (5, 6, 4)
    assert st.pawns[st.hostage or ""].cell is not None


def test_sa_t09_sa_m56_shield_non_stealth_attacks_hurt_the_victim_sa_m57_heroes_lose() -> None:
    """SA-M56: an attack on the hostage thug that is not Stealth plays no defence cards, leaves
    the thug unhurt and costs the victim 1 LIFE (3 -> 2); SA-M57: at 0 the thugs run away and the
    heroes lose."""
    g = _near(seed=4)
    shields: list[ev.Shielded] = []
    for _ in range(3):
        seen = _play_until(g, lambda a, g: a.target == "T1" and _type_of(a, g) != "S")
        hit = [e for e in seen if isinstance(e, ev.Shielded)]
        if not hit:
            break
        shields += hit
        i = seen.index(hit[0])
        assert not any(isinstance(e, ev.Defended) for e in seen[i - 1:i + 1])
    assert [(s.before, s.after) for s in shields][:3] == [(3, 2), (2, 1), (1, 0)]
    out = g.outcome()
    assert out is not None and out.winners == (GM,) and "victim" in out.termination


def test_sa_t09_stealth_attack_on_the_hostage_thug_resolves_normally() -> None:
    """SA-T09: a Stealth attack on the hostage thug is defended and damages as usual."""
    g = _near(seed=2)
    seen = _play_until(g, lambda a, g: a.target == "T1" and _type_of(a, g) == "S")
    att = [e for e in seen if isinstance(e, ev.Attacked) and e.target == "T1"]
    assert att and att[0].attack_type == "S"
    i = seen.index(att[0])
    d = next(e for e in seen[i:] if isinstance(e, ev.Defended | ev.Shielded))
    assert isinstance(d, ev.Defended) and g.state.victim_life == 3


def test_sa_m39_sa_t08_preferred_attack_by_suit_and_sa_a10_card_discarded() -> None:
    """SA-T08 / SA-M39: Hearts -> Hand-to-Hand, Spades -> Stealth, Diamonds -> Distance, Clubs ->
    Charge, a Joker -> all; the revealed card is discarded (SA-A10)."""
    assert [preferred_of(c) for c in ("5H", "5S", "5D", "5C", "JK")] == ["H", "S", "D", "C", "*"]
    g = SkyAceGame.mission(ManualDice(), physical=True)
    feed(g, {"P1": ["AS"], "P2": ["KS"], GM: ["2H", "3D", "4C", "5C"]})
    feed(g, {"P1": ["2C", "3C", "4C", "5C", "6C"], "P2": ["2D", "3D", "4D", "5D", "6D", "7D"],
             GM: ["2S", "3S", "4S", "5S"]})
    assert g.state.pending == [("P1", "reveal", "P1")]
    feed(g, {"P1": ["9D"]})
    assert g.state.preferred == "D" and g.state.piles["P1"].discard == ["9D"]
    assert len(g.state.hands["P1"]) == 5


def st_deck(g: SkyAceGame, pawn: str) -> str:
    return g.state.pawns[pawn].deck


def test_sa_m40_preferred_attack_adds_one_damage_in_play() -> None:
    """SA-M40: the preferred attack's +1 is applied to the damage of a real attack."""
    g = _near(seed=7)
    seen = _play_until(
        g, lambda a, g: a.target != "T1" and g.state.preferred in ("*", _type_of(a, g)))
    att = [e for e in seen if isinstance(e, ev.Attacked) and e.preferred]
    assert att, "no preferred attack found"
    i = seen.index(att[0])
    d = next(e for e in seen[i:] if isinstance(e, ev.Defended))
    j = seen.index(d)  # SA-M25: the attacker's redraw comes between the attack and the defence
    assert all(not isinstance(e, ev.Drew) or e.deck == st_deck(g, att[0].attacker)
               for e in seen[i:j])
    lost = [e for e in seen[i:] if isinstance(e, ev.LifeChanged)][:1]
    if att[0].successes >= d.successes:
        assert lost and lost[0].before - lost[0].after >= 1


def test_sa_m41_advanced_maneuver_next_to_own_pawn_and_attack_is_optional() -> None:
    """SA-M41: the card goes next to one's own pawn (no enemy needed), attacking is optional."""
    g = SkyAceGame.mission(SeededDice(3))
    g.apply("deal")
    p = g.state.active()
    assert p is not None and p.cell is not None
    moves = [a for a in g.legal_actions() if isinstance(a, Move)]
    assert moves and all(max(abs(m.cell[0] - p.cell[0]), abs(m.cell[1] - p.cell[1])) == 1
                         for m in moves)
    g.apply(moves[0])
    assert Hold() in g.legal_actions()


def test_sa_m42_advanced_knock_back_only_from_an_adjacent_start() -> None:
    """SA-M42 / SA-A08: a knock-back needs an enemy adjacent when the maneuver begins; far from
    every thug it is refused naming SA-M42."""
    g = SkyAceGame.mission(SeededDice(3))
    g.apply("deal")
    assert not [a for a in g.legal_actions() if isinstance(a, Knock)]
    p = g.state.active()
    assert p is not None and p.cell is not None
    hand = g.state.hands[p.deck]
    before = state_json(g)
    with pytest.raises(IllegalActionError) as info:
        g.apply(Knock((p.cell[0], p.cell[1] + 2), hand[0]))
    assert info.value.mechanic in ("SA-M42", "SA-M09") and state_json(g) == before


def test_sa_m36_gm_hand_always_four_and_sa_a15_each_villain_its_own_turn() -> None:
    """SA-M36: the GM holds 4 cards whatever the villains' LIFE; SA-A15: each villain pawn takes
    its own turn in rank order, all from the one GM hand, refilled after each."""
    from dialtray.rules.skyace.bots import bot_game

    sizes: list[int] = []
    turns: list[str] = []

    def look(g: SkyAceGame) -> None:
        st = g.state
        if st.phase == "maneuver" and not st.pending and st.moves == 0:
            sizes.append(len(st.hands[GM]))
            turns.append(st.order[st.turn])

    bot_game(11, mission=True, observe=look)
    assert set(sizes) == {4}
    assert {t for t in turns if t.startswith("T")} <= {"T1", "T2", "T3", "T4"}
    assert len({t for t in turns if t.startswith("T")}) >= 2


def test_sa_m46_attributes_sa_m47_advancement_sa_a18_cap() -> None:
    """SA-M46: Health/Sense/Deftness/Courage go with H/S/D/C, heroes start at level 1; SA-M47:
    +1 to one attribute after a session; SA-A18: not above 10."""
    assert ATTRIBUTE_NAMES == {"H": "Health", "S": "Sense", "D": "Deftness", "C": "Courage"}
    h = hero("sky-ace")
    assert [h.attribute(a) for a in "HSDC"] == [1, 1, 1, 1]
    h2 = advance(h, "C")
    assert h2.attribute("C") == 2 and h2.attribute("H") == 1
    for _ in range(8):
        h2 = advance(h2, "C")
    with pytest.raises(ValueError, match="SA-A18"):
        advance(h2, "C")


def test_sa_t05_sa_m48_special_ability_count() -> None:
    """SA-T05 / SA-M48: 1/1/1/1 (sum 4) gives 1 ability; sum 8 gives 2; sum 7 still 1."""
    h = hero("sky-ace")
    assert ability_count(h) == 1
    seven = advance(advance(advance(h, "H"), "S"), "D")
    assert ability_count(seven) == 1 and ability_count(advance(seven, "C")) == 2


def test_sa_t06_sa_m49_lucky_starts_at_six() -> None:
    """SA-T06 / SA-M49: Twilight (Lucky) starts at LIFE 6 with a hand of 6."""
    assert hero("twilight").start_life() == 6 and hero("sky-ace").start_life() == 5


def test_sa_t07_sa_m52_regenerative_cap_sa_a11() -> None:
    """SA-T07 / SA-M52: a Royal revealed heals 1 LIFE: 4 -> 5 with a Queen; at 5 a King does
    nothing (SA-A11: the cap is the starting LIFE, 5 here)."""
    g = SkyAceGame.mission(SeededDice(1), heroes=("sample-regenerator", "twilight"))
    st = SkyAceState()
    for e in g.setup_events:
        fold_event(st, e)
    out: list[Event] = []

    def emit(e: Event) -> None:
        fold_event(st, e)
        out.append(e)

    st.pawns["P1"].life = 4
    after_draw(st, ev.Drew("P1", "QH", "reveal", "P1"), emit)
    assert st.pawns["P1"].life == 5
    after_draw(st, ev.Drew("P1", "KH", "reveal", "P1"), emit)
    assert st.pawns["P1"].life == 5 and len(out) == 1
    after_draw(st, ev.Drew("P1", "7H", "reveal", "P1"), emit)
    assert len(out) == 1


def test_sa_m51_quick_maneuvers_twice_sa_a16() -> None:
    """SA-M51 "Quick": two cards played and two moves before the attack; SA-A16: a knock-back
    may only be the first."""
    g = SkyAceGame.mission(SeededDice(5), heroes=("sample-speedster", "twilight"))
    g.apply("deal")
    gm = GreedyBot(1)
    while g.state.active() is None or g.state.active().id != "P1":  # type: ignore[union-attr]
        g.apply(gm.choose(g) if g.to_move() == GM else next(
            a for a in g.legal_actions() if isinstance(a, Move)))
        if g.state.phase == "attack":
            g.apply(Hold())
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Move)))
    assert g.state.phase == "maneuver2"
    legal = g.legal_actions()
    assert any(isinstance(a, Move) for a in legal) and Hold() in legal
    assert not any(isinstance(a, Knock) for a in legal)
    g.apply(next(a for a in legal if isinstance(a, Move)))
    assert g.state.phase == "attack" and g.state.moves == 2


def test_sa_m50_powerful_and_sa_m53_unbreakable_in_hero_data() -> None:
    """SA-M50 / SA-M53 are abilities of hero sheets (4.0: Sky Ace is Unbreakable)."""
    assert hero("sky-ace").has("unbreakable") and hero("sample-regenerator").has("powerful")


def test_sa_m54_attribute_task_sa_a17() -> None:
    """SA-M54: draw as many cards as the attribute's level; one matching the related attack's
    frequency succeeds (Sky Ace's Courage 1 with Flight (CO): an Odd)."""
    h = hero("sky-ace")
    assert task_succeeds(h, "C", ["7H"]) and not task_succeeds(h, "C", ["8H"])
    with pytest.raises(ValueError):
        task_succeeds(h, "C", ["7H", "8H"])


def test_sa_m58_hero_sheet_and_sa_a14_canonical_roster() -> None:
    """SA-M58: the sheet's fields; SA-A14: the 4.0 roster is the mission's (Flight CO+1, Laser
    Eyes), the 2.1 stats (CO+2) only for SA-T02."""
    sheet = hero("sky-ace").sheet()
    assert "(C) ATTACK POWER AND (FREQUENCY): Flight (CO)" in sheet
    assert "SPECIAL ABILITIES: unbreakable" in sheet
    assert hero("sky-ace").attribute("C") == 1 and hero("sky-ace-2.1").attribute("C") == 2
    assert load_mission("mugging").heroes == ("sky-ace", "twilight")


def test_sa_m37_gm_layout_and_sa_m57_heroes_win_when_every_thug_is_down() -> None:
    """SA-M37: the GM's start layout (rows ``gap`` apart, checkerboard kept); SA-M57: the heroes
    win when every thug is defeated (bot missions end one way or the other)."""
    from dialtray.rules.skyace.bots import bot_game

    wins = {}
    for seed in range(30):
        g, _ = bot_game(seed, mission=True)
        out = g.outcome()
        assert out is not None
        wins[out.termination] = out.winners
        for c, stack in g.state.mat.items():
            assert all(col == g.state.colour_at(c) for _, _, col in stack)
    assert set(wins) <= {"every villain defeated", "every hero knocked out", "turn limit",
                         "the victim lost all LIFE: the thugs run away"}
    if "every villain defeated" in wins:
        assert wins["every villain defeated"] == ("P1", "P2")


def test_sa_a11_regenerative_cap_strict_text_reading() -> None:
    """SA-A11: with ``Regenerative-cap: 5`` a hero that started at 6 heals only to 5; the default
    heals to the starting LIFE."""
    def healed(cap: str) -> int:
        g = SkyAceGame.mission(SeededDice(1), heroes=("sample-regenerator", "twilight"),
                               regen_cap=cap)
        st = SkyAceState()
        for e in g.setup_events:
            fold_event(st, e)
        st.pawns["P1"].max_life, st.pawns["P1"].life = 6, 5  # as if also Lucky

        def emit(e: Event) -> None:
            fold_event(st, e)

        after_draw(st, ev.Drew("P1", "QH", "reveal", "P1"), emit)
        return st.pawns["P1"].life

    assert (healed("start"), healed("5")) == (6, 5)


def _always(bot: RandomBot) -> Callable[[str], RandomBot]:
    return lambda seat: bot


def test_sa_a10_preferred_card_left_on_top_is_drawn_next() -> None:
    """SA-A10 alternative (``Preferred-card: top``): the revealed card stays face up on the draw
    pile and is the next card drawn from it; typing another card is refused (SA-A10). Bot
    missions in this mode replay exactly, with dice and with physical decks."""
    from dialtray.rules.core.notation import parse_log
    from dialtray.rules.core.replay import replay_log
    from dialtray.rules.skyace.actions import Draw
    from dialtray.rules.skyace.bots import play

    g = SkyAceGame.mission(ManualDice(), physical=True, reveal="top")
    feed(g, {"P1": ["AS"], "P2": ["KS"], GM: ["2H", "3D", "4C", "5C"]})
    feed(g, {"P1": ["2C", "3C", "4C", "5C", "6C"], "P2": ["2D", "3D", "4D", "5D", "6D", "7D"],
             GM: ["2S", "3S", "4S", "5S"]})
    feed(g, {"P1": ["9D"]})
    assert g.state.preferred == "D" and g.state.tops == {"P1": "9D"}
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Move)))
    g.apply(Hold())
    assert g.legal_actions() == [Draw("P1", "9D")]
    with pytest.raises(IllegalActionError) as info:
        g.apply(Draw("P1", "8D"))
    assert info.value.mechanic == "SA-A10"
    g.apply(Draw("P1", "9D"))
    assert "9D" in g.state.hands["P1"] and g.state.tops == {}
    for seed, physical in ((1, False), (2, True), (3, False)):
        m = SkyAceGame.mission(SeededDice(seed), physical=physical, reveal="top", turn_limit=15)
        log = play(m, _always(RandomBot(seed))).text()
        assert "Preferred-card: top" in log
        again = replay_log(parse_log(log)).game
        assert isinstance(again, SkyAceGame) and state_json(again) == state_json(m)
