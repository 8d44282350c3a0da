"""Issue 10 rules follow-ups for Air Action: tests strong enough to catch a wrong rule.

AA-M79 every level's bail-out modifier, AA-M15 the cards go back to the pile, AA-M75 the
collision-survival XP setting (D-AA-17), AA-M10 build total < 300 with Aces is a warning unless
strict (D-AA-20), AA-M63 no defensive fate without fate left, AA-M70 / AA-A06 Enjoy the Ride
needs the Ace's plane's rear gunnery to be non-0 (D-AA-21).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from aa_helpers import (
    BASIC_DECK,
    GD,
    MILITIA,
    dial,
    fig_doc,
    into_turn_two,
    loyle_vs_militia,
    make_catalogue,
    new_game,
    of,
    plan_all_cruise,
    run,
    start,
)
from dialtray.cli import main
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import DefensiveFate, FeatChoice
from dialtray.rules.airaction.catalogue import builtin
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
from dialtray.rules.airaction.notation import write_log
from dialtray.rules.airaction.rulebook import BAIL_MODIFIER, build_total_warnings
from dialtray.rules.core.errors import IllegalActionError, NotationError
from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log

# ---- AA-M79 "Bailing Out": Rookie +0, Veteran +1, Ace +1, Double Ace +2, Legend +3 ----------

AA_M79 = {"rookie": 0, "veteran": 1, "ace": 1, "double_ace": 2, "legend": 3}


def bail_out(level: str, faces: str) -> ev.BailedOut:
    """B1 (``level``) is shot down onto click 7 of its dial, bail out value 10 (AA-M76)."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [SquadronPlane("B1", "charlie", level), SquadronPlane("B2", "gunner")],
        },
        campaign=True,
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 5, "B2": 2})
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 +rear-arc +point-blank | 6 6 6 6", "pass B1")
    run(g, d, "shoot A2 front B1 +rear-arc +point-blank | 6 6 6 6")
    result: ev.BailedOut = of(run(g, d, f"bail-out B1 | {faces}"), ev.BailedOut)[0]
    return result


@pytest.mark.parametrize("level", list(AA_M79))
def test_aa_m79_bail_out_modifier_of_every_level(level: str) -> None:
    """AA-M78 / AA-M79: 2d6 + the level's modifier >= 10 survives; one less perishes. A wrong
    modifier for any level moves the threshold and fails one of the two rolls."""
    mod = AA_M79[level]
    assert BAIL_MODIFIER[level] == mod
    first = 10 - mod  # the smallest 2d6 total that survives
    ok = bail_out(level, f"{first - first // 2} {first // 2}")
    assert (ok.total, ok.needed, ok.success) == (10, 10, True)
    low = first - 1
    bad = bail_out(level, f"{low - low // 2} {low // 2}")
    assert (bad.total, bad.needed, bad.success) == (9, 10, False)


# ---- AA-M15 cards in a pile to one side (and AA-M26 rebuilt at each new speed) --------------


def test_aa_m15_every_card_back_in_the_pile_when_the_next_turn_plans() -> None:
    """AA-M15: the cards wait in a pile beside the table; none is dealt or lost. After a turn in
    which both players used cards, each deck holds the full basic deck again."""
    g, d = new_game()
    assert all(g.available_cards(p) == BASIC_DECK for p in ("P1", "P2"))
    start(g, d)
    assert all(g.available_cards(p) == BASIC_DECK for p in ("P1", "P2"))
    run(g, d, 'plan A1 "Tight Turn" left', "plan A2 Glide straight")
    avail = g.available_cards("P1")
    assert avail["Tight Turn"] == 1 and avail["Glide"] == 1 and avail["Cruise"] == 2
    run(g, d, "plan B1 Cruise straight", "plan B2 Cruise straight")
    run(g, d, "moved A1", "moved A2", "moved B1", "moved B2", "overlaps-done")
    run(g, d, "pass A1", "pass B1", "pass A2", "pass B2")
    assert g.state.turn == 2
    run(g, d, "initiative | 6 6 1 1", "throttle A1 0", "throttle A2 0")
    run(g, d, "throttle B1 0", "throttle B2 0")
    assert g.state.phase == "plan"
    assert all(g.available_cards(p) == BASIC_DECK for p in ("P1", "P2"))


# ---- AA-M75 XP for surviving a serious collision: a named, logged setting (D-AA-17) ---------


def serious_collision(xp: int, campaign: bool = True) -> tuple[AirActionGame, list[Event]]:
    cat = make_catalogue([fig_doc("fragile", combat_dial=dial(holes=[0, 1, 2, 3, 3, 3]))])
    g, d = new_game(
        {"P1": [SquadronPlane("A1", "alpha")], "P2": [SquadronPlane("B1", "fragile")]},
        campaign=campaign,
        catalogue=cat,
        collision_survival_xp=xp,
    )
    start(g, d, {"A1": 5, "B1": 5})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    events = run(g, d, "overlap A1 B1", "overlaps-done | 1 1 6 6")  # A1 critical failure
    assert g.plane("A1").in_play and not g.plane("B1").in_play  # A1 survived the loop
    return g, events


def test_aa_m75_collision_survival_xp_default_zero_is_logged() -> None:
    """AA-M75: the text gives no value; the default setting 0 awards nothing and the log
    header says so (``CollisionXP: 0``), so a replay with another value is visible."""
    g, events = serious_collision(0)
    assert not of(events, ev.XPAwarded) and g.state.xp.get("A1", 0) == 0
    assert "CollisionXP: 0" in write_log(g).splitlines()


def test_aa_m75_collision_survival_xp_setting_pays_survivors_only() -> None:
    """AA-M75 with ``CollisionXP: 20``: the surviving pilot gets 20 XP, the destroyed one none;
    the log carries the setting and replays to the same XP."""
    g, events = serious_collision(20)
    awarded = of(events, ev.XPAwarded)
    assert [(x.pilot, x.xp) for x in awarded] == [("A1", 20)]
    assert "CollisionXP: 20" in write_log(g).splitlines()
    _g2, events2 = serious_collision(20, campaign=False)
    assert not of(events2, ev.XPAwarded)  # XP exists in campaign games only (AA-M74)


# ---- AA-M10 build total >= 300 with Aces: a warning, an error when strict (D-AA-20) ---------


def test_aa_m10_low_build_total_with_aces_warns_unless_strict() -> None:
    """AA-M10 "should be at least 300": 200 with an Ace is allowed with a warning; a tournament
    sets ``strict_build_total`` and gets the refusal naming AA-M10."""
    g, _ = loyle_vs_militia(build_total=200)
    setup = g.setup_events[0]
    assert isinstance(setup, ev.GameSetup)
    (warning,) = build_total_warnings(setup)
    assert "AA-M10" in warning and "300" in warning
    with pytest.raises(IllegalActionError, match="AA-M10"):
        loyle_vs_militia(build_total=200, strict_build_total=True)
    g3, _ = loyle_vs_militia(build_total=300)
    s3 = g3.setup_events[0]
    assert isinstance(s3, ev.GameSetup) and build_total_warnings(s3) == []
    other = SquadronPlane("N", "sample-militia-fighter")
    g4, _ = new_game({"P1": [MILITIA], "P2": [other]}, build_total=100, catalogue=builtin())
    s4 = g4.setup_events[0]
    assert isinstance(s4, ev.GameSetup) and build_total_warnings(s4) == []  # no Aces


LOG = """Game: airaction
Player: P1
Player: P2
Plane: P1 L sample-loyle-crawford rookie sample-ace-loyle-crawford
Plane: P2 M sample-militia-fighter
BuildTotal: 200
{strict}---
first-player | 6 6 1 1
"""


def test_aa_m10_log_warning_and_strict_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`dialtray replay` prints the AA-M10 warning at the BuildTotal line and replays; with
    ``StrictBuildTotal: yes`` the same log is refused (exit 2)."""
    f = tmp_path / "low.log"
    f.write_text(LOG.format(strict=""))
    assert main(["replay", str(f)]) == 0
    assert f"warning: {f}:6: AA-M10" in capsys.readouterr().err
    f.write_text(LOG.format(strict="StrictBuildTotal: yes\n"))
    assert main(["replay", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"error: {f}:" in err and "AA-M10" in err
    with pytest.raises(NotationError, match="StrictBuildTotal"):
        replay_log(parse_log(LOG.format(strict="StrictBuildTotal: maybe\n"), "s.log"))


def test_aa_m75_collision_xp_header_reaches_the_game() -> None:
    """``CollisionXP: N`` in a log is the game's setting (D-AA-17); junk is a header error."""
    text = LOG.replace("BuildTotal: 200", "BuildTotal: 300").format(strict="CollisionXP: 15\n")
    game = replay_log(parse_log(text, "x.log")).game
    assert isinstance(game, AirActionGame)
    setup = game.setup_events[0]
    assert isinstance(setup, ev.GameSetup) and setup.collision_survival_xp == 15
    with pytest.raises(NotationError, match="CollisionXP") as info:
        replay_log(parse_log(LOG.format(strict="CollisionXP: lots\n"), "x.log"))
    assert info.value.line == 7


# ---- AA-M63: no defensive fate with no fate left --------------------------------------------


def ace_target() -> GD:
    """A1 (alpha) against B1 (an Ace, test-ace-2: fates 2 / 0 / 1), both at speed 5."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha")],
            "P2": [SquadronPlane("B1", "ace-plane-2", "rookie", "test-ace-2")],
        }
    )
    start(g, d, {"A1": 5, "B1": 5})
    return g, d


def fate_zero_target() -> tuple[AirActionGame, list[Event]]:
    """B1's Ace spends fate offensively in turn 1, so in turn 2 (fate usable again, AA-M61) its
    dial shows fate 0; A1 then hits B1 with no natural six."""
    g, d = ace_target()
    into_turn_two(g, d, "pass A1", "shoot B1 front A1 +fate | 1 1 1 1 1")
    v = g.ace_values("B1")
    assert v is not None and v[1] == 0 and not g.plane("B1").fate_used
    return g, run(g, d, "shoot A1 front B1 | 5 5 1")


def test_aa_m63_no_defensive_fate_with_fate_zero() -> None:
    """AA-M63 "Fate value must be > 0": at fate 0 the hits land at once; ``fate B1`` is not
    offered and is refused."""
    g, events = fate_zero_target()
    assert g.state.shot is None and DefensiveFate("B1", True) not in g.legal_actions()
    assert sum(e.clicks for e in of(events, ev.DamageClicks) if e.plane == "B1") == 2
    with pytest.raises(IllegalActionError):
        g.apply(g.parse_action("fate B1"))


def test_aa_m63_defensive_fate_offered_while_fate_is_left() -> None:
    """The control case: the same shot at B1 in turn 1 (fate 2, unused) waits for B1's
    decision, so the test above would notice an engine that never offers fate."""
    g, d = ace_target()
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 | 5 5 1")
    assert g.state.shot is not None and DefensiveFate("B1", True) in g.legal_actions()


# ---- AA-M70 / AA-A06 Enjoy the Ride: only with the Ace's plane's rear gunnery non-0 ----------


def feat_at_15(ace_rear_gunnery: int) -> AirActionGame:
    cat = make_catalogue(
        [
            fig_doc(
                "ride-plane",
                ace="test-ace",
                rear_range=2,
                combat_dial=dial(fg=3, rg=ace_rear_gunnery),
                ace_navigation_cards=["Ace card: Loyle Crawford 1", "Ace card: Loyle Crawford 2"],
            )
        ]
    )
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "ride-plane", "rookie", "test-ace")],
            "P2": [SquadronPlane("B1", "charlie")],
        },
        catalogue=cat,
    )
    start(g, d, {"A1": 5, "B1": 5})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4", "feat A1 B1 | 6 6")  # 12 + 3 = 15
    return g


def test_aa_m70_aa_a06_enjoy_the_ride_needs_rear_gunnery() -> None:
    """AA-M70: "If your Ace has a rear gunnery value of 0 ... treat this result as a Timely
    Distraction" (D-AA-21: the rear gunnery of the Ace's plane, at its current click). With
    rear gunnery 0 the ride is neither offered nor accepted; with 1 it is offered."""
    g0 = feat_at_15(0)
    assert FeatChoice("A1", "ride") not in g0.legal_actions()
    assert {FeatChoice("A1", "distraction"), FeatChoice("A1", "winged")} <= set(g0.legal_actions())
    with pytest.raises(IllegalActionError, match="AA-M70"):
        g0.apply(g0.parse_action("feat-choice A1 ride"))
    g1 = feat_at_15(1)
    assert FeatChoice("A1", "ride") in g1.legal_actions()


def test_aa_m63_d_aa_12_pointless_defensive_fate_stays_legal() -> None:
    """AA-M63: fate prevents every hit but natural sixes. D-AA-12: against only sixes it
    prevents nothing, but the rules allow the choice, so it is offered (``fate_would_prevent``
    0 marks it pointless); using it costs the Ace-dial click and every six lands; the bot
    declines it."""
    from dialtray.rules.airaction.bots import Bot
    from dialtray.rules.airaction.table import Table

    g, d = ace_target()
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 | 6 6 1")
    assert g.state.shot is not None and DefensiveFate("B1", True) in g.legal_actions()
    assert g.fate_would_prevent("B1") == 0
    bot = Bot("P2", random.Random(1))
    assert bot.choose(g, Table()) == DefensiveFate("B1", False)
    events = run(g, d, "fate B1")
    assert sum(e.clicks for e in of(events, ev.DamageClicks) if e.plane == "B1") == 2
    assert [(e.ace, e.mode) for e in of(events, ev.FateClick)] == [("B1", "defensive")]
