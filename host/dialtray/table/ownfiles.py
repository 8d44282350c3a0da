"""The owner's own files for a game at the table (issue 34): a FASA tables directory (maneuver
template, Hit Location Table, damage templates, layouts, weapons, arcs, scatter, ``sheets/``,
``maps/``) with the record sheet each plane flies, or Sky Ace heroes and villains.

Loaded and checked whole *before* a game starts — the same loaders and schema checks as
``dialtray fasa tables check`` (``rules.fasa.ownbox``) and ``dialtray skyace hero check``
(``rules.skyace.creation``) — so a bad file is one ``OwnFileError`` naming the option, the file
and the field, never a game that fails midway. The game then records the files in its log
header (``Tables:``/``Hero-file:`` with a ``File-sha256:`` per file, ``rules.core.filehash``),
and ``dialtray replay``/``verify`` find them from the log alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialtray.rules.core.errors import CatalogueError

FASA_SEATS = {"A": "P1", "B": "P2"}  # plane A1.. flies for P1, B1.. for P2 (as the samples)
MAX_HEROES = 12  # the tray shows 12 LIFE dice (rules.skyace.notation)


class OwnFileError(ValueError):
    """One bad option or file: the text names the option, the file and the field."""


@dataclass(frozen=True)
class OwnFiles:
    """What a new game takes from the owner (``table.games.new_game(..., own=)``)."""

    map: str = "sample-town"  # FASA: the mapsheet (the owner's maps/ first)
    tables: str = ""  # FASA: the owner's tables directory, resolved ("": the samples)
    planes: tuple[tuple[str, str, str], ...] = ()  # FASA: (seat, plane, sheet id); () samples
    heroes: tuple[Any, ...] = ()  # Sky Ace: the owner's heroes (``skyace.heroes.Hero``)
    hero_files: tuple[str, ...] = ()  # Sky Ace: the files they came from, resolved

    def summary(self) -> str:
        """One line for the players: whose files this game is played with."""
        if self.heroes:
            who = ", ".join(f"{h.name} ({h.id}{', villain' if h.villain else ''})"
                            for h in self.heroes)
            return f"your own heroes: {who}; from {', '.join(self.hero_files)}"
        from dialtray.rules.fasa.ownbox import own_files

        mine = own_files(self.tables) if self.tables else []
        planes = ", ".join(f"{p} flies {s}" for _, p, s in self.planes) or "the sample planes"
        return (f"your own files: tables {self.tables or '(the shipped samples)'}"
                + (f" ({', '.join(mine)} yours, the rest samples)" if self.tables else "")
                + f"; map {self.map}; {planes}")

    def fasa_events(self, turns: int, sealed: bool = False) -> list[Any]:
        """FS-M07 set-up events on the owner's map, tables and sheets."""
        from dialtray.rules.fasa.game import start_events
        from dialtray.rules.fasa.notation import DEFAULT_SIDES

        return start_events(self.map, self.planes or DEFAULT_SIDES, turns, sealed,
                            tables=self.tables)

    def skyace_game(self, dice: Any) -> Any:
        """A duel (SA-M15) of every owner's hero, in file order; one alone meets the shipped
        Twilight (or Sky Ace, if the owner's hero is called twilight)."""
        from dialtray.rules.skyace import SkyAceGame

        ids = [h.id for h in self.heroes]
        if len(ids) == 1:
            ids.append("twilight" if ids[0] != "twilight" else "sky-ace-1.3")
        return SkyAceGame.duel(dice, ids or ("sky-ace-1.3", "twilight"), own=self.heroes,
                               hero_files=self.hero_files)


def load_fasa(tables: Path | None, planes: str | None, map_name: str,
              turns: int = 1) -> OwnFiles:
    """``--tables DIR --planes A1=SHEET,B1=SHEET``: the directory checked whole (every table,
    sheet and map in it), each plane's sheet found (an id in DIR/sheets or the shipped ones, or
    a file in DIR/sheets), the set-up tried (FS-M07, FS-M08)."""
    source = ""
    if tables is not None:
        from dialtray.rules.fasa.ownbox import load_box

        try:
            source = str(Path(load_box(tables.expanduser())).resolve())
        except CatalogueError as exc:
            raise OwnFileError(f"argument --tables: {exc}") from None
    from dialtray.rules.fasa.tables import load_tables

    try:
        load_tables(source or None).map(map_name)
    except CatalogueError as exc:
        raise OwnFileError(f"argument --map: {exc}") from None
    chosen = _planes(planes, source) if planes else ()
    own = OwnFiles(map=map_name, tables=source, planes=chosen)
    try:
        own.fasa_events(turns)
    except ValueError as exc:  # CatalogueError too: a sheet that is not there or is bad
        raise OwnFileError(f"argument --planes: {exc}") from None
    return own


def _planes(text: str, source: str) -> tuple[tuple[str, str, str], ...]:
    from dialtray.rules.fasa.notation import MAX_PAIRS

    out: list[tuple[str, str, str]] = []
    for tok in (t.strip() for t in text.split(",")):
        pid, eq, sheet = tok.partition("=")
        pid = pid.strip().upper()
        seat = FASA_SEATS.get(pid[:1])
        if not eq or seat is None or not pid[1:].isdigit() or not sheet.strip():
            raise OwnFileError(f"argument --planes: {tok!r} is not PLANE=SHEET (planes A1, A2 "
                               "... fly for P1, B1, B2 ... for P2; SHEET a record sheet's id "
                               "or its file in your tables' sheets/)")
        if pid in {p for _, p, _ in out}:
            raise OwnFileError(f"argument --planes: {pid} given twice")
        out.append((seat, pid, _sheet_id(sheet.strip(), source)))
    for seat in FASA_SEATS.values():
        n = sum(1 for s, _, _ in out if s == seat)
        if n == 0:
            raise OwnFileError(f"argument --planes: no plane for {seat} (both sides fly: "
                               "A1=SHEET for P1, B1=SHEET for P2)")
        if n > 2 * MAX_PAIRS:
            raise OwnFileError(f"argument --planes: {n} planes for {seat}, at most "
                               f"{2 * MAX_PAIRS} (FS-M08: pilot and wingman pairs)")
    return tuple(sorted(out, key=lambda t: (t[0], t[1])))


def _sheet_id(sheet: str, source: str) -> str:
    """A sheet named by id, or by its file — which must be in the tables' ``sheets/`` (the
    log names sheets by id there, so a replay finds the very file)."""
    if not sheet.endswith(".json") and "/" not in sheet:
        return sheet
    path = Path(sheet).expanduser().resolve()
    if not path.is_file():
        raise OwnFileError(f"argument --planes: {sheet}: no such file")
    if not source or path.parent != Path(source) / "sheets":
        where = f"{source}/sheets" if source else "the sheets/ folder of a --tables DIR"
        raise OwnFileError(f"argument --planes: {sheet} is not in {where}: a game's log names "
                           "its sheets by id in the tables directory, so put the sheet there")
    return path.stem


def load_skyace(files: Sequence[Path]) -> OwnFiles:
    """``--heroes FILE [FILE ...]``: every hero of the files, checked against the rules for
    making one (``dialtray skyace hero check``: SA-M07, SA-A03, SA-M46, SA-M48 ...)."""
    from dialtray.rules.skyace.creation import load_hero_files

    paths = [Path(f).expanduser().resolve() for f in files]
    try:
        heroes, names = load_hero_files(paths)
    except CatalogueError as exc:
        who = "" if exc.figure in ("", "-") else f"hero {exc.figure}: "
        raise OwnFileError(f"argument --heroes: {exc.file}: {who}field {exc.field}: "
                           f"{exc.message}") from None
    seen: set[str] = set()
    for h in heroes:
        if h.id in seen:
            raise OwnFileError(f"argument --heroes: hero {h.id} is in the files twice")
        seen.add(h.id)
    if len(heroes) > MAX_HEROES:
        raise OwnFileError(f"argument --heroes: {len(heroes)} heroes, a duel has at most "
                           f"{MAX_HEROES} (the tray shows {MAX_HEROES} LIFE dice; SA-A19)")
    return OwnFiles(heroes=tuple(heroes), hero_files=names)
