"""The game-log text format shared by every rule set (see docs/notation.md).

A log is a header, a ``---`` line, then one action per line::

    # comments start with '#', anywhere
    Game: airaction
    Player: P1 Alice
    ...
    ---
    initiative | 5 3 2 2
    throttle A1 +1
    #   A1 speed 5 -> 6        (the writer puts each action's events here as comments)

``Game:`` names the game kind (the registry in ``registry.py`` maps it to a rule set). The other
header keys belong to the rule set. After ``|`` come the faces of every die the action rolled, in
the order the engine asked for them; replay feeds exactly those faces back (``ManualDice``) and
complains if any are missing or left over. The core knows nothing about a rule set's actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dialtray.rules.core.errors import NotationError

HEADER_END = "---"


@dataclass(frozen=True)
class HeaderLine:
    key: str
    value: str
    line: int


@dataclass(frozen=True)
class BodyLine:
    text: str
    faces: tuple[int, ...] | None
    line: int


@dataclass
class GameLog:
    """A parsed log file: ``kind`` (from ``Game:``), header lines and action lines."""

    name: str
    kind: str
    header: list[HeaderLine] = field(default_factory=list)
    body: list[BodyLine] = field(default_factory=list)
    kind_line: int = 1

    def values(self, key: str) -> list[HeaderLine]:
        k = key.lower()
        return [h for h in self.header if h.key.lower() == k]

    def one(self, key: str, default: str | None = None) -> str | None:
        found = self.values(key)
        if len(found) > 1:
            raise NotationError(self.name, found[1].line, f"{key}: given more than once")
        return found[0].value if found else default

    def error(self, line: int, message: str) -> NotationError:
        return NotationError(self.name, line, message)


def _strip_comment(raw: str) -> str:
    i = raw.find("#")
    return (raw if i < 0 else raw[:i]).strip()


def parse_faces(text: str, name: str, line: int) -> tuple[int, ...]:
    faces: list[int] = []
    for tok in text.split():
        if not tok.isdigit() or not 1 <= int(tok) <= 6:
            raise NotationError(name, line, f"{tok!r} is not a die face (1-6)")
        faces.append(int(tok))
    return tuple(faces)


def parse_log(text: str, name: str = "<log>") -> GameLog:
    """Split a log into header and body; checks only the shared syntax."""
    kind: str | None = None
    kind_line = 1
    header: list[HeaderLine] = []
    body: list[BodyLine] = []
    in_body = False
    for n, raw in enumerate(text.splitlines(), start=1):
        s = _strip_comment(raw)
        if not s:
            continue
        if not in_body:
            if s == HEADER_END:
                in_body = True
                continue
            key, sep, value = s.partition(":")
            if not sep or not key.strip() or " " in key.strip():
                raise NotationError(name, n, f"header line must be 'Key: value', got {s!r}")
            key, value = key.strip(), value.strip()
            if key.lower() == "game":
                if kind is not None:
                    raise NotationError(name, n, "Game: given more than once")
                kind, kind_line = value.lower(), n
            else:
                header.append(HeaderLine(key, value, n))
            continue
        action, bar, dice = s.partition("|")
        if not action.strip():
            raise NotationError(name, n, "a line must start with an action")
        faces = parse_faces(dice, name, n) if bar else None
        body.append(BodyLine(" ".join(action.split()), faces, n))
    if kind is None:
        raise NotationError(name, 1, "missing 'Game: KIND' header line")
    if not in_body:
        raise NotationError(name, len(text.splitlines()) or 1, f"missing {HEADER_END!r} line")
    return GameLog(name, kind, header, body=body, kind_line=kind_line)


def read_log(path: str | Path) -> GameLog:
    p = Path(path)
    return parse_log(p.read_text(encoding="utf-8"), str(p))


def format_action_line(text: str, faces: Sequence[int], reports: Iterable[str] = ()) -> str:
    """One body line (with ``| faces`` when dice were rolled) and its report comments."""
    line = f"{text} | {' '.join(map(str, faces))}" if faces else text
    out = [line]
    out.extend(f"#   {r}" for r in reports)
    return "\n".join(out)


def format_log(
    kind: str,
    header: Iterable[tuple[str, str]],
    lines: Iterable[str],
    comment: str | None = None,
) -> str:
    parts: list[str] = []
    if comment:
        parts.extend(f"# {c}" for c in comment.splitlines())
    parts.append(f"Game: {kind}")
    parts.extend(f"{k}: {v}" for k, v in header)
    parts.append(HEADER_END)
    parts.extend(lines)
    return "\n".join(parts) + "\n"
