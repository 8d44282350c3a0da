"""FS-M68 "Weapon choice per combat round" and FS-M77 "Doubling down" as a player meets them
(issue 34): "either guns (any or all, at a single target) or launched weapons. Launched weapons
can be lethal (any or all at one target), non-lethal (at any number of target hexes), or both";
two to-hit rolls "per machine gun chosen"."""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Launch, Pass, Rocket, parse_action
from dialtray.rules.fasa.hexmap import from_offset
from fasahelp import d10, game, placed, refused


def _hawk_vs_gunship(faces: int = 40) -> object:
    return game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
                 placed("B1", "P2", "sample-gunship", 10, 6, "D", 2)], combat=["A1", "B1"],
                dice=d10(*[5] * faces))


def test_fs_m68_a_flare_a_flak_and_a_rocket_in_one_round() -> None:
    """The hawk launches its flak and its flare at two hexes and its AP rocket at B1, all in
    one Combat Phase turn; the round ends by itself when nothing is left to launch. Guns are
    refused after a launch, naming FS-M68, with the state unchanged."""
    g = _hawk_vs_gunship()
    g.apply(Launch("A1", "rockets_s1", "FK", from_offset(10, 6)))  # type: ignore[attr-defined]
    assert g.state.current() == "A1"  # type: ignore[attr-defined]
    refused(g, "fire A1 B1", "FS-M68")  # type: ignore[arg-type]
    g.apply(Launch("A1", "rockets_s1", "FL", from_offset(10, 5)))  # type: ignore[attr-defined]
    out = g.apply(Rocket("A1", "rockets_p1", "AP", "B1"))  # type: ignore[attr-defined]
    assert any(isinstance(e, ev.Acted) and e.plane == "A1" for e in out)
    codes = sorted(c for c, _, who, _, _ in g.state.counters if who == "A1")  # type: ignore
    assert codes == ["FK", "FL"] and g.state.current() == "B1"  # type: ignore[attr-defined]


def test_fs_m68_lethal_launched_weapons_go_at_one_target() -> None:
    """The brute's HE rocket at A1, then its drill at A2: refused (lethal ones at one target);
    its sonic rocket at a hex is still allowed (non-lethal: any hex), then it passes."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 5, "A", 2),
              placed("A2", "P1", "sample-pusher", 10, 6, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 3, "D", 2)], combat=["B1", "A1", "A2"],
             dice=d10(*[5] * 60))
    g.apply(Rocket("B1", "rockets_p1", "HE", "A1"))
    refused(g, Rocket("B1", "rockets_s2", "DR", "A2"), "FS-M68")
    assert Rocket("B1", "rockets_s2", "DR", "A1") in g.legal_actions()
    g.apply(Launch("B1", "rockets_s1", "SS", from_offset(10, 6)))
    g.apply(Pass("B1"))
    assert g.state.current() == "A1"


def test_fs_m68_m77_the_guns_chosen_fire_and_only_those_double_down() -> None:
    """``fire A1 B1 with gun1``: one roll, gun2 silent; ``with gun1,gun2 double gun2``: one
    roll for gun1, two for gun2 (a miss jams gun2 alone, from next turn); doubling a gun not
    firing is refused naming FS-M77."""
    def rolls(text: str) -> dict[str, int]:
        g = _hawk_vs_gunship()
        out = g.apply(text)  # type: ignore[attr-defined]
        got: dict[str, int] = {}
        for e in out:
            if isinstance(e, ev.Rolled) and e.rule == "FS-M73":
                gun = e.purpose.split()[0]
                got[gun] = got.get(gun, 0) + 1
        return got

    assert rolls("fire A1 B1 with gun1") == {"gun1": 1}
    assert rolls("fire A1 B1 with gun1,gun2 double gun2") == {"gun1": 1, "gun2": 2}
    assert rolls("fire A1 B1 double") == {"gun1": 2, "gun2": 2}
    g = _hawk_vs_gunship()
    refused(g, "fire A1 B1 with gun1 double gun2", "FS-M77")  # type: ignore[arg-type]
    refused(g, "fire A1 B1 with gun7", "FS-M68")  # type: ignore[arg-type]
    assert parse_action("fire A1 B1 with gun1,gun2 double gun2 tow").text() == (
        "fire A1 B1 with gun1,gun2 double gun2 tow")


def test_fs_m90_m77_a_destroyed_or_jammed_gun_cannot_be_chosen() -> None:
    """FS-M90: a destroyed gun is gone for the mission; FS-M77/FS-M78: a jammed gun waits to
    be cleared; naming either is refused with its own rule."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 6, "D", 2)], combat=["A1", "B1"],
             extra=[ev.LocationLost("A1", "gun1", "FS-M90"), ev.GunState("A1", "gun2",
                                                                          "jammed")],
             dice=d10(*[5] * 10))
    refused(g, "fire A1 B1 with gun1", "FS-M90")
    refused(g, "fire A1 B1 with gun2", "FS-M77")


def test_fs_m65_memento_or_cargo_chosen_for_a_combat_bailout_in_play() -> None:
    """FS table 9 / FS-T19: a pilot who tries to save the memento bails out at TN +1 (cargo
    +3) and earns +5 XP (cargo +10) when it works (FS table 6, FS-A22); the log's ``Rescue:``
    header sets the choice and replays it. The gunship's wing is sheared off by the hawk's
    guns (FS-M85) in a game where B1 saves its cargo."""
    from dialtray.rules.core.notation import parse_log
    from dialtray.rules.core.replay import replay_log
    from dialtray.rules.fasa.apply import combat_bailout
    from dialtray.rules.fasa.game import record
    from dialtray.rules.fasa.skills import mission_xp

    def bail(rescue: str, roll: int) -> tuple[int, int]:
        g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
                  placed("B1", "P2", "sample-gunship", 10, 6, "D", 2)],
                 dice=d10(roll))
        st = g.state
        st.planes["B1"].rescue = rescue
        events: list[ev.Event] = []

        def emit(e: ev.Event) -> None:
            from dialtray.rules.fasa.state import fold_event

            fold_event(st, e)
            events.append(e)

        with g.bound():
            combat_bailout(st, g.dice, emit, "B1", "wing", "wing sheared off", "FS-M85")
        tn = next(e.tn for e in events if isinstance(e, ev.Rolled))
        return tn, mission_xp(record(st.planes["B1"]))

    plain, memento, cargo = bail("", 10), bail("memento", 10), bail("cargo", 10)
    assert memento[0] - plain[0] == 1 and cargo[0] - plain[0] == 3
    assert memento[1] - plain[1] == 5 and cargo[1] - plain[1] == 10
    assert bail("cargo", 1)[1] <= plain[1]  # failed: no rescue XP (down with the ship)
    text = ("Game: fasa\nSide: P1 A1=sample-hawk\nSide: P2 B1=sample-gunship\n"
            "Rescue: B1=cargo\n---\n")
    g = replay_log(parse_log(text, "r.log")).game
    assert g.state.planes["B1"].rescue == "cargo"  # type: ignore[attr-defined]
    from dialtray.rules.fasa.notation import header_of

    assert ("Rescue", "B1=cargo") in header_of(g)  # type: ignore[arg-type]


def test_refusals_name_the_rule_that_forbids_the_shot() -> None:
    """Not one generic rule: a rocket not loaded is FS-M103, on a destroyed hardpoint FS-M94,
    beyond its range FS-M104, at a target off the column ahead FS-M69, a launch at a hex off
    the column FS-M69 as well, a bomb beyond the next hex FS-M114."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 4, "D", 2),
              placed("B2", "P2", "sample-gunship", 12, 9, "D", 2)], combat=["A1", "B1", "B2"],
             extra=[ev.LocationLost("A1", "rockets_s1", "FS-M94")], dice=d10(*[5] * 20))
    refused(g, Rocket("A1", "rockets_p1", "HE", "B1"), "FS-M103")
    refused(g, Launch("A1", "rockets_s1", "FK", from_offset(10, 8)), "FS-M94")
    refused(g, Rocket("A1", "rockets_p1", "AP", "B1"), "FS-M104")  # 6 ahead, reach 4
    refused(g, Rocket("A1", "rockets_p1", "AP", "B2"), "FS-M69")
    refused(g, "fire A1 B2", "FS-M69")
    refused(g, "fire A1 B1", "FS-M102")


def test_rockets_at_zeppelin_gas_cells_and_nacelles() -> None:
    """D-FS-42 (FS-M117, FS-M118, FS-M104): an AP rocket at a gas cell hits on anything but a 1
    and takes the rocket template's boxes (6 in the sample) off the cell; at a nacelle its TN
    is 7 + range - Dead Eye + 1 (the rocket's modifier), no deflection; a beeper does no damage
    to an object and is refused."""
    g = game([placed("A1", "P1", "sample-hawk", 7, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 15, 2, "D", 2)], map_name="sample-zeppelin",
             combat=["A1", "B1"], dice=d10(2, 5, 5))
    a = parse_action("rocket A1 rockets_p1 AP cell-1")
    assert a in g.legal_actions()
    out = g.apply(a)
    (roll,) = [e for e in out if isinstance(e, ev.Rolled)]
    assert (roll.tn, roll.rule) == (1, "FS-M117") and g.state.ground["cell-1"] == 60 - 6
    nac = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 2),
                placed("B1", "P2", "sample-gunship", 15, 2, "D", 2)],
               map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(9))
    out = nac.apply("rocket A1 rockets_p1 AP nacelle-starboard")
    (roll,) = [e for e in out if isinstance(e, ev.Rolled)]
    assert (roll.tn, roll.rule) == (7 + 2 - 6 + 1, "FS-M118")
    brute = game([placed("A1", "P1", "sample-brute", 7, 8, "A", 2),
                  placed("B1", "P2", "sample-gunship", 15, 2, "D", 2)],
                 map_name="sample-zeppelin", combat=["A1", "B1"])
    refused(brute, "rocket A1 rockets_s1 BP cell-1", "FS-M104")
