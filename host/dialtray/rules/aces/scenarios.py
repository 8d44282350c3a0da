"""Setting up a game: "Recruitment", "Hit the Deck!" and scenarios as data (AC-M01..M10).

- AC-M01 build total: a team's points may equal but never exceed it.
- AC-M03 only one of any particular Ace per team (tokens may repeat).
- AC-M04 first player: everyone rolls 2d6; the highest total goes first; ties reroll (only the
  tied players reroll, AC-A13's convention).
- AC-M05 the first player chooses the map; AC-M06 the next player to the left chooses a starting
  area; AC-A14 the first player takes the one left, further players the next free ones.
- AC-M08 every Ace starts on its green triangle (``Figure.starting_click``); tokens always do.
- AC-M09 placement: the first player places the whole team, then the next player to the left...
- AC-M10 scenarios (``data/aces/scenarios/*.json``, schema ``scenario.schema.json``) fix the
  characters, the map, the placement and the victory conditions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.catalogue import AcesCatalogue, builtin
from dialtray.rules.aces.figures import DATA_DIR, Figure, default_catalogue
from dialtray.rules.aces.game import H_DECK, H_RECRUIT, AcesGame
from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.maps import AcesMap, StartingArea, Terrain, load_map
from dialtray.rules.aces.talents import Talents
from dialtray.rules.core.catalogue import load_document, load_schema
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event

SCENARIOS_DIR = DATA_DIR / "scenarios"
SCENARIO_SCHEMA = DATA_DIR / "schemas" / "scenario.schema.json"


@dataclass
class TeamSpec:
    """One player's recruits: ``figures`` holds figure ids, optionally ``label=figure-id``."""

    name: str
    figures: Sequence[str]
    area: int | None = None
    placement: Mapping[str, str] | str = "auto"  # label -> square name, or "auto"


@dataclass
class Scenario:
    id: str
    name: str
    map: str
    teams: list[TeamSpec]
    build_total: int = 100
    first_player: int | None = None  # 0-based; None = roll (AC-M04)
    turn_limit: int = 0
    captives_count_on_map: bool = False
    sample: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def validate_team(figures: Sequence[Figure], build_total: int, who: str = "team") -> int:
    """AC-M01 and AC-M03; returns the team's points."""
    total = sum(f.points for f in figures)
    if total > build_total:
        raise IllegalActionError(
            f"recruit {who}",
            f"{total} points exceed the build total of {build_total}",
            "AC-M01",
            H_RECRUIT,
        )
    seen: set[str] = set()
    for f in figures:
        if f.is_ace and f.id in seen:
            raise IllegalActionError(
                f"recruit {who}",
                f"{f.name} twice: only one of any particular Ace per team",
                "AC-M03",
                H_RECRUIT,
            )
        seen.add(f.id)
    return total


def roll_first_player(dice: DiceSource, players: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """AC-M04: 2d6 each, highest goes first, the tied highest reroll. Returns (player, rounds);
    each round lists every player's total, 0 for those not rolling."""
    rolling = list(range(players))
    rounds: list[tuple[int, ...]] = []
    while True:
        totals = [0] * players
        for p in rolling:
            totals[p] = sum(dice.roll(2, f"P{p + 1}: roll 2d6 for first player"))
        rounds.append(tuple(totals))
        best = max(totals[p] for p in rolling)
        rolling = [p for p in rolling if totals[p] == best]
        if len(rolling) == 1:
            return rolling[0], tuple(rounds)


def placement_order(first: int, players: int) -> list[int]:
    """AC-M09: the first player, then each next player to the left."""
    return [(first + k) % players for k in range(players)]


def assign_areas(
    first: int, players: int, choices: Mapping[int, int], areas: Sequence[int]
) -> dict[int, int]:
    """AC-M06 / AC-A14: the player left of the first chooses; the first takes what is left."""
    out: dict[int, int] = {}
    order = placement_order(first, players)
    chooser_order = order[1:] + order[:1]
    free = list(areas)
    for p in chooser_order:  # stated choices first, in the order the players choose
        want = choices.get(p)
        if want is None:
            continue
        if want not in free:
            raise IllegalActionError(
                f"P{p + 1} chooses starting area {want}",
                f"area {want} is not free (free: {free})",
                "AC-M06",
                H_DECK,
            )
        free.remove(want)
        out[p] = want
    for p in chooser_order:  # the others take what is left (AC-A14)
        if p in out:
            continue
        if not free:
            raise IllegalActionError(
                f"P{p + 1} starting area", "no starting area left", "AC-M06", H_DECK
            )
        out[p] = free.pop(0)
    return out


def labels_for(teams: Sequence[TeamSpec]) -> list[list[tuple[str, str]]]:
    """(label, figure id) per team; default labels drop ``sample-`` and number repeats."""
    used: set[str] = set()
    out: list[list[tuple[str, str]]] = []
    for team in teams:
        rows: list[tuple[str, str]] = []
        for spec in team.figures:
            label, eq, fid = spec.partition("=")
            if not eq:
                fid, label = spec, spec.removeprefix("sample-")
            base, k = label, 2
            while label in used:
                label = f"{base}-{k}"
                k += 1
            used.add(label)
            rows.append((label, fid))
        out.append(rows)
    return out


def auto_squares(m: AcesMap, area: StartingArea, count: int, taken: set[int]) -> list[Square]:
    """Free, non-blocking squares of a starting area, nearest the map's middle row first."""
    mid = (m.height - 1) / 2
    cands = [
        s
        for s in area.squares()
        if m.terrain_at(s) is not Terrain.BLOCKING and m.index(s) not in taken
    ]
    cands.sort(key=lambda s: (abs(s.y - mid), abs(s.x - (m.width - 1) / 2), s.x))
    if len(cands) < count:
        raise IllegalActionError(
            "place team",
            f"starting area {area.number} has room for {len(cands)}, not {count}",
            "AC-M09",
            H_DECK,
        )
    return cands[:count]


def setup_events(
    m: AcesMap,
    teams: Sequence[TeamSpec],
    dice: DiceSource,
    catalogue: Mapping[str, Figure] | None = None,
    build_total: int = 100,
    first_player: int | None = None,
    turn_limit: int = 0,
    captives_count_on_map: bool = False,
) -> list[Event]:
    """Validate the recruits and placement and return the setup events of a new game."""
    cat = catalogue or default_catalogue()
    n = len(teams)
    if n < 2:
        raise IllegalActionError("set up", "at least two players", "AC-M14", H_DECK)
    labelled = labels_for(teams)
    for team, rows in zip(teams, labelled, strict=True):
        for _label, fid in rows:
            if fid not in cat:
                raise IllegalActionError(
                    f"recruit {team.name}",
                    f"no figure {fid!r} in the catalogue",
                    "AC-M02",
                    H_RECRUIT,
                )
        validate_team([cat[fid] for _, fid in rows], build_total, team.name)
    out: list[Event] = [
        ev.GameCreated(
            m.name, tuple(t.name for t in teams), build_total, turn_limit, captives_count_on_map
        )
    ]
    if first_player is None:
        first, rounds = roll_first_player(dice, n)
    else:
        first, rounds = first_player, ()
    out.append(ev.FirstPlayerRolled(rounds, first))
    area_numbers = [a.number for a in m.starting_areas]
    choices = {p: t.area for p, t in enumerate(teams) if t.area is not None}
    areas = assign_areas(first, n, choices, area_numbers)
    for p in range(n):
        out.append(ev.StartingAreaChosen(p, areas[p]))
    for p, rows in enumerate(labelled):
        for label, fid in rows:
            out.append(ev.Recruited(label, fid, p))
    taken: set[int] = set()
    by_number = {a.number: a for a in m.starting_areas}
    for p in placement_order(first, n):
        area = by_number[areas[p]]
        rows = labelled[p]
        spec = teams[p].placement
        if isinstance(spec, str):
            squares = auto_squares(m, area, len(rows), taken)
            plan = {label: sq for (label, _), sq in zip(rows, squares, strict=True)}
        else:
            plan = {}
            for label, _ in rows:
                if label not in spec:
                    raise IllegalActionError(f"place {label}", "no square given", "AC-M09", H_DECK)
                plan[label] = Square.parse(spec[label])
            extra = set(spec) - {label for label, _ in rows}
            if extra:
                raise IllegalActionError(
                    f"place {sorted(extra)}", "not on this team", "AC-M09", H_DECK
                )
        for label, sq in plan.items():
            i = m.index(sq) if m.on_map(sq) else -1
            if sq not in area:
                raise IllegalActionError(
                    f"place {label} {sq.name()}",
                    f"outside P{p + 1}'s starting area {area.number}",
                    "AC-M09",
                    H_DECK,
                )
            if m.terrain[i] is Terrain.BLOCKING or i in taken:
                raise IllegalActionError(
                    f"place {label} {sq.name()}", "square blocked or taken", "AC-M09", H_DECK
                )
            taken.add(i)
            out.append(ev.Placed(label, sq.name()))
    out.append(ev.TurnPassed(first))
    return out


def new_game(
    m: AcesMap,
    teams: Sequence[TeamSpec],
    dice: DiceSource,
    catalogue: Mapping[str, Figure] | None = None,
    talents: Talents | None = None,
    **options: Any,
) -> AcesGame:
    cat = catalogue or default_catalogue()
    events = setup_events(m, teams, dice, cat, **options)
    return AcesGame(m, events, dice, cat, talents)


def parse_scenario(doc: Mapping[str, Any]) -> Scenario:
    fp = doc.get("first_player", "roll")
    v = doc.get("victory", {})
    return Scenario(
        id=doc["id"],
        name=doc["name"],
        map=doc["map"],
        teams=[
            TeamSpec(t["name"], list(t["figures"]), t.get("area"), t.get("placement", "auto"))
            for t in doc["players"]
        ],
        build_total=doc.get("build_total", 100),
        first_player=None if fp == "roll" else int(fp) - 1,
        turn_limit=v.get("turn_limit", 0),
        captives_count_on_map=v.get("captives_count_on_map", False),
        sample=doc["sample"],
    )


def load_scenario(name_or_path: str | Path, data: AcesCatalogue | None = None) -> Scenario:
    """A scenario by id (``kim-vs-tim``: a custom catalogue's first, then the shipped ones) or a
    path; schema errors name file and field."""
    p = Path(name_or_path)
    if not p.suffix:
        found = (data or builtin()).scenarios.get(str(name_or_path))
        p = found if found is not None else SCENARIOS_DIR / f"{name_or_path}.json"
    st = p.stat()
    return parse_scenario(_scenario_document(str(p.resolve()), st.st_mtime_ns, st.st_size, str(p)))


@lru_cache(maxsize=32)
def _scenario_document(path: str, mtime_ns: int, size: int, shown: str) -> Mapping[str, Any]:
    """A scenario file, schema-checked once while it is unchanged (read-only: parse_scenario
    copies what it keeps)."""
    return load_document(Path(shown), load_schema(SCENARIO_SCHEMA))


def shipped_scenarios() -> list[str]:
    return sorted(p.stem for p in SCENARIOS_DIR.glob("*.json"))


def start_scenario(
    sc: Scenario,
    dice: DiceSource,
    catalogue: Mapping[str, Figure] | None = None,
    first_player: int | None = None,
    turn_limit: int | None = None,
    data: AcesCatalogue | None = None,
) -> AcesGame:
    """A game of scenario ``sc``; ``data`` (a custom catalogue laid over the shipped one) gives
    the map, the figures and the talents map."""
    if data is None:
        m = load_map(sc.map)
    else:
        m = data.load_map(sc.map)
        catalogue = catalogue or data.figures
    return new_game(
        m,
        sc.teams,
        dice,
        catalogue,
        data.talents if data is not None else None,
        build_total=sc.build_total,
        first_player=sc.first_player if first_player is None else first_player,
        turn_limit=sc.turn_limit if turn_limit is None else turn_limit,
        captives_count_on_map=sc.captives_count_on_map,
    )
