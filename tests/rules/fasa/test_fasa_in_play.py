"""Mechanics whose tests only touched their edge, now checked in play as the text states them
(issue 34): FS-M16 "Gunners", FS-M28 "Max Gs", FS-M41 "Stall", FS-M105 "Flak rocket (FK)",
FS-M112 "Seeker (SK)"."""

from __future__ import annotations

import json
from pathlib import Path

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Launch, Pass, Plot, Rocket
from dialtray.rules.fasa.game import FasaGame
from dialtray.rules.fasa.hexmap import from_offset, step
from dialtray.rules.fasa.movement import caps, pushes
from dialtray.rules.fasa.tables import SHIPPED
from dialtray.rules.fasa.template import parse_plot
from fasahelp import d10, done, game, placed, refused


def test_fs_m16_the_turret_gunner_shoots_one_level_below_the_pilot() -> None:
    """FS-M16: the gunship's gunner (pilot Dead Eye 4, so 3) fires the turret at the hawk
    behind it: TN = 7 base + 0 deflection (same direction) + 2 range - 3 = 6; Constitution 3
    whatever the pilot's; Quick Draw one below orders the turret (pilot 6 -> 5 beats 4)."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 4, "D", 2),
              placed("B1", "P2", "sample-gunship", 10, 6, "D", 2)],
             combat=["B1-turret", "A1"], dice=d10(1))
    assert g.state.planes["B1"].gunner_constitution == 3
    out = g.apply("fire B1 A1")
    (roll,) = [e for e in out if isinstance(e, ev.Rolled)]
    assert roll.purpose.startswith("turret_gun") and roll.tn == 7 + 0 + 2 - 3
    from dialtray.rules.fasa.combat import quick_draw

    assert quick_draw(g.state.planes["B1"], True, False).level == 5


def _owner_sheet(tmp_path: Path, **changes: object) -> str:
    d = tmp_path / "box"
    (d / "sheets").mkdir(parents=True, exist_ok=True)
    doc = json.loads((SHIPPED.parent / "sheets" / "sample-hawk.json").read_text())
    doc.update(id="lopsided", sample=False, **changes)
    (d / "sheets" / "lopsided.json").write_text(json.dumps(doc))
    return str(d)


def test_fs_m28_each_wing_has_its_own_rating_and_zero_allows_only_gentle_turns(
        tmp_path: Path) -> None:
    """FS-M28 / FS-M36: a port wing rated 0 flies only 0 G left turns without pushing the Gs;
    the starboard wing (3) judges right turns; "Only the G rating of the plane's destination
    hex counts"."""
    tables = _owner_sheet(tmp_path, g_port=0, g_starboard=3)
    g = FasaGame(d10(), [ev.GameSetup("sample-blank", ("P1", "P2"), 12, False, False, False, 2,
                                      tables),
                         placed("A1", "P1", "lopsided", 10, 10, "A", 3),
                         placed("B1", "P2", "sample-gunship", 10, 2, "D", 2)])
    with g.bound():
        c = caps(g.state.planes["A1"], 1)

        def kinds(plot: str) -> set[str]:
            return {x.kind for x in pushes(c, parse_plot(plot))}

        assert parse_plot("3L1A").gs == 0 and kinds("3L1A") == set()  # a gentle left turn
        assert parse_plot("3L2F").gs == 1 and "gs" in kinds("3L2F")  # pushes the port wing
        assert kinds("3R2B") == set()  # 1 G right: the starboard wing's 3 is enough


def test_fs_m41_a_stall_stays_turns_once_and_must_fly_on() -> None:
    """FS-M41: from speed 1 a stall plot ``B`` keeps the hex and turns one hexside (one of 3
    facings); it counts as 0 G; the next turn the plane must move forward (FS-A20)."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 1),
              placed("B1", "P2", "sample-gunship", 10, 2, "D", 2)], dice=d10(*[5] * 20))
    start = g.state.planes["A1"].hex
    assert {m.text() for m in parse_plot_all() if m.speed == 0} == {"A", "B", "F"}
    g.apply(Plot("A1", "B"))
    g.apply(Plot("B1", "2SA"))
    a1 = g.state.planes["A1"]
    assert (a1.hex, a1.facing, a1.speed, a1.last_gs) == (start, 1, 0, 0)
    while g.state.phase != "plot":
        g.apply(Pass((g.state.current() or "").removesuffix("-turret")))
    refused(g, Plot("A1", "F"), "FS-M41")
    g.apply(Plot("A1", "1SA"))


def parse_plot_all() -> list:  # type: ignore[type-arg]
    from dialtray.rules.fasa.template import template

    return list(template().values())


def test_fs_m105_flak_hits_friend_and_foe_by_their_side_and_nose_in_the_hex() -> None:
    """FS-M105: A1's flak at B1's hex explodes after the next Movement Phase: B1, stalled in
    the hex, takes 2 hits on the Nose table; A1's own wingman A2, stalled next to it, takes 1
    (friend or foe), on the table its side toward the hex gives; nobody else."""
    target = from_offset(10, 5)
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("A2", "P1", "sample-pusher", 10, 6, "A", 1),
              placed("B1", "P2", "sample-gunship", 10, 5, "D", 1)],
             combat=["A1", "A2", "B1"], dice=d10(*[5, 3, 7, 2, 9, 4, 6, 8] * 10))
    assert step(g.state.planes["A2"].hex, 0) == target  # A2 faces the hex, one away
    g.apply(Launch("A1", "rockets_s1", "FK", target))
    done(g, "A1")
    g.apply(Pass("A2"))
    g.apply(Pass("B1"))
    g.apply(Plot("A1", "1SA"))
    g.apply(Plot("A2", "A"))  # both stall where they are
    out = g.apply(Plot("B1", "A"))
    flak = [e for e in out if isinstance(e, ev.Marked) and e.rule == "FS-M105"]
    hits = {p: sum(1 for e in flak if e.plane == p) for p in ("A1", "A2", "B1")}
    assert hits == {"A1": 0, "A2": 1, "B1": 2}
    assert all(b[0] == "nose" for e in flak if e.plane == "B1" for b in e.boxes)


def test_fs_m112_a_seeker_on_a_tagged_target_adds_its_last_gs_not_deflection() -> None:
    """FS-M112: against a tagged target the seeker's TN has no deflection and adds the G
    rating of the target's last maneuver: 7 base + 3 range - 5 Dead Eye + 1 rocket + 2 G = 8
    (nose to nose would have added 2 more)."""
    a1 = placed("A1", "P1", "sample-hawk", 10, 6, "A", 2)
    b1 = placed("B1", "P2", "sample-brute", 10, 3, "D", 2)
    moved = ev.Moved("A1", "2L1A", a1.hex, 0, 2, 2, False, "plotted", "FS-M33")
    g = game([a1, b1], [moved, ev.Tagged("A1", 5)], combat=["B1", "A1"], dice=d10(1))
    out = g.apply(Rocket("B1", "rockets_p2", "SK", "A1"))
    (roll,) = [e for e in out if isinstance(e, ev.Rolled)]
    assert roll.tn == 7 + 3 - 5 + 1 + 2


def test_fs_m63_m64_an_empty_plane_flies_on_at_its_target_over_several_turns() -> None:
    """FS-M63: "this may build up over several turns": A1 bails out at speed 2 with B1 three
    hexes straight ahead, flying away from it at speed 1; the empty plane is not in B1's hex
    after the first turn, flies on the next, and when it ends in B1's hex its TN counts every
    hex it flew straight (2 + 2): 5 + 7 - 4 = 8 (FS-T17's way); FS-M64 7 flak hits on a hit;
    the empty plane is then out of play."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 2),
              placed("A2", "P1", "sample-pusher", 3, 12, "A", 1),  # the wingman, far aside
              placed("B1", "P2", "sample-gunship", 10, 7, "A", 1)],
             dice=d10(*[5, 3, 7, 2, 9, 4, 6, 8] * 12))
    g.apply(Plot("A1", "2SA", bail=True))
    g.apply(Plot("A2", "1SA"))
    g.apply(Plot("B1", "1SA"))
    assert g.state.planes["A1"].status == "projectile"
    while g.state.phase != "plot":
        g.apply(Pass((g.state.current() or "").removesuffix("-turret")))
    g.apply(Plot("A2", "1SA"))
    out = g.apply(Plot("B1", "A"))  # B1 stalls: the empty plane reaches it
    roll = next(e for e in out if isinstance(e, ev.Rolled) and e.rule == "FS-M63")
    assert roll.tn == 5 + 7 - 4
    assert g.state.planes["A1"].status == "bailed"
    assert any(isinstance(e, ev.Marked) and e.rule == "FS-M64" for e in out) == roll.success


def test_fs_m54_m55_teammates_radios_and_several_pairs() -> None:
    """FS-M08 more pairs a side; FS-M54: teammates of two pairs ending in one hex avoid each
    other while their radios work; with A1's radio shot away both check, rolling a die
    instead of choosing (FS-M55, FS-A17): equal rolls collide (FS-M57). A1 and its own
    wingman A2 never collide."""
    def run(radio_lost: bool, rolls: tuple[int, ...]) -> FasaGame:
        extra = [ev.LocationLost("A1", "radio", "FS-M93")] if radio_lost else []
        g = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 2),
                  placed("A2", "P1", "sample-pusher", 4, 12, "A", 1),
                  placed("A3", "P1", "sample-hawk", 10, 9, "A", 1),
                  placed("A4", "P1", "sample-pusher", 16, 12, "A", 1),
                  placed("B1", "P2", "sample-gunship", 3, 2, "D", 1)], extra,
                 dice=d10(*rolls, *[5, 3, 7, 2, 9, 4, 6, 8] * 8))
        assert [g.state.planes[p].pair for p in ("A1", "A2", "A3", "A4")] == [0, 0, 1, 1]
        for p, plot in (("A1", "2SA"), ("A2", "1SA"), ("A3", "1SA"), ("A4", "1SA"),
                        ("B1", "1SA")):
            g.apply(Plot(p, plot))
        return g

    calm = run(False, ())
    assert calm.state.planes["A1"].hex == calm.state.planes["A3"].hex
    assert calm.state.planes["A1"].flying and calm.state.planes["A3"].flying
    hit = run(True, (4, 4))
    assert not hit.state.planes["A1"].flying and not hit.state.planes["A3"].flying
    miss = run(True, (4, 5))
    assert miss.state.planes["A1"].flying and miss.state.planes["A3"].flying
    rolled = [e for x in miss.history for e in x.events if isinstance(e, ev.Picked)]
    assert [(e.plane, e.number) for e in rolled] == [("A1", 4), ("A3", 5)]


def test_fs_m66_m67_landing_at_home_in_a_field_and_the_mishap_rows() -> None:
    """FS table 10 "If not on surfaced road or runway +2": A1 (Natural Touch 5) going home
    lands on a runway with no roll (TN -1); in a field (``Home-field: P1=field``) at TN 1 it
    must roll. With its landing gear shot away (+3) in a field, TN 4: a roll of 1 reads the
    Ground Landing Table at 3: the wings and all components in them are destroyed and the
    pilot loses 1 Constitution (FS-M67)."""
    def home(fields: tuple[str, ...], gear: bool) -> list[ev.Event]:
        extra = [ev.LocationLost("A1", "landing_gear_tail", "FS-M91")] if gear else []
        setup = [ev.GameSetup("sample-blank", ("P1", "P2"), 12, False, False, False, 2, "",
                              (), fields),
                 placed("A1", "P1", "sample-hawk", 10, 12, "D", 2),
                 placed("A2", "P1", "sample-pusher", 4, 12, "A", 1),
                 placed("B1", "P2", "sample-gunship", 3, 2, "D", 1), *extra]
        g = FasaGame(d10(1, *[5, 3, 7, 2, 9, 4, 6, 8] * 8), setup)
        out: list[ev.Event] = []
        for p, plot in (("A1", "2SA"), ("A2", "1SA"), ("B1", "1SA")):
            out += g.apply(Plot(p, plot))
        return out

    def landing(out: list[ev.Event]) -> list[ev.Rolled]:
        return [e for e in out if isinstance(e, ev.Rolled) and e.rule == "FS-M66"]

    runway = home((), False)
    assert landing(runway) == [] and any(isinstance(e, ev.Credit) and e.what == "landed"
                                         for e in runway)
    (field,) = landing(home(("P1",), False))
    assert field.tn == 1
    rough = home(("P1",), True)
    (roll,) = landing(rough)
    assert (roll.tn, roll.roll, roll.success) == (4, 1, False)
    wings = {e.location for e in rough if isinstance(e, ev.LocationLost) and e.rule == "FS-M67"}
    assert wings and all(w.startswith(("gun3", "gun4", "fuel_", "rockets_", "spar_", "wing_",
                                       "flap_", "aileron_", "landing_gear_port",
                                       "landing_gear_starboard")) for w in wings)
    assert [e.amount for e in rough if isinstance(e, ev.Wounded)] == [1]


def test_fs_m59_m60_m61_tailing_in_a_sealed_game() -> None:
    """FS-M59..FS-M61 with sealed plots: A1 tails B1 (tailing number 1: direction and speed).
    B1's seat tells first ("L speed 4"), every other plot still sealed; A1's seat may not seal
    before; the tell's shape is the number's; the reveal must agree with what was told."""
    from dialtray.rules.fasa.actions import Reveal, Seal, Tell, seal_digest

    def start() -> FasaGame:
        return game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 3),
                     placed("B1", "P2", "sample-gunship", 10, 8, "A", 3)], sealed=True,
                    extra=[ev.TailingInfo("A1", "B1", 1, "in tailing position")],
                    dice=d10(*[5, 3, 7, 2, 9, 4, 6, 8] * 8))

    g = start()
    assert g.to_move() == "P2"  # the tailed plane's seat first
    a1 = (("A1", "3SA", False),)
    refused(g, Seal("P1", seal_digest("P1", 1, a1, "s1")), "FS-M61")
    refused(g, Tell("B1", "L"), "FS-M61")  # number 1: direction and speed
    out = g.apply(Tell("B1", "L speed 3"))
    assert [e.revealed for e in out if isinstance(e, ev.TailingInfo)] == ["L speed 3"]
    assert g.to_move() == "P1"
    g.apply(Seal("P1", seal_digest("P1", 1, a1, "s1")))
    b1 = (("B1", "3L2F", False),)
    g.apply(Seal("P2", seal_digest("P2", 1, b1, "s2")))
    g.apply(Reveal("P1", a1, "s1"))
    g.apply(Reveal("P2", b1, "s2"))  # 3L2F: left at speed 3, as told
    liar = start()
    liar.apply(Tell("B1", "L speed 3"))
    liar.apply(Seal("P1", seal_digest("P1", 1, a1, "s1")))
    lie = (("B1", "3R2B", False),)
    liar.apply(Seal("P2", seal_digest("P2", 1, lie, "s2")))
    liar.apply(Reveal("P1", a1, "s1"))
    refused(liar, Reveal("P2", lie, "s2"), "FS-M61")
