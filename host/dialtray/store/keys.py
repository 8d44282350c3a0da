"""The secrets that make the store's records tamper-evident against someone holding the file
(issue 31): kept in the user's data directory, never in the game database.

* ``keys/chain.key`` — 32 random bytes, created on first use (mode 0600, its directory 0700).
  Each record's ``mac`` is HMAC-SHA256(key, its sha) and each game row's ``seal`` is
  HMAC-SHA256(key, the row's head, record count, status, result, state): re-hashing the public
  SHA-256 chain after an edit no longer passes, because the MACs cannot be made without the key.
* ``keys/judge-tokens`` — one line per judge token: its SHA-256 and the event it is for. A player
  with the database cannot mint a token by adding a row to it.

Why the sha chain stays plain SHA-256 and the key only MACs it: the tournament hub checks each
record's chain link without the table's key (``hub/ingest.py``), and older databases keep
verifying. A game with no MACs is reported as *unkeyed* (written before this, or stripped of its
MACs by someone holding the file), never as verified.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

KEY_BYTES = 32


class KeyError_(Exception):
    """The key directory cannot be read or written (the message names the file)."""


_using: list[Path] = []  # set by the CLI for the length of one command (``using``)


@contextlib.contextmanager
def using(directory: Path) -> Iterator[None]:
    """Every store opened meanwhile in this process keys with ``directory`` by default: the
    CLI's ``--data-dir`` reaches the web server's and the hub's stores too."""
    _using.append(directory)
    try:
        yield
    finally:
        _using.pop()


def default_dir() -> Path:
    """The command's data directory's ``keys`` (``using``), else ``$DIALTRAY_DATA_DIR/keys``,
    else the platform's user data directory's ``keys``."""
    if _using:
        return _using[-1]
    env = os.environ.get("DIALTRAY_DATA_DIR", "")
    if env:
        return Path(env).expanduser() / "keys"
    import platformdirs

    return Path(platformdirs.user_data_dir("dialtray", appauthor=False)) / "keys"


@dataclass(frozen=True)
class ChainKey:
    """The host's chain key: ``mac(sha)``, ``seal(...)`` and its public id (a fingerprint)."""

    secret: bytes
    path: Path

    @functools.cached_property
    def id(self) -> str:
        return hmac.new(self.secret, b"dialtray key id", hashlib.sha256).hexdigest()[:16]

    @functools.cached_property
    def pads(self) -> tuple[hashlib._Hash, hashlib._Hash]:
        """SHA-256 states after the key's inner and outer pads (RFC 2104): ``mac`` then only
        copies them, about a third of ``hmac.new``'s cost per record (issue 35)."""
        k = self.secret if len(self.secret) <= 64 else hashlib.sha256(self.secret).digest()
        k = k.ljust(64, b"\0")
        return (hashlib.sha256(bytes(b ^ 0x36 for b in k)),
                hashlib.sha256(bytes(b ^ 0x5C for b in k)))

    def mac(self, sha: str) -> str:
        """HMAC-SHA256(secret, sha) in hex — the same bytes as ``hmac.new`` (tested)."""
        return self._hmac(sha.encode())

    def _hmac(self, msg: bytes) -> str:
        inner, outer = self.pads
        i = inner.copy()
        i.update(msg)
        o = outer.copy()
        o.update(i.digest())
        return o.hexdigest()

    def seal(self, gid: int, kind: str, records: int, head: str, status: str, result: str,
             state_json: str | None) -> str:
        state = _state_sha(state_json or "")
        msg = "\n".join((str(gid), kind, str(records), head, status, result, state,
                         "none" if state_json is None else "set"))
        return self._hmac(msg.encode("utf-8", "replace"))  # (= hmac.new: one per commit)


@functools.lru_cache(maxsize=8)
def _state_sha(state_json: str) -> str:
    """SHA-256 of a game's state: the state changes with actions, not with every commit, so a
    commit of clicks alone reuses it."""
    return hashlib.sha256(state_json.encode("utf-8", "replace")).hexdigest()


def _private_dir(d: Path) -> None:
    d.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)


def load_key(directory: Path | None = None, *, create: bool = True) -> ChainKey | None:
    """The chain key in ``directory`` (default: :func:`default_dir`); made (0600) when missing
    and ``create``; None when missing and not ``create``. KeyError_ if it cannot be read or
    made, or is not a key."""
    d = directory or default_dir()
    p = d / "chain.key"
    try:
        secret = p.read_bytes()
    except FileNotFoundError:
        if not create:
            return None
        try:
            _private_dir(d)
            tmp = d / f".chain.key.{os.getpid()}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(KEY_BYTES))
                f.flush()
                os.fsync(f.fileno())
            try:
                os.link(tmp, p)  # atomic, and never over a key another process just made
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
            secret = p.read_bytes()
        except OSError as e:
            raise KeyError_(f"{p}: cannot make the store's key: {e.strerror or e}") from e
    except OSError as e:
        raise KeyError_(f"{p}: cannot read the store's key: {e.strerror or e}") from e
    if len(secret) != KEY_BYTES:
        raise KeyError_(f"{p}: not a dialtray key ({len(secret)} bytes, {KEY_BYTES} expected)")
    return ChainKey(secret, p)


# ---- judge tokens ------------------------------------------------------------------------------


def tokens_file(directory: Path | None = None) -> Path:
    return (directory or default_dir()) / "judge-tokens"


def add_token(directory: Path | None, event: str, token_hash: str) -> None:
    """Append a token's hash (never the token) for ``event``: one line, mode 0600."""
    p = tokens_file(directory)
    line = f"{token_hash} {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} " \
           f"{event.replace(chr(10), ' ')}\n"
    try:
        _private_dir(p.parent)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise KeyError_(f"{p}: cannot store the judge token: {e.strerror or e}") from e


def token_events(directory: Path | None) -> dict[str, str]:
    """Token hash → the event it was made for ({} when no token was ever made here)."""
    p = tokens_file(directory)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise KeyError_(f"{p}: cannot read the judge tokens: {e.strerror or e}") from e
    out = {}
    for line in text.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and len(parts[0]) == 64:
            out[parts[0]] = parts[2]
    return out
