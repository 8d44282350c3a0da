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
    sides: tuple[int, ...] | None = None  # the die of each face; None: every face is a d6


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
D6 = 6
MAX_SIDES = 100


def parse_faces(text: str, name: str, line: int) -> tuple[int, ...]:
    return parse_sided_faces(text, name, line)[0]


def parse_sided_faces(text: str, name: str, line: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The faces after ``|`` and the die each was rolled on. Plain faces are d6; a marker
    ``d10:`` makes the faces after it d10 faces until the next marker (``d10:7`` is one face,
    ``d6:`` goes back to d6): ``| 3 d10: 7 10 d6: 2`` is a d6, two d10s and a d6."""
    faces: list[int] = []
    sides: list[int] = []
    current = D6
    for tok in text.split():
        if tok.startswith("d") and ":" in tok:
            size, _, tok = tok[1:].partition(":")
            if not (size.isascii() and size.isdigit() and 2 <= int(size) <= MAX_SIDES):
                raise NotationError(name, line, f"'d{size}:' does not name a die (d2..d100)")
            current = int(size)
            if not tok:
                continue
        ok = tok in _FACES if current == D6 else (
            tok.isascii() and tok.isdigit() and 1 <= int(tok) <= current and tok[0] != "0")
        if not ok:
            raise NotationError(name, line, f"{tok!r} is not a die face (1-{current})")
        faces.append(int(tok))
        sides.append(current)
    return tuple(faces), tuple(sides)


def format_faces(faces: Sequence[int], sides: Sequence[int] | None = None) -> str:
    """``faces`` as written after ``|``: d6 faces plain, other dice after a ``dN:`` marker
    wherever the die changes (the inverse of ``parse_sided_faces``)."""
    per = list(sides) if sides is not None else [D6] * len(faces)
    out: list[str] = []
    current = D6
    for f, n in zip(faces, per, strict=True):
        if n != current:
            out.append(f"d{n}:")
            current = n
        out.append(str(f))
    return " ".join(out)


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
        faces, sides = parse_sided_faces(dice, name, n) if bar else (None, None)
        plain_d6 = sides is None or all(x == D6 for x in sides)
        body.append(BodyLine(" ".join(action.split()), faces, n, None if plain_d6 else sides))
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


def format_action_line(
    text: str, faces: Sequence[int], reports: Iterable[str] = (),
    sides: Sequence[int] | None = None,
) -> str:
    """One body line (with ``| faces`` when dice were rolled) and its report comments;
    ``sides`` gives each face's die when not all are d6 (``format_faces``)."""
    line = f"{text} | {format_faces(faces, sides)}" if faces else text
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
