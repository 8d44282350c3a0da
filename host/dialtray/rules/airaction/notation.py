"""Air Action game logs: header keys and the writer (grammar in docs/notation.md).

Header (after ``Game: airaction``)::

    Player: P1 Alice              # seating order = clockwise order; name optional
    Plane: P1 A1 sample-loyle-crawford rookie sample-ace-loyle-crawford
    BuildTotal: 300               # default 200 (AA-M08); with Aces < 300 warns (AA-M10)
    StrictBuildTotal: no          # yes: AA-M10's "at least 300" with Aces is an error
    CollisionXP: 0                # XP per serious collision survived (AA-M75, value missing)
    Campaign: no                  # yes|no (AA-M71..M80)
    Obstacles: no                 # yes|no (AA-M50)
    RemovalVP: split              # split|each (AA-A08)
    Catalogue: path/to/data/dir   # optional: files that add to / override the shipped data
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import AAAction
from dialtray.rules.airaction.catalogue import builtin
from dialtray.rules.airaction.game import AirActionGame
from dialtray.rules.airaction.position import setup_position_lines
from dialtray.rules.airaction.rulebook import build_total_warnings
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import CatalogueError, IllegalActionError
from dialtray.rules.core.events import Entry
from dialtray.rules.core.notation import GameLog, format_action_line, format_log

KIND = "airaction"
TITLE = "Crimson Skies: Air Action"


HEADER_KEYS = (
    "Player",
    "Plane",
    "BuildTotal",
    "StrictBuildTotal",
    "Campaign",
    "CollisionXP",
    "Obstacles",
    "RemovalVP",
    "Catalogue",
)


def _yes(log: GameLog, key: str) -> bool:
    return log.choice(key, ("yes", "no"), "no") == "yes"


def game_from_log(log: GameLog, dice: DiceSource) -> AirActionGame:
    log.check_keys(HEADER_KEYS)
    cat_dir = log.one("Catalogue")
    try:
        cat = builtin().overlay(Path(log.name).parent / cat_dir) if cat_dir else builtin()
    except (CatalogueError, OSError) as exc:
        raise log.error(log.line_of("Catalogue"), f"Catalogue: {exc}") from None
    players: list[str] = []
    names: dict[str, str] = {}
    for h in log.values("Player"):
        pid, _, name = h.value.partition(" ")
        if not pid or pid in players:
            raise log.error(h.line, f"Player: bad or repeated id {pid!r}")
        players.append(pid)
        names[pid] = name.strip() or pid
    planes: list[ev.PlaneSpec] = []
    for h in log.values("Plane"):
        toks = h.value.split()
        if len(toks) not in (3, 4, 5):
            raise log.error(h.line, "Plane: PLAYER ID FIGURE [LEVEL] [ACE]")
        owner, pid, fig = toks[0], toks[1], toks[2]
        level = toks[3] if len(toks) > 3 else "rookie"
        ace = toks[4] if len(toks) > 4 else None
        if owner not in players:
            raise log.error(h.line, f"Plane: unknown player {owner!r} (declare Player: first)")
        planes.append(ev.PlaneSpec(pid, owner, fig, level, ace))
    bt = log.integer("BuildTotal", 200)
    setup = ev.GameSetup(
        tuple(players),
        tuple(names[p] for p in players),
        bt,
        _yes(log, "Campaign"),
        _yes(log, "Obstacles"),
        log.choice("RemovalVP", ("split", "each"), "split"),
        tuple(planes),
        _yes(log, "StrictBuildTotal"),
        log.integer("CollisionXP", 0, maximum=1000),
    )
    for warning in build_total_warnings(setup):
        log.warn(log.line_of("BuildTotal"), warning)
    try:
        return AirActionGame(setup, dice, cat)
    except IllegalActionError as exc:
        first = log.values("Plane") or log.values("Player")
        raise log.error(first[0].line if first else log.kind_line, str(exc)) from None


def header_of(setup: ev.GameSetup) -> list[tuple[str, str]]:
    out = [
        ("Player", f"{p} {n}" if n != p else p)
        for p, n in zip(setup.players, setup.names, strict=True)
    ]
    for s in setup.planes:
        out.append(("Plane", " ".join(x for x in (s.owner, s.id, s.figure, s.level, s.ace) if x)))
    out.append(("BuildTotal", str(setup.build_total)))
    if setup.strict_build_total:
        out.append(("StrictBuildTotal", "yes"))
    out += [
        ("Campaign", "yes" if setup.campaign else "no"),
        ("CollisionXP", str(setup.collision_survival_xp)),
        ("Obstacles", "yes" if setup.obstacles else "no"),
        ("RemovalVP", setup.removal_vp),
    ]
    return out


def entry_faces(entry: Entry[AAAction]) -> list[int]:
    """Every die face an action consumed, in the order the engine rolled them."""
    faces: list[int] = []
    for e in entry.events:
        if isinstance(e, ev.Rolled | ev.ShotRolled):
            faces.extend(e.faces)
    return faces


def write_log(
    game: AirActionGame,
    comment: str | None = None,
    reports: bool = True,
    catalogue: str | None = None,
) -> str:
    """The game so far as a log that ``dialtray replay`` re-runs exactly. ``catalogue``: the
    custom data directory the game's figures come from, as the log should name it (relative to
    where the log will be), written as its ``Catalogue:`` line."""
    setup = game.setup_events[0]
    assert isinstance(setup, ev.GameSetup)
    lines: list[str] = []
    for entry in game.history:
        texts: Iterable[str] = (
            [e.text() for e in entry.events if not isinstance(e, ev.Rolled)] if reports else []
        )
        lines.append(format_action_line(entry.action.text(), entry_faces(entry), texts))
    header = header_of(setup) + setup_position_lines(game)  # a game begun from a position
    if catalogue is not None:
        header.insert(0, ("Catalogue", catalogue))
    return format_log(KIND, header, lines, comment)


class AirActionKind:
    """The ``airaction`` game kind for ``dialtray replay`` (see rules/core/registry.py)."""

    name = KIND
    title = TITLE

    def new_game(self, log: GameLog, dice: DiceSource) -> AirActionGame:
        return game_from_log(log, dice)
