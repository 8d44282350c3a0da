"""Swiss pairings and standings — pure functions, no database (issue 17 "The event").

Scoring (decision D-HUB-01 in docs/rules-decisions.md): a win 3 match points, a draw 1, a loss 0,
a bye 3. Standings order: match points, then total VP scored, then strength of schedule (the sum
of the match points of every opponent met), then the player's id (stable, never random).

Pairing a round is a maximum-weight matching (networkx) on the graph of players who have not met
plus, with an odd number, a bye node (issue 32: the bye is chosen with the pairs, so a round is
paired whenever a pairing exists); seats are balanced (see ``pair_round``). When no pairing is
left the organiser may allow rematches or pair the round by hand (``check_manual``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

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


BYE_NODE = "\x00bye"  # (a player id never holds NUL: the hub's schema refuses it)


def seat_balance(results: Iterable[Result]) -> dict[str, int]:
    """Times in seat A minus times in seat B, per player (``a`` of a result sat in seat A)."""
    d: dict[str, int] = {}
    for r in results:
        if r.b is None:
            continue
        d[r.a] = d.get(r.a, 0) + 1
        d[r.b] = d.get(r.b, 0) - 1
    return d


def pair_round(players: Sequence[str], results: Sequence[Result], rnd: int, *,
               allow_rematch: bool = False) -> list[tuple[str, str | None]]:
    """The next round's pairings: (seat A, seat B) pairs; (p, None) is the bye.

    One maximum-cardinality, maximum-weight matching (networkx) on the players who have not met
    and, with an odd number, a bye node joined to every player who has had no bye: so the bye
    is chosen with the pairs, and a pairing is found whenever one exists. Among the pairings
    that exist the weight prefers, in this order: no rematch (only with ``allow_rematch``, the
    organiser's choice when no other pairing is left), seats kept balanced (no one more than
    one seat A ahead of their seat B, or behind), nearest scores, the bye to the lowest-scored
    and lowest-ranked, nearest ranks. Seat A goes to the player who has sat in it less (equal:
    the higher-ranked)."""
    import networkx as nx

    rows = standings(players, results)
    order = [s.player for s in rows]
    rank = {p: i for i, p in enumerate(order)}
    pts = {s.player: s.points for s in rows}
    bal = seat_balance(results)
    had_bye = {r.a for r in results if r.b is None}
    seen = met(results)
    n = len(order)
    top = (max(pts.values(), default=0) + 1) ** 2 * 4 + 1
    score_w = top * (n + 1)  # one edge's score-and-rank part is below this
    seat_w = score_w * (n + 1)  # seats balanced outweighs every score preference together
    rematch_w = seat_w * 2 * (n + 1)  # a rematch outweighs everything else together
    low = min(pts.values(), default=0)
    g = _graph_class()()
    g.add_nodes_from(order)
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            rematch = frozenset((a, b)) in seen
            if rematch and not allow_rematch:
                continue
            da, db = bal.get(a, 0), bal.get(b, 0)
            seats_ok = not (da == db != 0)
            diff = pts[a] - pts[b]
            w = (seat_w if seats_ok else 0) + (top - diff * diff) * (n + 1) - abs(rank[a] - rank[b])
            g.add_edge(a, b, weight=w + (0 if rematch else rematch_w))
    if n % 2:
        for p in order:
            if p not in had_bye:
                d = pts[p] - low
                g.add_edge(BYE_NODE, p, weight=rematch_w + seat_w + (top - d * d) * (n + 1)
                           + rank[p])
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if len(matching) * 2 != n + n % 2:
        why = "no pairing without a rematch exists" if not allow_rematch else \
            "no pairing exists (every player has had the bye?)"
        raise PairingError(f"round {rnd}: {why} for {n} players; the organiser may allow a "
                           "rematch (`dialtray hub pair --allow-rematch`) or pair by hand "
                           "(`--manual`)")
    pairs, bye = _planned(g, matching, order, rank, bal, had_bye, seen, allow_rematch)
    pairs.sort(key=lambda ab: min(rank[ab[0]], rank[ab[1] or ab[0]]))
    return pairs + bye


Pairs = list[tuple[str, str | None]]


@cache
def _graph_class() -> Any:
    """An ``nx.Graph`` whose ``g[v]`` is the plain neighbour dict, not a read-only view.

    The blossom matching reads ``G[v][w]`` for an edge's weight millions of times in a season's
    pairings (4.4 million in the 3 000-event sweep); a view object made on every read was most
    of its time. Same graph, same matching: only the lookup is cheaper. Nothing here writes
    through the dict it returns."""
    import networkx as nx

    class _Graph(nx.Graph):  # type: ignore[misc]
        def __getitem__(self, n: Any) -> Any:
            return self._adj[n]

    return _Graph


def _split(matching: Iterable[tuple[str, str]]) -> tuple[list[tuple[str, str]], Pairs]:
    pairs: list[tuple[str, str]] = []
    bye: Pairs = []
    for x, y in matching:
        if BYE_NODE in (x, y):
            bye.append((y if x == BYE_NODE else x, None))
        else:
            pairs.append((x, y))
    return pairs, bye


def _planned(g: object, matching: set[tuple[str, str]], order: list[str], rank: dict[str, int],
             bal: dict[str, int], had_bye: set[str], seen: set[frozenset[str]],
             allow_rematch: bool) -> tuple[Pairs, Pairs]:
    """Seats planned one round ahead (issue 32: seats balanced within one). A pair whose
    balances differ has its seats forced (the one behind in seat A takes it); a pair level on
    seats may go either way, and that choice decides who must meet whom next round (a player
    one seat A ahead can only meet one who is not). The matching's own seats are kept when the
    next round can then still be paired with seats within one; else the level pairs' seats are
    tried every way, then the matchings without one of this matching's pairs (the next best by
    the same weights); failing all, the matching with its own seats (the round is paired
    anyway)."""
    import networkx as nx

    def seats(pairs: list[tuple[str, str]], flips: int) -> Pairs:
        out: Pairs = []
        free = 0
        for x, y in pairs:
            a, b = (x, y) if rank[x] < rank[y] else (y, x)
            if bal.get(b, 0) < bal.get(a, 0):
                a, b = b, a
            elif bal.get(a, 0) == bal.get(b, 0):
                if flips >> free & 1:
                    a, b = b, a
                free += 1
            out.append((a, b))
        return out

    def tries(m: set[tuple[str, str]]) -> Iterable[tuple[Pairs, Pairs]]:
        pairs, bye = _split(m)
        level = sum(1 for x, y in pairs if bal.get(x, 0) == bal.get(y, 0))
        for flips in range(1 << min(level, 8)):
            yield seats(pairs, flips), bye

    first = next(iter(tries(matching)))
    for planned in tries(matching):
        if _next_round_ok(order, planned, bal, had_bye, seen, allow_rematch):
            return planned
    size = len(matching)
    graph: nx.Graph = g
    for x, y in sorted(matching, key=lambda e: sorted(e)):  # (deterministic)
        h = graph.copy()
        h.remove_edge(x, y)
        m = nx.max_weight_matching(h, maxcardinality=True)
        if len(m) != size or not _seats_kept(m, bal):
            continue
        for planned in tries(m):
            if _next_round_ok(order, planned, bal, had_bye, seen, allow_rematch):
                return planned
    return first


def _seats_kept(m: Iterable[tuple[str, str]], bal: dict[str, int]) -> bool:
    return all(not (bal.get(x, 0) == bal.get(y, 0) != 0) for x, y in _split(m)[0])


def _next_round_ok(order: list[str], planned: tuple[Pairs, Pairs], bal: dict[str, int],
                   had_bye: set[str], seen: set[frozenset[str]], allow_rematch: bool) -> bool:
    """Whether, after this round's ``planned`` pairs and bye, the next round can be paired
    (no rematch unless allowed, the bye to one without one) with every seat within one."""
    pairs, bye = planned
    b2 = dict(bal)
    met2 = set(seen)
    for a, b in pairs:
        assert b is not None
        b2[a] = b2.get(a, 0) + 1
        b2[b] = b2.get(b, 0) - 1
        met2.add(frozenset((a, b)))
    if any(abs(v) > 1 for v in b2.values()):
        return False
    may_bye = set(order) - had_bye - {a for a, _ in bye}
    adj = {p: [q for q in order if q != p and not (b2.get(p, 0) == b2.get(q, 0) != 0)
               and (allow_rematch or frozenset((p, q)) not in met2)] for p in order}
    memo: dict[tuple[frozenset[str], bool], bool] = {}

    def go(free: frozenset[str], bye_left: bool) -> bool:
        if not free:
            return True
        key = (free, bye_left)
        if key not in memo:
            p = min(free, key=lambda x: (len(adj[x]), x))  # the most constrained first
            memo[key] = any(q in free and go(free - {p, q}, bye_left) for q in adj[p]) or (
                bye_left and p in may_bye and go(free - {p}, False))
        return memo[key]

    return go(frozenset(order), len(order) % 2 == 1)


def check_manual(players: Sequence[str], pairs: Sequence[tuple[str, str | None]]
                 ) -> list[tuple[str, str | None]]:
    """The organiser's own pairing: every player exactly once, at most one bye."""
    seen: list[str] = [p for ab in pairs for p in ab if p is not None]
    unknown = sorted(set(seen) - set(players))
    if unknown:
        raise PairingError(f"manual pairing: no player {', '.join(unknown)}")
    twice = sorted({p for p in seen if seen.count(p) > 1})
    if twice:
        raise PairingError(f"manual pairing: {', '.join(twice)} paired twice")
    missing = sorted(set(players) - set(seen))
    if missing:
        raise PairingError(f"manual pairing: {', '.join(missing)} not paired (A:bye for a bye)")
    if sum(1 for _a, b in pairs if b is None) > 1:
        raise PairingError("manual pairing: at most one bye")
    return list(pairs)
