"""Fate: AC-M49..M56 and the worked examples AC-T02, AC-T03, AC-T05 ("Fate" in the Aces rules);
decisions AC-A01 (once per attack with Old One-Two) and AC-A16 (fate clicks at the end)."""

from __future__ import annotations

import pytest
from aces_helpers import catalogue_with, feed, make_game, texts
from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import DefensiveFate
from dialtray.rules.aces.figures import Click
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event


def rolled(events: tuple[Event, ...]) -> ev.AttackRolled:
    return next(e for e in events if isinstance(e, ev.AttackRolled))


def test_T02_M50_M51_louis_offensive_fate_rolls_five_dice_and_clicks_once() -> None:
    """AC-T02: Louis (attack 3, fate 2) against defense 5 "rolls five dice and counts the hits
    normally. After resolving the attack, click Louis' combat dial once clockwise". AC-M51 (Fate:
    offensive fate adds dice equal to the fate value, 3 + 2); AC-M50 (Fate: fate click): "At the
    end of an action in which you use fate, click the combat dial of your Ace clockwise once" -
    not before the action ends, and exactly once."""
    g = make_game({"louis": "c3"}, {"show-stopper": "c6", "ruffian": "j10"})
    assert g.char("show-stopper").values.defense == 5
    feed(g, 1, 2, 5, 6, 3)
    out = g.push_text("shoot louis show-stopper fate")
    r = rolled(out)
    assert len(r.faces) == 5 and r.fate_dice == 2
    assert g.char("louis").click == 0  # AC-M50 / AC-A16: not yet, the action is not over
    out += g.push_text("nofate show-stopper")  # Show-stopper could have prevented the 5
    assert g.char("show-stopper").click == 2  # the 5 and the 6 hit (each die >= 5)
    # Old One-Two is optional (AC-M74): Louis declines the second attack
    assert g.turn.phase == "attacked" and "end" in texts(g)
    out += g.push_text("end")
    assert g.char("louis").click == 1  # exactly one fate click, at the end of the action
    kinds = [type(e).__name__ for e in out]
    assert kinds.index("FateClicked") > kinds.index("Damaged")  # AC-A16 order


def test_T03_old_one_two_two_attacks_fate_on_both_two_clicks() -> None:
    """AC-T03: "If Louis had used Old One-Two to attack twice, he could have used fate twice to
    add dice to both attacks. At the end of the turn ... clicked his base twice clockwise."
    (AC-A01: with such a talent fate is once per attack.)"""
    g = make_game({"louis": "c3"}, {"show-stopper": "c6", "genghis": "j10"})
    assert "old_one_two" in g.abilities(g.char("louis"))
    feed(g, 1, 1, 1, 1, 1)
    assert len(rolled(g.push_text("shoot louis show-stopper fate")).faces) == 5
    assert "shoot louis show-stopper fate" in texts(g)  # the second attack, fate again
    feed(g, 1, 1, 1, 1, 2)
    assert len(rolled(g.push_text("shoot louis show-stopper fate")).faces) == 5  # 3 + 2 [derived]
    assert g.char("louis").click == 2
    assert g.turn.player == 1  # the turn passed


def test_M49_without_extra_attacks_fate_once_per_turn_and_only_one_attack() -> None:
    """AC-M49 "Each Ace can use fate only once per turn"; AC-M28 one attack per action."""
    g = make_game({"charlie": "c3"}, {"show-stopper": "c6", "genghis": "j10"})
    feed(g, 1, 1, 1, 1, 1)
    g.push_text("shoot charlie show-stopper fate")
    assert g.turn.player == 1  # one attack only: the action and the turn are over


def test_M49_defensive_fate_once_per_turn_against_old_one_two() -> None:
    """AC-M49 / AC-A01 (decided): Old One-Two lets the *attacker* use fate per attack; the target
    still uses fate at most once per turn."""
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"louis": "c6"}, first=1)
    feed(g, 5, 5, 1)
    g.push_text("shoot louis charlie")
    assert g.to_move() == "P1" and texts(g) == {"fate charlie", "nofate charlie"}
    g.push_text("fate charlie")
    assert g.char("charlie").click == 0
    feed(g, 5, 5, 1)
    g.push_text("shoot louis charlie")
    # no second defensive fate: two hits land at once, then the fate click at the end
    assert g.char("charlie").click == 3


def test_T05_charlie_defensive_fate_only_the_natural_six_hits() -> None:
    """AC-T05: Charlie (defense 4, fate 2) against 4, 4, 5, 6 uses fate: only the 6 hits; her
    dial is clicked once for the hit and once for fate."""
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    assert g.char("genghis").values.attack == 4
    feed(g, 4, 4, 5, 6)
    g.push_text("close genghis charlie")
    assert g.to_move() == "P1"  # the defender decides after seeing the roll (AC-M53)
    out = g.push_text("fate charlie")
    declared = next(e for e in out if isinstance(e, ev.FateDeclared))
    assert declared.prevented == 3
    assert next(e for e in out if isinstance(e, ev.HitsResolved)).hits == 1
    assert g.char("charlie").click == 2  # 1 damage + 1 fate (M50, M54)


def test_M53_no_defensive_fate_at_fate_zero() -> None:
    """AC-M53: defensive fate needs a fate value above 0: at fate 0 no decision is asked, the
    hits land, and ``fate charlie`` is refused. Fails if fate with no fate left is allowed."""
    cat = catalogue_with(charlie={"starting_click": 4})  # sample dial: fate 0 at click 4
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1, catalogue=cat)
    assert g.char("charlie").values.fate == 0
    feed(g, 4, 4, 4, 1)  # defense 3 at click 4: three hits, none a natural six
    g.push_text("close genghis charlie")
    assert g.turn.phase != "defend" and g.char("charlie").click == 4 + 3
    assert not any(isinstance(a, DefensiveFate) for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.push_text("fate charlie")
    # the control: the same attack at fate 2 (click 0) waits for Charlie's decision
    g2 = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    feed(g2, 4, 4, 4, 1)
    g2.push_text("close genghis charlie")
    assert g2.legal_actions() == [DefensiveFate("charlie", True), DefensiveFate("charlie", False)]


def test_M53_no_defensive_fate_once_used_this_turn() -> None:
    """AC-M49 "only once per turn": an Ace that used fate offensively this turn has no fate
    left to defend with: not offered, refused."""
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    g.turn.fate_uses["charlie"] = 1  # as after fate against an earlier attack this turn
    feed(g, 4, 4, 4, 1)
    g.push_text("close genghis charlie")
    assert not any(isinstance(a, DefensiveFate) for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.push_text("fate charlie")


def test_M54_D_AC_05_pointless_defensive_fate_stays_legal() -> None:
    """AC-M54: a natural six cannot be prevented. D-AC-05: against only sixes defensive fate
    prevents nothing, but the rules allow the choice, so it is still offered (marked pointless:
    ``fate_would_prevent`` is 0); using it costs the fate click and changes no hit; bots
    decline it."""
    from dialtray.rules.aces.bots import GreedyBot, RandomBot

    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    feed(g, 6, 1, 1, 1)
    g.push_text("close genghis charlie")
    assert g.legal_actions() == [DefensiveFate("charlie", True), DefensiveFate("charlie", False)]
    assert g.fate_would_prevent("charlie") == 0
    assert GreedyBot(1).choose(g) == DefensiveFate("charlie", False)
    assert all(RandomBot(s).choose(g) == DefensiveFate("charlie", False) for s in range(20))
    out = g.push_text("fate charlie")
    declared = next(e for e in out if isinstance(e, ev.FateDeclared))
    assert declared.prevented == 0
    assert g.char("charlie").click == 2  # 1 damage click (the six) + 1 fate click (AC-M50)
    # a useful decision is not pointless, and the greedy bot takes it
    g2 = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    feed(g2, 6, 5, 1, 1)
    g2.push_text("close genghis charlie")
    assert g2.fate_would_prevent("charlie") == 1
    assert GreedyBot(1).choose(g2) == DefensiveFate("charlie", True)
    # a miss is no hit to defend against: nothing is asked
    g3 = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    feed(g3, 1, 1, 1, 1)
    g3.push_text("close genghis charlie")
    assert not any(isinstance(a, DefensiveFate) for a in g3.legal_actions())


def test_M52_fate_zero_offensive_adds_no_dice_but_clicks() -> None:
    """AC-M52: at fate 0 an Ace may still use fate offensively: no dice, still the click, which
    can bring the dial to a click with fate > 0."""
    cat = catalogue_with(charlie={"dial": (Click(7, 3, 4, 0), Click(7, 3, 4, 2))})
    g = make_game({"charlie": "c3"}, {"genghis": "c6", "ruffian": "j10"}, catalogue=cat)
    feed(g, 1, 1, 1)
    assert len(rolled(g.push_text("shoot charlie genghis fate")).faces) == 3
    assert g.char("charlie").click == 1 and g.char("charlie").values.fate == 2


def test_M12_M49_tokens_cannot_use_fate() -> None:
    """AC-M12 / AC-M49: character tokens cannot use fate."""
    g = make_game({"sergeant": "c3"}, {"genghis": "c6"})
    with pytest.raises(IllegalActionError) as info:
        g.push_text("shoot sergeant genghis fate")
    assert info.value.mechanic == "AC-M49" and "token" in info.value.reason


def test_M51_offensive_fate_adds_dice_equal_to_the_fate_value() -> None:
    """AC-M51 (Fate: offensive): "declare that you are using fate prior to taking a shot. Add a
    number of attack dice to the roll equal to your Ace's fate value": Charlie (attack 3) rolls
    3 dice without fate, 3 + 1 at fate 1 and 3 + 3 at fate 3, in ranged and close combat."""
    for fate in (1, 3):
        cat = catalogue_with(charlie={"dial": (Click(7, 3, 4, fate),) * 3})
        g = make_game(
            {"charlie": "c3", "vigilante": "j1"}, {"ruffian": "c6", "genghis": "j10"}, catalogue=cat
        )
        feed(g, *[1] * (3 + fate))
        r = rolled(g.push_text("shoot charlie ruffian fate"))
        assert (len(r.faces), r.fate_dice, r.offensive_fate) == (3 + fate, fate, True)
        g2 = make_game(
            {"charlie": "c3", "vigilante": "j1"}, {"ruffian": "c4", "genghis": "j10"}, catalogue=cat
        )
        feed(g2, *[1] * (3 + fate))
        assert len(rolled(g2.push_text("close charlie ruffian fate")).faces) == 3 + fate
        g3 = make_game(
            {"charlie": "c3", "vigilante": "j1"}, {"ruffian": "c6", "genghis": "j10"}, catalogue=cat
        )
        feed(g3, 1, 1, 1)
        r = rolled(g3.push_text("shoot charlie ruffian"))  # no fate declared: no extra dice
        assert (len(r.faces), r.fate_dice, r.offensive_fate) == (3, 0, False)


def test_M56_fate_ko_scores_for_the_opponent() -> None:
    """AC-M56: an Ace removed because it used fate on its last click gives its points to the
    opposing player."""
    cat = catalogue_with(charlie={"starting_click": 5})  # the last click of the sample dial
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c6"}, catalogue=cat)
    feed(g, 1, 1)
    out = g.push_text("shoot charlie genghis fate")
    ko = next(e for e in out if isinstance(e, ev.Eliminated))
    assert ko.cause == "fate" and ko.awards == ((1, 49),)
    assert g.state.vp == [0, 49]


def test_M55_defensive_fate_against_capture() -> None:
    """AC-M55: against a capture attempt fate negates every hit but natural sixes; with none
    left the capture fails."""
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    feed(g, 5, 4)  # attack 4 - 2 = 2 dice
    g.push_text("capture genghis charlie")
    g.push_text("fate charlie")
    assert g.char("charlie").captor is None and g.char("charlie").click == 1  # only the fate click


def test_M48_escape_fate_only_offensive() -> None:
    """AC-M48: in an escape attempt fate may be used only offensively (by the captive, adding
    dice); the captor is never asked for defensive fate."""
    g = make_game(
        {"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4", "ruffian": "h8"}, first=1
    )
    feed(g, 6, 6)
    g.push_text("capture genghis charlie")
    g.push_text("nofate charlie")  # two natural sixes: pointless, declined (D-AC-05)
    assert g.char("charlie").captor == "genghis"
    # P1's turn: Charlie escapes with fate: 3 + 2 dice against Genghis's 4
    feed(g, 1, 1, 1, 4, 4, 1, 1, 1, 1)
    out = g.push_text("escape charlie fate")
    roll = next(e for e in out if isinstance(e, ev.EscapeRolled))
    assert len(roll.captive_faces) == 5 and len(roll.captor_faces) == 4
    assert roll.escaped and not any(isinstance(e, ev.DefenseAwaited) for e in out)
    assert g.char("charlie").click == 1  # the captive's dial is still turned for fate (AC-M42)


def test_dial_changes_for_the_tray_T05() -> None:
    """AC-T05 as the tray sees it: one damage click, then one fate click, both clockwise."""
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c4"}, first=1)
    feed(g, 4, 4, 5, 6)
    g.push_text("close genghis charlie")
    assert g.dial_changes() == ()  # charlie decides on defensive fate first (AC-M53)
    g.push_text("fate charlie")
    damage, fate = g.dial_changes()
    assert [c.text() for c in (damage, fate)] == [
        "charlie combat dial: 1 click clockwise (click 0 -> 1) [AC-M36]",
        "charlie combat dial: 1 click clockwise (click 1 -> 2) [AC-M50]",
    ]
    assert type(damage.cause_event) is ev.Damaged and type(fate.cause_event) is ev.FateClicked
