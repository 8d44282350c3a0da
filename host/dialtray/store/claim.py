"""One table at a time plays a stored game: the process that plays it holds a claim on it.

Why: two `dialtray play --resume 1` on one database (a second terminal, a window thought closed)
each carried the game on and appended its own decisions to the one chain; the stored game then
no longer replayed (`dialtray verify`: FAILED at the first record of the second table). So a
table (`play`, `demo`, `serve`, `play --resume`) claims its game, and a claim another process
holds is refused in one line. A judge's ruling (`dialtray judge`) is not a table and still
reaches a live game, as designed.

The claim is a POSIX record lock (``fcntl.lockf``) on byte ``gid`` of a file beside the
database (``games.sqlite3-claims``): the operating system lets it go when the process ends,
however it ends (kill -9, a power cut), so a crashed table never leaves its game claimed.
Locks are per process: a process never conflicts with itself. Where ``fcntl`` is missing
(Windows) there is no claim and the check is skipped.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no POSIX record locks
    fcntl = None  # type: ignore[assignment]

_lock = threading.Lock()
_files: dict[str, int] = {}  # claims file -> its one descriptor in this process
_held: dict[str, set[int]] = {}  # claims file -> the games this process claims in it


def claims_file(db: Path) -> str:
    """The claims file beside ``db``, one spelling per file (a relative --db, a symlink)."""
    return os.path.realpath(f"{db}-claims")


def _fd(path: str) -> int:
    fd = _files.get(path)
    if fd is None:
        fd = _files[path] = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    return fd


def claim(db: Path, gid: int) -> bool:
    """Claim game ``gid`` of database ``db`` for this process; False when another process
    holds it (or True where claims cannot be taken: no fcntl, a read-only directory)."""
    if fcntl is None:
        return True
    path = claims_file(db)
    with _lock:
        try:
            fd = _fd(path)
        except OSError:
            return True  # the store itself says what is wrong with the directory
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, gid)
        except OSError:
            return False
        _held.setdefault(path, set()).add(gid)
        return True


def release(db: Path, gid: int) -> None:
    """Let go of this process's claim on ``gid`` (nothing when it holds none)."""
    if fcntl is None:
        return
    path = claims_file(db)
    with _lock:
        if gid in _held.get(path, set()):
            fcntl.lockf(_files[path], fcntl.LOCK_UN, 1, gid)
            _held[path].discard(gid)


def in_use(db: Path, gid: int) -> bool:
    """Whether another process is playing game ``gid`` (held by this one: False)."""
    path = claims_file(db)
    with _lock:
        mine = gid in _held.get(path, set())
    if mine or not claim(db, gid):
        return not mine
    release(db, gid)
    return False


def busy(db: Path, gid: int) -> str:
    """The one line a refused second table gets."""
    return (f"{db}: game {gid} is being played right now by another dialtray on this "
            "computer (a play, serve or demo still running): carry it on there, or stop "
            "that one first")
