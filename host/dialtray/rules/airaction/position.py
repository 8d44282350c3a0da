"""Mid-game positions in Air Action logs (docs/notation.md, "Position header").

A position is the start of a game turn (before its initiative roll, AA-M16): every plane's dials,
who flies it, whether it is still in play, the VP, planes shot down, campaign XP and dead pilots,
and who is disengaging. Header lines (after the ``Player:``/``Plane:`` setup)::

    Position: turn 3 first P1
    Position: plane A1 combat 2 speed 5 ace 1
    Position: plane B2 combat 4 speed 3 removed shot down
    Position: plane A2 combat 1 speed 4 owner P2 pilot A1 ace-figure sample-ace-x random-card
    Position: player P1 vp 12 shot-down 1 disengaging
    Position: pilot A1 xp 5 dead

Clicks are dial positions counted from 0 (the tray's numbering, ``core.dials``); an unlisted
plane keeps its setup dials (speed not set). ``position_of(game)`` writes the current position,
``read_position(log, game)`` reads one into a ``PositionSet`` event.
"""

from __future__ import annotations

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase
from dialtray.rules.core.notation import GameLog
from dialtray.rules.core.position import format_fields, number, read_fields

KEY = "Position"


def position_of(game: GameBase) -> ev.PositionSet:
    """The current position; only at the start of a game turn (phase ``initiative``)."""
    s = game.state
    if s.ended or s.phase != "initiative" or s.first_player is None:
        raise ValueError(
            f"an Air Action position is the start of a game turn (phase initiative), "
            f"not phase {s.phase}"
        )
    planes = tuple(
        ev.PlanePosition(
            pid,
            ps.combat_click,
            ps.speed_index,
            ps.ace_click,
            ps.owner,
            ps.ace,
            ps.pilot,
            ps.random_card_next,
            None if ps.in_play else (ps.removed or "removed"),
        )
        for pid, ps in s.planes.items()
    )
    return ev.PositionSet(
        s.turn,
        s.first_player,
        planes,
        tuple((p, v) for p, v in s.vp.items() if v),
        tuple((p, v) for p, v in s.shot_down.items() if v),
        tuple((p, v) for p, v in s.xp.items() if v),
        tuple(sorted(s.dead)),
        tuple(p for p in s.players if p in s.disengaging),
    )


def format_position(game: GameBase, pos: ev.PositionSet) -> list[tuple[str, str]]:
    """``Position:`` header lines for ``pos`` (defaults from the setup are left out)."""
    specs = game.state.specs
    out = [(KEY, f"turn {pos.turn} first {pos.first_player}")]
    for pp in pos.planes:
        spec = specs[pp.plane]
        default_ace_click = game.cat.aces[pp.ace].start_click if pp.ace else 0
        pairs: list[tuple[str, object]] = [
            ("combat", pp.combat_click),
            ("speed", pp.speed_index),
            ("ace", pp.ace_click if pp.ace or pp.ace_click != default_ace_click else None),
            ("owner", pp.owner if pp.owner != spec.owner else None),
            ("pilot", pp.pilot if pp.pilot != pp.plane else None),
            ("ace-figure", (pp.ace or "none") if pp.ace != spec.ace else None),
            ("random-card", pp.random_card_next),
            ("removed", pp.removed),
        ]
        out.append((KEY, format_fields(("plane", pp.plane), pairs)))
    vp, down = dict(pos.vp), dict(pos.shot_down)
    for p in game.state.players:
        pairs = [
            ("vp", vp.get(p)),
            ("shot-down", down.get(p)),
            ("disengaging", p in pos.disengaging),
        ]
        if any(v for _, v in pairs):
            out.append((KEY, format_fields(("player", p), pairs)))
    xp = dict(pos.xp)
    for pilot in sorted(set(xp) | set(pos.dead)):
        out.append(
            (
                KEY,
                format_fields(
                    ("pilot", pilot), [("xp", xp.get(pilot)), ("dead", pilot in pos.dead)]
                ),
            )
        )
    return out


def read_position(log: GameLog, game: GameBase) -> ev.PositionSet | None:
    """The ``Position:`` lines of ``log`` as an event (None if there are none); a bad line is a
    ``NotationError`` naming it."""
    lines = log.values(KEY)
    if not lines:
        return None
    s = game.state
    turn: int | None = None
    first: str | None = None
    planes: dict[str, ev.PlanePosition] = {}
    vp: dict[str, int] = {}
    down: dict[str, int] = {}
    xp: dict[str, int] = {}
    dead: list[str] = []
    disengaging: list[str] = []
    for h in lines:
        toks = h.value.split()
        try:
            subject = toks[0].lower() if toks else ""
            if subject == "turn":
                if turn is not None:
                    raise ValueError("the turn is given twice")
                f = read_fields(["turn", *toks[1:]], {"turn", "first"})
                turn = number(f, "turn", 0, 1)
                first = f.get("first")
                if first not in s.players:
                    raise ValueError(f"first: {first!r} is not a player ({', '.join(s.players)})")
            elif subject == "plane" and len(toks) > 1:
                planes[toks[1]] = _plane(game, toks[1], toks[2:], planes)
            elif subject == "player" and len(toks) > 1:
                p = toks[1]
                if p not in s.players:
                    raise ValueError(f"unknown player {p!r}")
                f = read_fields(toks[2:], {"vp", "shot-down"}, {"disengaging"})
                vp[p], down[p] = number(f, "vp", 0), number(f, "shot-down", 0)
                if "disengaging" in f:
                    disengaging.append(p)
            elif subject == "pilot" and len(toks) > 1:
                if toks[1] not in s.planes:
                    raise ValueError(f"unknown pilot {toks[1]!r} (pilots are named by plane id)")
                f = read_fields(toks[2:], {"xp"}, {"dead"})
                xp[toks[1]] = number(f, "xp", 0)
                if "dead" in f:
                    dead.append(toks[1])
            else:
                raise ValueError(
                    "expected 'turn N first P', 'plane ID ...', 'player P ...' or 'pilot ID ...'"
                )
        except ValueError as exc:
            raise log.error(h.line, f"Position: {exc}") from None
    if turn is None or first is None:
        raise log.error(lines[0].line, "Position: needs a line 'turn N first PLAYER'")
    return ev.PositionSet(
        turn,
        first,
        tuple(planes.values()),
        tuple((p, v) for p, v in vp.items() if v),
        tuple((p, v) for p, v in down.items() if v),
        tuple((p, v) for p, v in xp.items() if v),
        tuple(sorted(dead)),
        tuple(p for p in s.players if p in disengaging),
    )


def _plane(
    game: GameBase, pid: str, toks: list[str], seen: dict[str, ev.PlanePosition]
) -> ev.PlanePosition:
    s = game.state
    if pid not in s.planes:
        raise ValueError(f"unknown plane {pid!r}")
    if pid in seen:
        raise ValueError(f"plane {pid} is given twice")
    f = read_fields(
        toks,
        {"combat", "speed", "ace", "owner", "pilot", "ace-figure"},
        {"random-card"},
        {"removed"},
    )
    spec = s.specs[pid]
    fig = game.cat.figures[spec.figure]
    ace = f.get("ace-figure", spec.ace)
    if ace == "none":
        ace = None
    if ace is not None and ace not in game.cat.aces:
        raise ValueError(f"unknown Ace figure {ace!r}")
    owner = f.get("owner", spec.owner)
    if owner not in s.players:
        raise ValueError(f"owner: unknown player {owner!r}")
    pilot = f.get("pilot", pid)
    if pilot not in s.planes:
        raise ValueError(f"pilot: {pilot!r} is not a plane id")
    ace_dial = len(game.cat.aces[ace].dial) if ace else 1
    start_ace = game.cat.aces[ace].start_click if ace else 0
    speed = f.get("speed")
    return ev.PlanePosition(
        pid,
        number(f, "combat", fig.levels[spec.level].start_click, 0, fig.last_click()),
        None if speed is None else number(f, "speed", 0, 0, len(fig.speed_dial) - 1),
        number(f, "ace", start_ace, 0, ace_dial - 1),
        owner,
        ace,
        pilot,
        "random-card" in f,
        f.get("removed"),
    )


def setup_position_lines(game: GameBase) -> list[tuple[str, str]]:
    """The ``Position:`` lines a log of ``game`` needs (none unless it began from a position):
    a writer adds them to its header (``core.position.insert_header``)."""
    out: list[tuple[str, str]] = []
    for e in game.setup_events:
        if isinstance(e, ev.PositionSet):
            out += format_position(game, e)
    return out
