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


@dataclass(frozen=True)
class NotationWarning:
    """Something a game kind accepts but flags (``FILE:LINE: warning``), e.g. AA-M10's build
    total under 300 with Aces when the log does not ask for strict checking."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class GameLog:
    """A parsed log file: ``kind`` (from ``Game:``), header lines and action lines."""

    name: str
    kind: str
    header: list[HeaderLine] = field(default_factory=list)
    body: list[BodyLine] = field(default_factory=list)
    kind_line: int = 1
    warnings: list[NotationWarning] = field(default_factory=list)

    def warn(self, line: int, message: str) -> None:
        """Record a warning for ``dialtray replay`` to print; the replay goes on."""
        self.warnings.append(NotationWarning(self.name, line, message))

    def values(self, key: str) -> list[HeaderLine]:
        k = key.lower()
        return [h for h in self.header if h.key.lower() == k]

    def one(self, key: str, default: str | None = None) -> str | None:
        found = self.values(key)
        if len(found) > 1:
            raise NotationError(self.name, found[1].line, f"{key}: given more than once")
        return found[0].value if found else default

    def line_of(self, key: str) -> int:
        """The line of header ``key`` (the ``Game:`` line if it is absent)."""
        found = self.values(key)
        return found[0].line if found else self.kind_line

    def integer(self, key: str, default: int, minimum: int = 0, maximum: int | None = None) -> int:
        """Header ``key`` as a whole number written in ASCII digits, within the bounds;
        anything else ('soon', '²', '-5', '1e3') is a ``NotationError`` naming the line."""
        text = self.one(key)
        if text is None:
            return default
        if not (text.isascii() and text.isdigit()):
            raise self.error(self.line_of(key), f"{key}: {text!r} is not a whole number")
        value = int(text)
        if value < minimum or (maximum is not None and value > maximum):
            bounds = f"{minimum}..{maximum}" if maximum is not None else f">= {minimum}"
            raise self.error(self.line_of(key), f"{key}: {value} is out of range ({bounds})")
        return value

    def choice(self, key: str, options: Sequence[str], default: str) -> str:
        """Header ``key`` (case-insensitive) as one of ``options``; else a ``NotationError``."""
        text = (self.one(key) or default).lower()
        if text not in options:
            listed = " | ".join(options)
            raise self.error(self.line_of(key), f"{key}: {text!r} is not one of {listed}")
        return text

    def check_keys(self, known: Iterable[str]) -> None:
        """Refuse header keys the game kind does not read: a misspelt ``Turn-limt:`` must not be
        silently ignored."""
        names = {k.lower(): k for k in known}
        for h in self.header:
            if h.key.lower() not in names:
                listed = ", ".join(sorted(names.values()))
                raise self.error(h.line, f"unknown header key {h.key!r} (known: {listed})")

    def error(self, line: int, message: str) -> NotationError:
        return NotationError(self.name, line, message)


def _strip_comment(raw: str) -> str:
    i = raw.find("#")
    return (raw if i < 0 else raw[:i]).strip()


_FACES = frozenset("123456")


def parse_faces(text: str, name: str, line: int) -> tuple[int, ...]:
    faces: list[int] = []
    for tok in text.split():
        if tok not in _FACES:
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


def decode_log(data: bytes, name: str = "<log>") -> str:
    """The text of a log file; bytes that are not UTF-8 are a ``NotationError`` naming their line
    (a UTF-8 byte-order mark at the start is allowed and dropped)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.end].hex(" ")
        raise NotationError(name, line, f"not UTF-8 text (byte(s) {bad})") from None


def read_log(path: str | Path) -> GameLog:
    """Read and parse a log file; ``OSError`` if it cannot be read, else ``NotationError``."""
    p = Path(path)
    return parse_log(decode_log(p.read_bytes(), str(p)), str(p))


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
