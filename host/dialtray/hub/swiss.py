"""Swiss pairings and standings — pure functions, no database (issue 17 "The event").

Scoring (decision D-HUB-01 in docs/rules-decisions.md): a win 3 match points, a draw 1, a loss 0,
a bye 3. Standings order: match points, then total VP scored, then strength of schedule (the sum
of the match points of every opponent met), then the player's id (stable, never random).

Pairing a round is a maximum-weight matching (networkx) on the graph of players who have not met:
an edge's weight is large and falls with the square of the score difference, so the matching
pairs everyone it can, no one twice, and players of nearest scores. With an odd number of
players the bye goes first to the lowest-ranked player who has not had one; that player is left
out of the matching.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS, BYE = 3, 1, 0, 3


@dataclass(frozen=True)
class Result:
    """One pairing's outcome: ``b`` None is a bye; ``winner`` None is a draw."""

    round: int
    a: str
    b: str | None
    vp_a: int = 0
    vp_b: int = 0
    winner: str | None = None


@dataclass(frozen=True)
class Standing:
    player: str
    points: int
    vp: int
    sos: int
    played: int
    byes: int


class PairingError(ValueError):
    """No pairing exists that keeps the rules (e.g. everyone has already met)."""


def points_of(r: Result, player: str) -> int:
    if r.b is None:
        return BYE if player == r.a else 0
    if r.winner is None:
        return DRAW
    return WIN if r.winner == player else LOSS


def standings(players: Iterable[str], results: Iterable[Result]) -> list[Standing]:
    res = list(results)
    pts = {p: 0 for p in players}
    vp = dict.fromkeys(pts, 0)
    played = dict.fromkeys(pts, 0)
    byes = dict.fromkeys(pts, 0)
    opps: dict[str, list[str]] = {p: [] for p in pts}
    for r in res:
        pts[r.a] += points_of(r, r.a)
        if r.b is None:
            byes[r.a] += 1
            continue
        pts[r.b] += points_of(r, r.b)
        vp[r.a] += r.vp_a
        vp[r.b] += r.vp_b
        played[r.a] += 1
        played[r.b] += 1
        opps[r.a].append(r.b)
        opps[r.b].append(r.a)
    sos = {p: sum(pts[o] for o in opps[p]) for p in pts}
    rows = [Standing(p, pts[p], vp[p], sos[p], played[p], byes[p]) for p in pts]
    rows.sort(key=lambda s: (-s.points, -s.vp, -s.sos, s.player))
    return rows


def met(results: Iterable[Result]) -> set[frozenset[str]]:
    return {frozenset((r.a, r.b)) for r in results if r.b is not None}


def pair_round(players: Sequence[str], results: Sequence[Result], rnd: int
               ) -> list[tuple[str, str | None]]:
    """The next round's pairings: (a, b) pairs, a the higher-ranked; (p, None) is the bye."""
    import networkx as nx

    order = [s.player for s in standings(players, results)]
    rank = {p: i for i, p in enumerate(order)}
    pts = {s.player: s.points for s in standings(players, results)}
    had_bye = {r.a for r in results if r.b is None}
    pool = list(order)
    out: list[tuple[str, str | None]] = []
    if len(pool) % 2:
        lowest = [p for p in reversed(order) if p not in had_bye]
        if not lowest:
            raise PairingError(f"round {rnd}: every player has had a bye already")
        pool.remove(lowest[0])
        out.append((lowest[0], None))
    seen = met(results)
    g = nx.Graph()
    g.add_nodes_from(pool)
    top = (max(pts.values(), default=0) + 1) ** 2 * 4 + 1
    for i, a in enumerate(pool):
        for b in pool[i + 1:]:
            if frozenset((a, b)) in seen:
                continue
            diff = pts[a] - pts[b]
            # nearest scores first, then nearest ranks (a stable tie-break)
            g.add_edge(a, b, weight=(top - diff * diff) * 1000 - abs(rank[a] - rank[b]))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if len(matching) * 2 != len(pool):
        raise PairingError(f"round {rnd}: no pairing without a rematch exists for "
                           f"{len(pool)} players")
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    pairs.sort(key=lambda ab: rank[ab[0]])
    return pairs + out
