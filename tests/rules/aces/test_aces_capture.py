"""Capturing and escaping: AC-M39..M47 ("Capturing", "Escaping")."""

from __future__ import annotations

import pytest
from aces_helpers import feed, make_game, texts
from dialtray.rules.aces import events as ev
from dialtray.rules.aces.game import AcesGame
from dialtray.rules.core.errors import IllegalActionError


def captured_game() -> AcesGame:
    """Genghis (P1) has captured the Vigilante (P2); P2 to move."""
    g = make_game(
        {"genghis": "c3", "tail-gunner": "a10"},
        {"vigilante": "c4", "sergeant": "h3", "ruffian": "j10"},
    )
    feed(g, 4, 1)
    out = g.push_text("capture genghis vigilante")
    assert any(isinstance(e, ev.Captured) for e in out)
    return g


def test_M39_capture_rolls_two_fewer_dice_and_does_no_damage() -> None:
    """AC-M39: declared before rolling; attack value reduced by 2; any hit captures, no damage."""
    g = make_game({"genghis": "c3", "tail-gunner": "a10"}, {"vigilante": "c4", "ruffian": "j10"})
    feed(g, 4, 1)
    out = g.push_text("capture genghis vigilante")
    roll = next(e for e in out if isinstance(e, ev.AttackRolled))
    assert len(roll.faces) == 4 - 2
    assert g.char("vigilante").captor == "genghis" and g.char("vigilante").click == 0
    assert not any(isinstance(e, ev.Damaged) for e in out)


def test_A08_capture_with_no_dice_fails() -> None:
    """AC-A08 (decided): attack 2 - 2 = 0 dice is an automatic failure."""
    g = make_game({"soldier": "c3", "tail-gunner": "a10"}, {"vigilante": "c4", "ruffian": "j10"})
    out = g.push_text("capture soldier vigilante")
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).faces == ()
    assert g.char("vigilante").captor is None


def test_M40_captive_may_only_pass_or_escape() -> None:
    """AC-M40 (Capturing): "A captive may be given only pass or escape actions"."""
    g = captured_game()
    assert {t for t in texts(g) if " vigilante" in t and not t.startswith(("shoot", "close"))} >= {
        "pass vigilante",
        "escape vigilante",
    }
    assert not any(
        t.startswith(("move vigilante", "shoot vigilante", "breakaway vigilante")) for t in texts(g)
    )
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move vigilante c6")
    assert info.value.mechanic == "AC-M40"


def test_M42_nobody_may_target_a_captive() -> None:
    """AC-M42: no character, friend or enemy, may target a captive; it takes no damage."""
    g = captured_game()
    g.push_text("pass sergeant")
    with pytest.raises(IllegalActionError) as info:
        g.push_text("shoot tail-gunner vigilante")
    assert info.value.mechanic == "AC-M42"


def test_M44_captor_may_only_move_or_pass_and_M43_moves_captive_at_lower_speed() -> None:
    """AC-M44 the captor may not attack; AC-M43 the captive moves with it at the lower speed
    (Genghis 7, Vigilante 6) and the captor's player places it."""
    g = captured_game()
    g.push_text("pass sergeant")  # P2
    g.push_text("pass tail-gunner")  # P1: Genghis acted last turn (AC-M15)
    g.push_text("pass ruffian")  # P2
    assert "pass genghis" in texts(g)
    assert not any(
        t.startswith(("shoot genghis", "close genghis", "capture genghis")) for t in texts(g)
    )
    assert g.speed(g.char("genghis")) == 6
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move genghis c10 with c9")  # 7 squares
    assert info.value.mechanic == "AC-M21"
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move genghis c9")  # where does the captive go?
    assert info.value.mechanic == "AC-M43"
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move genghis c9 with c7")  # not adjacent: keep them adjacent
    assert info.value.mechanic == "AC-M41"
    g.push_text("move genghis c9 with b9")
    assert g.square_of("genghis").name() == "c9" and g.square_of("vigilante").name() == "b9"


def test_M45_captor_not_target_of_capture_or_ranged_but_of_close_combat() -> None:
    """AC-M45 (Capturing): the controlling character "may not be the target of an enemy's capture
    attempt or ranged combat attack, though it may be the target of a close combat attack"."""
    g = make_game(
        {"genghis": "c3", "tail-gunner": "a10"},
        {"vigilante": "c4", "sergeant": "d2", "soldier": "h3", "ruffian": "j10"},
    )
    feed(g, 4, 1)
    g.push_text("capture genghis vigilante")
    with pytest.raises(IllegalActionError) as info:
        g.push_text("shoot soldier genghis")
    assert info.value.mechanic == "AC-M45"
    with pytest.raises(IllegalActionError) as info:
        g.push_text("capture sergeant genghis")
    assert info.value.mechanic == "AC-M45"
    feed(g, 1, 1, 1)
    g.push_text("close sergeant genghis")  # close combat is allowed, as normal
    assert g.turn.player == 0


def test_M41_one_captive_at_a_time() -> None:
    """AC-M41: a captor holds one captive; it cannot attack, so it can never take a second."""
    g = make_game(
        {"genghis": "c3", "tail-gunner": "a10"},
        {"vigilante": "c4", "sergeant": "d3", "ruffian": "j10"},
    )
    feed(g, 4, 1)
    g.push_text("capture genghis vigilante")
    g.push_text("pass ruffian")
    g.push_text("pass tail-gunner")
    g.push_text("pass sergeant")
    with pytest.raises(IllegalActionError) as info:
        g.push_text("capture genghis sergeant")
    assert info.value.mechanic == "AC-M44"


def test_M46_captive_freed_when_captor_knocked_out() -> None:
    """AC-M46 (Capturing): "If a character with a captive is eliminated, the captive is no longer
    considered captured and may act normally"."""
    g = make_game(
        {"ruffian": "c3", "tail-gunner": "a8"},
        {"vigilante": "c4", "sergeant": "d3", "soldier": "j10"},
    )
    feed(g, 6)
    g.push_text("capture ruffian vigilante")
    assert g.char("vigilante").captor == "ruffian"
    feed(g, 6, 1, 1)
    out = g.push_text("close sergeant ruffian")
    assert any(isinstance(e, ev.Eliminated) and e.label == "ruffian" for e in out)
    assert any(isinstance(e, ev.Freed) and e.captive == "vigilante" for e in out)
    assert g.char("vigilante").captor is None and not g.char("vigilante").is_captive
    g.push_text("pass tail-gunner")  # P1
    # P2: the Vigilante acts normally again: it may move and shoot, and no longer escapes
    assert {"move vigilante c6", "shoot vigilante tail-gunner"} <= texts(g)
    assert "escape vigilante" not in texts(g)
    g.push_text("move vigilante c6")
    assert g.square_of("vigilante").name() == "c6"


def test_M47_escape_needs_strictly_more_hits_then_acts_again() -> None:
    """AC-M47: captive and captor roll their attack values against each other's defense; the
    captive escapes only with more hits, and may then be given another action that turn."""
    g = captured_game()
    # tie: 1 hit each -> still captive, the turn passes
    feed(g, 6, 1, 1, 4, 1, 1, 1)
    out = g.push_text("escape vigilante")
    roll = next(e for e in out if isinstance(e, ev.EscapeRolled))
    assert (roll.captive_hits, roll.captor_hits, roll.escaped) == (1, 1, False)
    assert g.turn.player == 0
    g.push_text("pass tail-gunner")
    g.push_text("pass ruffian")  # P2: the vigilante acted last turn (AC-M15)
    g.push_text("move genghis c6 with c5")
    feed(g, 6, 5, 1, 1, 1, 1, 1)
    out = g.push_text("escape vigilante")
    assert next(e for e in out if isinstance(e, ev.EscapeRolled)).escaped
    assert g.turn.player == 1 and g.turn.extra_for == "vigilante"
    assert texts(g) >= {"pass vigilante", "breakaway vigilante"}
    with pytest.raises(IllegalActionError):
        g.push_text("pass sergeant")  # only the escaped character acts again
    feed(g, 1, 1, 1)
    g.push_text("close vigilante genghis")
    assert g.turn.player == 0
