"""Mid-game positions in Aces logs (docs/notation.md, "Position header").

A position is the start of a player's turn (AC-M14): every character's square and dial click,
who holds whom captive, who is knocked out, the VP scored so far, who withdrew and which
characters each player gave an action in its last turn (AC-M15 forbids them two turns in a
row). Header lines (after ``Scenario:``/``First:``)::

    Position: turn 7 player P2
    Position: char charlie square c5 click 2
    Position: char genghis square c6 click 0 captive-of charlie
    Position: char louis ko
    Position: char vigilante off
    Position: player P1 vp 11 acted charlie
    Position: player P2 withdrawn acted -

``turn`` counts the turns begun so far (the one starting now included). Clicks are dial
positions counted from 0 (``core.dials``). An unlisted character keeps its scenario set-up.
"""

from __future__ import annotations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.base import AcesBase
from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.maps import Terrain
from dialtray.rules.aces.victory import seat_of
from dialtray.rules.core.notation import GameLog
from dialtray.rules.core.position import format_fields, number, read_fields

KEY = "Position"


def position_of(game: AcesBase) -> ev.PositionSet:
    """The current position; only at the start of a turn (no action taken yet)."""
    s = game.state
    t = s.turn
    if s.over or t is None or t.acted or t.label is not None or t.phase != "choose":
        raise ValueError("an Aces position is the start of a turn, before its first action")
    chars = tuple(
        ev.CharPosition(
            c.label,
            None if c.square is None else game.map.square(c.square).name(),
            c.click,
            c.captor,
            c.knocked_out,
        )
        for c in s.chars.values()
    )
    return ev.PositionSet(
        s.turn_number,
        t.player,
        chars,
        tuple(s.vp),
        tuple(sorted(s.withdrawn)),
        tuple(sorted(s.last_acted.items())),
    )


def format_position(game: AcesBase, pos: ev.PositionSet) -> list[tuple[str, str]]:
    """``Position:`` header lines for ``pos``."""
    out = [(KEY, f"turn {pos.turn_number} player {seat_of(pos.player)}")]
    for cp in pos.chars:
        if cp.knocked_out:
            pairs: list[tuple[str, object]] = [("ko", True), ("click", cp.click)]
        elif cp.square is None:
            pairs = [("off", True), ("click", cp.click)]
        else:
            pairs = [("square", cp.square), ("click", cp.click), ("captive-of", cp.captor)]
        out.append((KEY, format_fields(("char", cp.label), pairs)))
    acted = dict(pos.last_acted)
    for p in range(len(game.state.players)):
        who = acted.get(p)
        pairs = [
            ("vp", pos.vp[p] if p < len(pos.vp) and pos.vp[p] else None),
            ("withdrawn", p in pos.withdrawn),
            ("acted", None if who is None else (",".join(who) or "-")),
        ]
        if any(v for _, v in pairs):
            out.append((KEY, format_fields(("player", seat_of(p)), pairs)))
    return out


def read_position(log: GameLog, game: AcesBase) -> ev.PositionSet | None:
    """The ``Position:`` lines of ``log`` as an event (None if there are none); a bad line is a
    ``NotationError`` naming it."""
    lines = log.values(KEY)
    if not lines:
        return None
    s = game.state
    seats = {seat_of(p): p for p in range(len(s.players))}
    turn: tuple[int, int] | None = None
    chars: dict[str, ev.CharPosition] = {}
    vp = list(s.vp)
    withdrawn: list[int] = []
    acted: dict[int, tuple[str, ...]] = {}
    for h in lines:
        toks = h.value.split()
        try:
            subject = toks[0].lower() if toks else ""
            if subject == "turn":
                if turn is not None:
                    raise ValueError("the turn is given twice")
                f = read_fields(["turn", *toks[1:]], {"turn", "player"})
                player = f.get("player", "")
                if player not in seats:
                    raise ValueError(f"player: {player!r} is not a seat ({', '.join(seats)})")
                turn = (number(f, "turn", 0, 1), seats[player])
            elif subject == "char" and len(toks) > 1:
                if toks[1] in chars:
                    raise ValueError(f"{toks[1]} is given twice")
                chars[toks[1]] = _char(game, toks[1], toks[2:])
            elif subject == "player" and len(toks) > 1:
                if toks[1] not in seats:
                    raise ValueError(f"{toks[1]!r} is not a seat ({', '.join(seats)})")
                p = seats[toks[1]]
                f = read_fields(toks[2:], {"vp", "acted"}, {"withdrawn"})
                vp[p] = number(f, "vp", 0)
                if "withdrawn" in f:
                    withdrawn.append(p)
                if "acted" in f:
                    acted[p] = _acted(game, p, f["acted"])
            else:
                raise ValueError("expected 'turn N player P', 'char LABEL ...' or 'player P ...'")
        except ValueError as exc:
            raise log.error(h.line, f"Position: {exc}") from None
    if turn is None:
        raise log.error(lines[0].line, "Position: needs a line 'turn N player P'")
    try:
        _check_places(game, chars)
    except ValueError as exc:
        raise log.error(lines[0].line, f"Position: {exc}") from None
    return ev.PositionSet(
        turn[0],
        turn[1],
        tuple(chars.values()),
        tuple(vp),
        tuple(sorted(withdrawn)),
        tuple(sorted(acted.items())),
    )


def _char(game: AcesBase, label: str, toks: list[str]) -> ev.CharPosition:
    c = game.state.chars.get(label)
    if c is None:
        raise ValueError(f"unknown character {label!r}")
    f = read_fields(toks, {"square", "click", "captive-of"}, {"ko", "off"})
    ko = "ko" in f
    square = f.get("square")
    if (square is not None) + ko + ("off" in f) != 1:
        raise ValueError(f"{label}: give exactly one of 'square SQ', 'ko' or 'off'")
    # a knocked-out dial may have been clicked past the KO click by the last hits (AC-M37)
    low, last = (c.figure.ko_click, 10**3) if ko else (0, c.figure.ko_click - 1)
    click = number(f, "click", c.figure.ko_click if ko else c.figure.starting_click, low, last)
    if square is not None:
        sq = Square.parse(square)
        if not game.map.on_map(sq):
            raise ValueError(f"{label}: {square} is off the map")
        if game.map.terrain[game.map.index(sq)] is Terrain.BLOCKING:
            raise ValueError(f"{label}: {square} is blocking terrain (AC-M63)")
        square = sq.name()
    return ev.CharPosition(label, square, click, f.get("captive-of"), ko)


def _acted(game: AcesBase, player: int, text: str) -> tuple[str, ...]:
    if text == "-":
        return ()
    labels = tuple(text.split(","))
    for lab in labels:
        c = game.state.chars.get(lab)
        if c is None or c.player != player:
            raise ValueError(f"acted: {lab!r} is not a character of {seat_of(player)}")
    return labels


def _check_places(game: AcesBase, chars: dict[str, ev.CharPosition]) -> None:
    """AC-M24 one character per square; AC-M41 a captive is an enemy adjacent to its captor."""
    s = game.state
    where: dict[str, str] = {}
    for c in s.chars.values():
        cp = chars.get(c.label)
        sq = (
            cp.square
            if cp is not None
            else (None if c.square is None else game.map.square(c.square).name())
        )
        if sq is None:
            continue
        if sq in where:
            raise ValueError(f"{c.label} and {where[sq]} are both on {sq} (AC-M24)")
        where[sq] = c.label
    for cp in chars.values():
        if cp.captor is None:
            continue
        captor = chars.get(cp.captor)
        if captor is None or captor.square is None or cp.square is None:
            raise ValueError(f"{cp.label}: its captor {cp.captor} must be listed on the map")
        if s.chars[cp.captor].player == s.chars[cp.label].player:
            raise ValueError(f"{cp.label}: {cp.captor} is on the same side")
        a = game.map.index(Square.parse(captor.square))
        b = game.map.index(Square.parse(cp.square))
        if b not in game.map.neighbours[a]:
            raise ValueError(f"{cp.label} must be adjacent to its captor {cp.captor} (AC-M41)")


def setup_position_lines(game: AcesBase) -> list[tuple[str, str]]:
    """The ``Position:`` lines a log of ``game`` needs (none unless it began from a position):
    a writer adds them to its header (``core.position.insert_header``)."""
    out: list[tuple[str, str]] = []
    for e in game.setup_events:
        if isinstance(e, ev.PositionSet):
            out += format_position(game, e)
    return out
