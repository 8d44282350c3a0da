"""Test fixtures for the Air Action engine: a small test catalogue with known values and a
script runner ("action | faces" lines, like the game-log notation).

The test figures are NOT real figures: their values are chosen to exercise each rule.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import parse_action
from dialtray.rules.airaction.catalogue import (
    DATA_DIR,
    Catalogue,
    ColourEffect,
    _ace_semantics,
    _figure_semantics,
    ace_from_doc,
    builtin,
    figure_from_doc,
    load_cards,
)
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import parse_faces

GD = tuple[AirActionGame, ManualDice]

HOLES = [0, 0, 0, 1, 2, 3, 3, 3]


def dial(
    fg: int = 3,
    rg: int = 0,
    ms: int = 6,
    pil: int = 7,
    colours: dict[int, dict[str, str]] | None = None,
    holes: list[int] | None = None,
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    hs = holes or HOLES
    for i, h in enumerate(hs):
        c: dict[str, Any] = {
            "max_speed": ms,
            "front_gunnery": fg,
            "rear_gunnery": rg,
            "piloting": pil,
            "bullet_holes": h,
        }
        if h == 3:
            c["bail_out"] = 8 + (i - hs.index(3))
        if i == len(hs) - 1:
            c["structural_limit"] = True
        if colours and i in colours:
            c["colours"] = colours[i]
        out.append(c)
    return out


def speed_dial(
    lo: int = 1, hi: int = 8, effects: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"speed": s} for s in range(lo, hi + 1)]
    for s, colour in (effects or {}).items():
        out[s - lo]["effect"] = colour
    out[-1]["red_line"] = True
    return out


# AA-M23 "Navigation": each player's basic deck of 12 (the rules' own counts, not the
# engine's)
BASIC_DECK = {
    "Cruise": 2,
    "Glide": 2,
    "Turn": 2,
    "Tight Turn": 2,
    "Snap Roll": 1,
    "Side-Slip": 1,
    "Wingover": 1,
    "Half Loop": 1,
}

LEVELS = {
    "rookie": {"multiplier": 1, "points": 50, "start_click": 0},
    "veteran": {"multiplier": 4, "points": 60, "start_click": 0},
    "ace": {"multiplier": 5, "points": 70, "start_click": 0},
    "double_ace": {"multiplier": 10, "points": 80, "start_click": 0},
    "legend": {"multiplier": None, "points": 90, "start_click": 0},
}


def fig_doc(fid: str, **kw: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": fid,
        "sample": True,
        "pilot": f"pilot of {fid}",
        "plane": f"plane {fid}",
        "collector_number": "test",
        "squadron_symbol": f"sym-{fid}",
        "silhouette": 5,
        "front_range": 3,
        "rear_range": 0,
        "ace": None,
        "levels": copy.deepcopy(LEVELS),
        "combat_dial": dial(),
        "speed_dial": speed_dial(),
    }
    doc.update(kw)
    return doc


def ace_doc(aid: str, attack: int, fates: list[int], points: int = 40) -> dict[str, Any]:
    d: list[dict[str, Any]] = [{"attack": attack, "fate": f} for f in fates]
    d.append({"attack": 0, "fate": 0, "ko": True})
    return {"id": aid, "name": aid, "sample": True, "points": points, "start_click": 0, "dial": d}


def make_catalogue(extra: Iterable[dict[str, Any]] = ()) -> Catalogue:
    docs = [
        fig_doc("alpha"),
        fig_doc("bravo"),
        fig_doc("charlie"),
        fig_doc("gunner", silhouette=6, rear_range=2, combat_dial=dial(fg=2, rg=2)),
        fig_doc(
            "ace-plane",
            ace="test-ace",
            rear_range=2,
            combat_dial=dial(fg=3, rg=1),
            ace_navigation_cards=["Ace card: Loyle Crawford 1", "Ace card: Loyle Crawford 2"],
        ),
        fig_doc("ace-plane-2", ace="test-ace-2", silhouette=4, combat_dial=dial(fg=3, rg=0)),
        fig_doc(
            "effects",
            combat_dial=dial(
                colours={
                    0: {"front_gunnery": "t-opt-plus", "piloting": "mauve"},
                    1: {"piloting": "t-shaken"},
                }
            ),
            speed_dial=speed_dial(
                effects={2: "t-stall", 3: "t-strain", 4: "t-gun-minus", 5: "t-blur", 6: "mauve"}
            ),
        ),
        *extra,
    ]
    figs = {}
    for d in docs:
        _figure_semantics(d)
        figs[d["id"]] = figure_from_doc(d, f"{d['id']}.json")
    aces = {}
    for a in (ace_doc("test-ace", 3, [3, 2, 1]), ace_doc("test-ace-2", 3, [2, 0, 1])):
        _ace_semantics(a)
        aces[a["id"]] = ace_from_doc(a)
    colours = {
        "t-shaken": ColourEffect("t-shaken", "Shaken", "shaken", False),
        "t-stall": ColourEffect("t-stall", "stall", "movement_speed_change", False, amount=-1),
        "t-strain": ColourEffect("t-strain", "strain", "movement_damage", False, clicks=1),
        "t-gun-minus": ColourEffect("t-gun-minus", "gun -1", "gunnery_modifier", False, amount=-1),
        "t-blur": ColourEffect("t-blur", "blur", "target_silhouette_modifier", False, amount=2),
        "t-opt-plus": ColourEffect("t-opt-plus", "opt +1", "gunnery_modifier", True, amount=1),
    }
    cards, deck, approx, width = load_cards(DATA_DIR / "navigation_cards.json")
    cat = Catalogue(figs, aces, colours, cards, deck, approx, True, width)
    cat.check_references()
    return cat


CAT = make_catalogue()


def new_game(
    squadrons: dict[str, list[SquadronPlane]] | None = None,
    build_total: int = 300,
    **kw: Any,
) -> tuple[AirActionGame, ManualDice]:
    dice = ManualDice()
    sq = squadrons or {
        "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
        "P2": [SquadronPlane("B1", "charlie"), SquadronPlane("B2", "gunner")],
    }
    g = AirActionGame.new(
        sq, build_total=build_total, dice=dice, catalogue=kw.pop("catalogue", CAT), **kw
    )
    return g, dice


# Built-in sample figures (the built-in catalogue, not the test one).
LOYLE = SquadronPlane("L", "sample-loyle-crawford", "rookie", "sample-ace-loyle-crawford")
MILITIA = SquadronPlane("M", "sample-militia-fighter")


def loyle_vs_militia(**kw: Any) -> GD:
    """The Ace Loyle Crawford (P1) against a militia fighter (P2), built-in catalogue; kw go to
    ``new_game`` (build_total, strict_build_total ...). For AA-M10's build-total rules."""
    return new_game({"P1": [LOYLE], "P2": [MILITIA]}, catalogue=builtin(), **kw)


def run(g: AirActionGame, dice: ManualDice, *lines: str) -> list[Event]:
    """Apply notation lines ("shoot A1 front B1 | 5 6 2"); faces must all be used."""
    out: list[Event] = []
    for line in lines:
        text, bar, faces = line.partition("|")
        dice.clear()
        if bar:
            dice.feed(parse_faces(faces, "test", 0))
        out.extend(g.apply(parse_action(text.strip())))
        assert dice.remaining == 0, f"{line}: unused faces {dice.pending()}"
    return out


def start(g: AirActionGame, dice: ManualDice, speeds: dict[str, int] | None = None) -> None:
    """First player P1, both deploy, P1 wins initiative, starting speeds (default 5 each)."""
    roll = " ".join(["6 6"] + ["1 1"] * (len(g.state.players) - 1))
    run(g, dice, f"first-player | {roll}", *[f"deploy {p}" for p in g.state.players])
    run(g, dice, f"initiative | {roll}")
    sp = speeds or {}
    for p in g.clockwise_from(g.state.players[0]):
        for pid in g.in_play(p):
            run(g, dice, f"speed {pid} {sp.get(pid, 5)}")


def of(events: Iterable[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def clicks(events: Iterable[Event], plane: str) -> int:
    return sum(e.clicks for e in of(events, ev.DamageClicks) if e.plane == plane)


QUIET = ("plan", "moved", "overlaps-done", "pass", "no-feat", "no-fate", "no-collision-fate")


def quiet_step(g: AirActionGame, dice: ManualDice) -> list[Event]:
    """Apply the first 'uneventful' legal action (plans, moves, passes); any roll gets sixes."""
    acts = g.legal_actions()
    pick = next(
        (a for a in acts if a.text().startswith(QUIET) or a.text().endswith(" +0")), acts[0]
    )
    dice.clear()
    if pick.text() in ("initiative", "first-player"):
        dice.feed([6, 6] + [1, 1] * (len(g.state.players) - 1))
    else:
        dice.feed([6] * 30)
    out = list(g.apply(pick))
    dice.clear()
    return out


def finish_turn(g: AirActionGame, dice: ManualDice) -> None:
    turn = g.state.turn
    while g.state.turn == turn and g.outcome() is None:
        quiet_step(g, dice)


def advance_to(g: AirActionGame, dice: ManualDice, phase: str) -> None:
    while g.state.phase != phase:
        quiet_step(g, dice)


def into_turn_two(g: AirActionGame, dice: ManualDice, *shooting: str) -> None:
    """A1 and B1 cruise straight; turn 1's shooting is ``shooting`` (e.g. an Ace's offensive
    fate); turn 2 (P1 initiative, both throttle 0, cruise straight) up to its shooting, where
    fate spent in turn 1 is usable again (AA-M61)."""
    run(g, dice, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    run(g, dice, "overlaps-done", *shooting)
    assert g.state.turn == 2
    run(g, dice, "initiative | 6 6 1 1", "throttle A1 0", "throttle B1 0")
    run(g, dice, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    run(g, dice, "overlaps-done")


def plan_all_cruise(g: AirActionGame, dice: ManualDice) -> None:
    """Every active plane plans a Cruise (in placing order) and moves; no overlaps."""
    while g.state.phase == "plan":
        player = g.to_move()
        pid = next(
            p for p in g.state.active if g.plane(p).owner == player and p not in g.state.plans
        )
        run(g, dice, f"plan {pid} Cruise straight")
    for pid in g.state.active:
        run(g, dice, f"moved {pid}")
    run(g, dice, "overlaps-done")
