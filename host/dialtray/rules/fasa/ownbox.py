"""The owner's box: a tables directory checked whole before a game is started on it.

A front end (``play fasa --tables DIR``, ``dialtray fasa tables check DIR``) calls ``check_box``
to list every problem (each naming the file and the field, or the rule a record sheet breaks)
and ``load_box`` to get what ``setup.start_events(..., tables=...)`` takes, or one
``CatalogueError`` naming the first problem. The game itself records the directory in its
setup event (``Tables: DIR`` in a log), so a replay reads the same files (D-FS-35).
"""

from __future__ import annotations

from pathlib import Path

from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa.creation import check_sheet
from dialtray.rules.fasa.tables import FILES, load_tables


def own_files(directory: str | Path) -> list[str]:
    """The table files of the shipped set the owner's directory replaces (``template.json`` ...)."""
    d = Path(directory)
    return [f"{n}.json" for n in FILES if (d / f"{n}.json").is_file()]


def check_box(directory: str | Path) -> list[str]:
    """Every problem of an owner's directory, each a line naming its file: a malformed table
    (the first, as ``load_tables`` stops there), then every rule each ``sheets/*.json`` breaks
    and every malformed ``maps/*.json``. Empty: the box is good."""
    return [str(e) for e in _problems(Path(directory))]


def load_box(directory: str | Path) -> str:
    """The directory as ``start_events(tables=...)`` takes it, once ``check_box`` finds
    nothing; else the first problem as a ``CatalogueError`` naming the file and the field."""
    problems = _problems(Path(directory))
    if problems:
        raise problems[0]
    return str(directory)


def _problems(d: Path) -> list[CatalogueError]:
    if not d.is_dir():
        return [CatalogueError(str(d), "-", "(directory)", "no such directory")]
    try:
        tables = load_tables(d)
    except CatalogueError as exc:
        return [exc]
    out = [CatalogueError(str(sheet), "-", f.field,
                          f"{f.message} (breaks {f.rule} \"{f.heading}\")")
           for sheet in sorted((d / "sheets").glob("*.json")) for f in check_sheet(sheet, tables)]
    for m in sorted((d / "maps").glob("*.json")):
        try:
            tables.map(m.stem)
        except CatalogueError as exc:
            out.append(exc)
    return out
