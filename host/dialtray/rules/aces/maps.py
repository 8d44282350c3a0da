"""Aces maps as readable text files: squares, terrain, walls on edges, starting areas.

The official map (an airfield bar on one side, a zeppelin deck on the other; AC-M05) is not in the
rules, so dialtray ships *sample* maps (``data/aces/maps/*.map``), each marked ``sample: true``.

File format (``docs`` in ``data/aces/maps/README.md``)::

    # comment lines start with '#'
    name: Airfield bar
    sample: true
    size: 16x20                  # width x height in squares
    start: 1 c1 n3               # optional; area 1 is the rectangle c1..n3 (AC-M07 if omitted)
    grid:
    . . . . ~ ~ . .
                -
    . . .|. ~ ~ # .

After ``grid:`` lines alternate: a *square row* (square x at character 2x; ``.`` clear, ``~`` ``%``
``&`` hindering, ``#`` blocking; between squares x and x+1, character 2x+1 is ``|`` for a wall on
that edge or a space) and an *edge row* (character 2x is ``-`` for a wall between square x of the
row above and square x of the row below, otherwise a space; odd characters may be ``+`` or space).
Trailing spaces may be left out; an edge row may be empty. Every error names file, line, column.

Terrain (AC-M57..M65, table AC-3): blocking squares and walls stop movement and lines of fire;
hindering squares end the move of a character entering them and add +1 defense to a line of fire.
A *hindering feature* is a 4-connected group of squares with the same hindering symbol (AC-A04).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from pathlib import Path

from dialtray.rules.aces.grid import MAX_COLUMNS, Square

MAPS_DIR = Path(__file__).resolve().parents[2] / "data" / "aces" / "maps"


class Terrain(Enum):
    CLEAR = "clear"
    HINDERING = "hindering"
    BLOCKING = "blocking"


_SYMBOLS: dict[str, Terrain] = {
    ".": Terrain.CLEAR,
    "~": Terrain.HINDERING,
    "%": Terrain.HINDERING,
    "&": Terrain.HINDERING,
    "#": Terrain.BLOCKING,
}


class MapError(ValueError):
    """A map file that cannot be used, naming the file, line and column (both 1-based)."""

    def __init__(self, file: str, line: int, column: int, message: str) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{file}:{line}:{column}: {message}")


@dataclass(frozen=True)
class StartingArea:
    """A rectangle of squares (inclusive corners) where one player places a team (AC-M07)."""

    number: int
    top_left: Square
    bottom_right: Square

    def __contains__(self, sq: object) -> bool:
        if not isinstance(sq, tuple) or len(sq) != 2:
            return False
        x, y = sq
        return bool(
            self.top_left.x <= x <= self.bottom_right.x
            and self.top_left.y <= y <= self.bottom_right.y
        )

    def squares(self) -> list[Square]:
        return [
            Square(x, y)
            for y in range(self.top_left.y, self.bottom_right.y + 1)
            for x in range(self.top_left.x, self.bottom_right.x + 1)
        ]


def standard_starting_areas(width: int, height: int) -> tuple[StartingArea, StartingArea]:
    """AC-M07 "Hit the Deck!": along each narrow edge, three squares deep, at least two squares
    from the side edges ("extend three squares away from both ends of the map and at least two
    squares away from the edges")."""
    if width <= height:  # the narrow edges are the top and bottom rows
        if width < 5:
            raise ValueError("map too narrow for standard starting areas")
        return (
            StartingArea(1, Square(2, 0), Square(width - 3, 2)),
            StartingArea(2, Square(2, height - 3), Square(width - 3, height - 1)),
        )
    if height < 5:
        raise ValueError("map too short for standard starting areas")
    return (
        StartingArea(1, Square(0, 2), Square(2, height - 3)),
        StartingArea(2, Square(width - 3, 2), Square(width - 1, height - 3)),
    )


@dataclass
class AcesMap:
    """A parsed map. Squares are also addressed by index ``y * width + x`` for speed."""

    name: str
    width: int
    height: int
    terrain: tuple[Terrain, ...]
    walls: frozenset[tuple[int, int]]  # (i, j) with i < j, orthogonal neighbours
    starting_areas: tuple[StartingArea, ...]
    sample: bool = True
    source: str = "<string>"
    feature: tuple[int, ...] = ()  # hindering feature id per square, -1 if not hindering
    # neighbours[i]: squares one step from i that are not separated from it by blocking
    # terrain (AC-M20, AC-M63..M65). Blocking squares have none and are nobody's neighbour.
    neighbours: tuple[tuple[int, ...], ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        self._squares = tuple(Square(i % self.width, i // self.width) for i in range(self.size))
        if not self.neighbours:
            self.neighbours = tuple(self._compute_neighbours(i) for i in range(self.size))
        if not self.feature:
            self.feature = self._compute_features()

    @property
    def size(self) -> int:
        return self.width * self.height

    def index(self, sq: Square) -> int:
        return sq.y * self.width + sq.x

    def square(self, i: int) -> Square:
        return self._squares[i]

    def on_map(self, sq: Square) -> bool:
        return 0 <= sq.x < self.width and 0 <= sq.y < self.height

    def terrain_at(self, sq: Square) -> Terrain:
        return self.terrain[self.index(sq)]

    def wall_between(self, i: int, j: int) -> bool:
        """True if a wall is drawn on the edge shared by orthogonal neighbours i and j."""
        return (min(i, j), max(i, j)) in self.walls

    def diagonal_separated(self, i: int, j: int) -> bool:
        """AC-A05 (decided): a straight diagonal between diagonal neighbours i and j passes through
        their shared corner. It is blocked only if walls on the edges round that corner cut both
        ways round it (a wall running straight through the corner, or two crossing walls); a
        line that merely touches the end of a wall, or slips between two blocking squares that
        meet at the corner, is not blocked ("Blocking terrain does not block movement or any
        line of fire that is on a straight diagonal")."""
        w = self.width
        xi, yi = i % w, i // w
        xj, yj = j % w, j // w
        a = yi * w + xj  # the corner square sharing i's row
        b = yj * w + xi  # the corner square sharing i's column
        return (self.wall_between(i, a) or self.wall_between(a, j)) and (
            self.wall_between(i, b) or self.wall_between(b, j)
        )

    def separated(self, i: int, j: int) -> bool:
        """True if touching squares i and j are cut apart by blocking terrain (AC-M65)."""
        w = self.width
        if (i % w != j % w) and (i // w != j // w):
            return self.diagonal_separated(i, j)
        return self.wall_between(i, j)

    def _compute_neighbours(self, i: int) -> tuple[int, ...]:
        if self.terrain[i] is Terrain.BLOCKING:
            return ()
        x, y = i % self.width, i // self.width
        out: list[int] = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                if not (0 <= nx < self.width and 0 <= ny < self.height):
                    continue
                j = ny * self.width + nx
                if self.terrain[j] is Terrain.BLOCKING or self.separated(i, j):
                    continue
                out.append(j)
        return tuple(out)

    def _compute_features(self) -> tuple[int, ...]:
        feat = [-1] * self.size
        next_id = 0
        for start in range(self.size):
            if self.terrain[start] is not Terrain.HINDERING or feat[start] != -1:
                continue
            feat[start] = next_id
            stack = [start]
            while stack:
                i = stack.pop()
                x, y = i % self.width, i // self.width
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if 0 <= nx < self.width and 0 <= ny < self.height:
                        j = ny * self.width + nx
                        if (
                            feat[j] == -1
                            and self.terrain[j] is Terrain.HINDERING
                            and (not self._symbols or self._symbols[j] == self._symbols[i])
                        ):
                            feat[j] = next_id
                            stack.append(j)
            next_id += 1
        return tuple(feat)

    # The raw symbols are only needed to split hindering features; maps built in code default to
    # one symbol for every hindering square.
    _symbols: tuple[str, ...] = field(default=(), repr=False)

    def render(self) -> str:
        """The map back in its text format (used by tests and the CLI)."""
        inv = {Terrain.CLEAR: ".", Terrain.HINDERING: "~", Terrain.BLOCKING: "#"}
        lines = [
            f"name: {self.name}",
            f"sample: {'true' if self.sample else 'false'}",
            f"size: {self.width}x{self.height}",
        ]
        for a in self.starting_areas:
            lines.append(f"start: {a.number} {a.top_left.name()} {a.bottom_right.name()}")
        lines.append("grid:")
        w = self.width
        for y in range(self.height):
            row = []
            for x in range(w):
                i = y * w + x
                row.append(self._symbols[i] if self._symbols else inv[self.terrain[i]])
                if x < w - 1:
                    row.append("|" if self.wall_between(i, i + 1) else " ")
            lines.append("".join(row).rstrip())
            if y < self.height - 1:
                edge = [
                    "-" if self.wall_between(y * w + x, (y + 1) * w + x) else " " for x in range(w)
                ]
                lines.append(" ".join(edge).rstrip())
        return "\n".join(lines) + "\n"


_SIZE_RE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_map(text: str, source: str = "<string>") -> AcesMap:
    """Parse the text map format; MapError names ``source``, line and column of any fault."""
    name: str | None = None
    sample: bool | None = None
    size: tuple[int, int] | None = None
    size_line = 0
    starts: list[tuple[int, int, str, str]] = []  # (line, area number, from, to)
    grid_start: int | None = None
    lines = text.split("\n")
    for ln, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise MapError(
                source, ln, 1, f"expected 'key: value' or 'grid:', found {line.strip()!r}"
            )
        key = key.strip().lower()
        value = value.split(" #")[0].strip()
        vcol = len(line) - len(line.partition(":")[2].lstrip()) + 1
        if key == "grid":
            grid_start = ln
            break
        if key == "name":
            name = value
        elif key == "sample":
            if value.lower() not in ("true", "false"):
                raise MapError(source, ln, vcol, f"sample must be true or false, not {value!r}")
            sample = value.lower() == "true"
        elif key == "size":
            m = _SIZE_RE.match(value)
            if not m:
                raise MapError(source, ln, vcol, f"size must look like 16x20, not {value!r}")
            size = (int(m.group(1)), int(m.group(2)))
            size_line = ln
            if not (1 <= size[0] <= MAX_COLUMNS) or size[1] < 1:
                raise MapError(
                    source,
                    ln,
                    vcol,
                    f"size {value} out of bounds (width 1..{MAX_COLUMNS}, height >= 1)",
                )
        elif key == "start":
            parts = value.split()
            if len(parts) != 3 or not parts[0].isdigit():
                raise MapError(
                    source,
                    ln,
                    vcol,
                    f"start must be 'NUMBER FROM TO', e.g. '1 c1 n3', not {value!r}",
                )
            starts.append((ln, int(parts[0]), parts[1], parts[2]))
        else:
            raise MapError(
                source, ln, 1, f"unknown key {key!r} (expected name, sample, size, start, grid)"
            )
    if name is None:
        raise MapError(source, 1, 1, "missing 'name:'")
    if sample is None:
        raise MapError(
            source, 1, 1, "missing 'sample:' (true for maps not taken from an official product)"
        )
    if size is None:
        raise MapError(source, 1, 1, "missing 'size:'")
    if grid_start is None:
        raise MapError(source, len(lines), 1, "missing 'grid:'")
    width, height = size
    body = [ln.rstrip("\r") for ln in lines[grid_start:]]
    while body and not body[-1].strip():
        body.pop()
    expected = 2 * height - 1
    if len(body) != expected:
        raise MapError(
            source,
            grid_start + min(len(body), expected) + 1,
            1,
            f"grid has {len(body)} lines; a {width}x{height} map (size on line {size_line}) needs "
            f"{expected}: {height} square rows with an edge row between each pair",
        )
    terrain: list[Terrain] = []
    symbols: list[str] = []
    walls: set[tuple[int, int]] = set()
    for k, row in enumerate(body):
        ln = grid_start + 1 + k
        if k % 2 == 0:
            y = k // 2
            if len(row) > 2 * width - 1:
                raise MapError(source, ln, 2 * width, f"square row longer than {width} squares")
            for x in range(width):
                col = 2 * x
                ch = row[col] if col < len(row) else ""
                if ch not in _SYMBOLS:
                    raise MapError(
                        source,
                        ln,
                        col + 1,
                        f"square {Square(x, y).name()}: expected one of . ~ % & #, "
                        f"found {ch or 'end of line'!r}",
                    )
                terrain.append(_SYMBOLS[ch])
                symbols.append(ch)
                if x < width - 1 and col + 1 < len(row):
                    sep = row[col + 1]
                    if sep == "|":
                        i = y * width + x
                        walls.add((i, i + 1))
                    elif sep != " ":
                        raise MapError(
                            source,
                            ln,
                            col + 2,
                            f"between squares expected '|' or space, found {sep!r}",
                        )
        else:
            y = k // 2
            if len(row) > 2 * width - 1:
                raise MapError(source, ln, 2 * width, f"edge row longer than {width} squares")
            for c, ch in enumerate(row):
                if c % 2 == 0:
                    if ch == "-":
                        x = c // 2
                        walls.add((y * width + x, (y + 1) * width + x))
                    elif ch != " ":
                        raise MapError(
                            source, ln, c + 1, f"edge row: expected '-' or space, found {ch!r}"
                        )
                elif ch not in " +":
                    raise MapError(
                        source,
                        ln,
                        c + 1,
                        f"edge row: expected '+' or space between walls, found {ch!r}",
                    )
    areas: list[StartingArea] = []
    for ln, number, a_text, b_text in starts:
        try:
            a, b = Square.parse(a_text), Square.parse(b_text)
        except ValueError as exc:
            raise MapError(source, ln, 1, str(exc)) from None
        for sq in (a, b):
            if not (0 <= sq.x < width and 0 <= sq.y < height):
                raise MapError(
                    source,
                    ln,
                    1,
                    f"starting area {number}: {sq.name()} is off the {width}x{height} map",
                )
        if a.x > b.x or a.y > b.y:
            raise MapError(
                source,
                ln,
                1,
                f"starting area {number}: {a.name()} must be the top-left corner of {b.name()}",
            )
        if any(x.number == number for x in areas):
            raise MapError(source, ln, 1, f"starting area {number} defined twice")
        areas.append(StartingArea(number, a, b))
    if not areas and min(width, height) >= 5:
        areas = list(standard_starting_areas(width, height))
    return AcesMap(
        name=name,
        width=width,
        height=height,
        terrain=tuple(terrain),
        walls=frozenset(walls),
        starting_areas=tuple(areas),
        sample=sample,
        source=source,
        _symbols=tuple(symbols),
    )


def load_map(name_or_path: str | Path) -> AcesMap:
    """Load a map by path or by the name of a shipped map (``airfield_bar``). A map is read-only
    once parsed, so the same file (unchanged) gives the same shared object."""
    p = Path(name_or_path)
    if not p.suffix:
        p = MAPS_DIR / f"{name_or_path}.map"
    st = p.stat()
    return _load_map_cached(str(p.resolve()), st.st_mtime_ns, st.st_size, str(p))


@lru_cache(maxsize=32)
def _load_map_cached(path: str, mtime_ns: int, size: int, shown: str) -> AcesMap:
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise MapError(
            shown, line, 1, f"not UTF-8 text (byte(s) {exc.object[exc.start : exc.end].hex(' ')})"
        ) from None
    return parse_map(text, source=shown)


def shipped_maps() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.map"))
