"""Swiss pairings (networkx max-weight matching) and standings with tiebreaks (D-HUB-01:
win 3, draw 1, loss 0, bye 3; then VP, then strength of schedule), and the squad check
(AA-M08 build total, AA-M09 pilot uniqueness, AA-M10 Aces as pilots)."""

from __future__ import annotations

import pytest
from dialtray.hub.squads import SquadError, squad_total
from dialtray.hub.swiss import Result, pair_round, standings
from dialtray.rules.airaction.catalogue import builtin

PLAYERS = [f"p{i:02d}" for i in range(1, 34)]


def play(pairs: list[tuple[str, str | None]], rnd: int) -> list[Result]:
    """The lower id wins 5-2 when the ids' sum is odd, the higher when it is 2 mod 4 (whichever
    seat each has: results do not follow seats), and both ids even and the sum 0 mod 4 is a 3-3
    draw."""
    out = []
    for a, b in pairs:
        if b is None:
            out.append(Result(rnd, a, None))
        elif int(a[1:]) % 2 == 0 and int(b[1:]) % 2 == 0 and (int(a[1:]) + int(b[1:])) % 4 == 0:
            out.append(Result(rnd, a, b, 3, 3, None))
        else:
            w = min(a, b) if (int(a[1:]) + int(b[1:])) % 2 else max(a, b)
            out.append(Result(rnd, a, b, 5 if w == a else 2, 2 if w == a else 5, w))
    return out


def test_three_rounds_of_33_players() -> None:
    results: list[Result] = []
    byes = []
    for rnd in (1, 2, 3):
        pairs = pair_round(PLAYERS, results, rnd)
        seen = {p for ab in pairs for p in ab if p is not None}
        assert seen == set(PLAYERS) and len(pairs) == 17  # everyone once, 16 games + a bye
        bye = [a for a, b in pairs if b is None]
        assert len(bye) == 1
        byes.append(bye[0])
        before = {s.player: s.points for s in standings(PLAYERS, results)}
        # the bye: the lowest-ranked player who has not had one
        order = [s.player for s in standings(PLAYERS, results)]
        assert bye[0] == next(p for p in reversed(order) if p not in byes[:-1])
        # nearest scores, after seats kept balanced: never more than one win apart
        assert all(abs(before[a] - before[b]) <= 3 for a, b in pairs if b is not None)
        results += play(pairs, rnd)
        if rnd == 1:  # hand-checked: all on 0, adjacent ids pair up, p33 sits out
            assert [tuple(sorted(ab)) for ab in pairs[:3]] == [
                ("p01", "p02"), ("p03", "p04"), ("p05", "p06")]
            assert bye == ["p33"]
    games = [frozenset((r.a, r.b)) for r in results if r.b is not None]
    assert len(games) == len(set(games)) == 48  # no rematch
    assert len(set(byes)) == 3  # one bye per round, each to a different player


def test_standings_match_a_hand_computed_table() -> None:
    """Five players, three rounds, worked by hand:

    R1 ann–bob 6-2 ann; cat–dan 4-4 draw; eve bye.
    R2 ann–cat 3-5 cat; bob–eve 7-1 bob; dan bye.
    R3 ann–dan 5-0 ann; cat–eve 2-2 draw; bob bye.
    Match points: ann 3+0+3=6, bob 0+3+3=6, cat 1+3+1=5, dan 1+3+0=4, eve 3+0+1=4.
    VP: ann 6+3+5=14, bob 2+7=9, cat 4+5+2=11, dan 4+0=4, eve 1+2=3.
    SoS (opponents' match points): ann bob+cat+dan=15, bob ann+eve=10, cat dan+ann+eve=14,
    dan cat+ann=11, eve bob+cat=11.
    Order: ann (6, 14) > bob (6, 9) > cat (5) > dan (4, VP 4) > eve (4, VP 3).
    """
    res = [Result(1, "ann", "bob", 6, 2, "ann"), Result(1, "cat", "dan", 4, 4, None),
           Result(1, "eve", None), Result(2, "ann", "cat", 3, 5, "cat"),
           Result(2, "bob", "eve", 7, 1, "bob"), Result(2, "dan", None),
           Result(3, "ann", "dan", 5, 0, "ann"), Result(3, "cat", "eve", 2, 2, None),
           Result(3, "bob", None)]
    table = [(s.player, s.points, s.vp, s.sos) for s in
             standings(["ann", "bob", "cat", "dan", "eve"], res)]
    assert table == [("ann", 6, 14, 15), ("bob", 6, 9, 10), ("cat", 5, 11, 14),
                     ("dan", 4, 4, 11), ("eve", 4, 3, 11)]


def test_sos_breaks_a_tie_of_points_and_vp() -> None:
    res = [Result(1, "a", "b", 4, 0, "a"), Result(1, "c", "d", 4, 0, "c"),
           Result(2, "a", "c", 0, 0, None), Result(2, "b", "d", 0, 4, "d")]
    rows = standings(["a", "b", "c", "d"], res)
    # a and c: 4 points, 4 VP; c met d (3) and a (4) = 7, a met b (0) and c (4) = 4
    assert [(s.player, s.points, s.vp, s.sos) for s in rows] == \
        [("c", 4, 4, 7), ("a", 4, 4, 4), ("d", 3, 4, 4), ("b", 0, 0, 7)]


def test_squads_against_the_catalogue_and_limit() -> None:
    cat = builtin()
    ok = [{"figure": "sample-loyle-crawford", "level": "rookie",
           "ace": "sample-ace-loyle-crawford"},
          {"figure": "sample-militia-fighter"}, {"figure": "sample-pirate-fighter"}]
    assert squad_total(cat, ok, 300) == 53 + 45 + 45 + 40
    with pytest.raises(SquadError, match="AA-M10"):
        squad_total(cat, ok, 200)  # Aces only at 300 or more
    four = [{"figure": "sample-loyle-crawford"}, {"figure": "sample-militia-fighter"},
            {"figure": "sample-pirate-fighter"}, {"figure": "sample-charlie-steele"}]
    with pytest.raises(SquadError, match=r"AA-M08.*188 points, over the event.s limit of 100"):
        squad_total(cat, four, 100)  # 53 + 45 + 40 + 50
    with pytest.raises(SquadError, match="AA-M09"):
        squad_total(cat, [{"figure": "sample-militia-fighter"}] * 2, 200)
    with pytest.raises(SquadError, match="AA-M08: the build total must be a positive multiple"):
        squad_total(cat, ok, 250)
    with pytest.raises(SquadError, match=r"AA-M10.*does not fly this figure"):
        squad_total(cat, [{"figure": "sample-militia-fighter",
                           "ace": "sample-ace-loyle-crawford"}], 300)
