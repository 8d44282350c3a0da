"""The owner's files a game was played with, named in its log by content (issue 34).

A FASA game on the owner's tables (``Tables: DIR``) or a Sky Ace game with the owner's heroes
(``Hero-file: FILE``) reads those files again when it is replayed or verified. A file edited
since would replay a different game — or, where a missing table falls back to the shipped
sample, silently the wrong one. So the log also carries each file's SHA-256:

    File-sha256: hit_location.json 9f2c...   # relative to Tables: for FASA
    File-sha256: /home/me/nightjar.json 41be...

and ``check_files`` refuses to set the game up, naming the file, when one is missing or its
content is not the content the game was played with. A file not where the log says is looked
for beside the log (``locate``): the log and the files copied elsewhere together still replay.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from dialtray.rules.core.notation import GameLog

KEY = "File-sha256"


def digest(path: str | Path) -> str:
    """The file's SHA-256 as hex (``OSError`` if it cannot be read)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def hash_lines(paths: Iterable[str | Path], base: str | Path | None = None
               ) -> list[tuple[str, str]]:
    """``File-sha256`` header lines for ``paths`` (written relative to ``base`` when under
    it); a file that cannot be read is left out (the game could not have used it)."""
    out: list[tuple[str, str]] = []
    root = Path(base) if base else None
    for p in paths:
        path = Path(p)
        try:
            hexed = digest(path)
        except OSError:
            continue
        name = str(path)
        if root is not None and path.is_relative_to(root):
            name = path.relative_to(root).as_posix()
        out.append((KEY, f"{name} {hexed}"))
    return out


def locate(log: GameLog, name: str) -> str:
    """``name`` as the log names it, or — when it is not there and the log is a file — the
    file or directory of the same name beside the log (a game's log and the owner's files
    copied together to another computer). Its content is still checked (``check_files``)."""
    path = Path(name)
    if path.exists():
        return name
    beside = Path(log.name).parent / path.name
    if Path(log.name).is_file() and beside.exists():
        return str(beside.resolve())
    return name


def check_files(log: GameLog, base: str | Path | None = None) -> None:
    """Every ``File-sha256`` line of ``log``: the file is there (relative names under
    ``base``) with the content the game was played with; else a ``NotationError`` at that
    line saying plainly which file and what is wrong."""
    for h in log.values(KEY):
        name, _, want = h.value.rpartition(" ")
        if not name or len(want) != 64 or any(c not in "0123456789abcdef" for c in want):
            raise log.error(h.line, f"{KEY}: FILE HEX (the SHA-256 of a file the game used), "
                            f"not {h.value!r}")
        path = Path(name)
        if base and not path.is_absolute():
            path = Path(base) / path
        elif not base:
            path = Path(locate(log, name))
        try:
            got = digest(path)
        except FileNotFoundError:
            raise log.error(h.line, f"{path} is missing: this game was played with it, and "
                            "cannot be replayed without it (put the file back)") from None
        except OSError as exc:
            raise log.error(h.line, f"{path} cannot be read: {exc.strerror or exc}") from None
        if got != want:
            raise log.error(h.line, f"{path} has changed since this game was played (its "
                            f"SHA-256 was {want[:12]}..., it is now {got[:12]}...): a replay "
                            "would not be the game played (put the file back as it was)")
