"""Simulated tables for tests and the bench: a scripted game store per table (the real
``GameStore`` on a real SQLite file, the real outbox and link), and a TCP relay between a table
and the broker that can cut the table's network for a while or alter bytes in flight.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dialtray.hub.table import Broker, Outbox, TableLink
from dialtray.store.db import GameStore


class Relay:
    """127.0.0.1:``port`` → the broker. ``cut(s)`` drops every connection and refuses new ones
    for ``s`` seconds (the table's cable pulled); ``alter(old, new)`` replaces the first
    occurrence of ``old`` in the table's outgoing bytes once (same length: a tampered record)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = int(self.sock.getsockname()[1])
        self.down_until = 0.0
        self.conns: list[socket.socket] = []
        self._alter: tuple[bytes, bytes] | None = None
        self.altered = threading.Event()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True, name="relay").start()

    def _accept(self) -> None:
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            if time.monotonic() < self.down_until:
                c.close()
                continue
            try:
                up = socket.create_connection(("127.0.0.1", self.target), 2)
            except OSError:
                c.close()
                continue
            with self._lock:
                self.conns += [c, up]
            threading.Thread(target=self._pipe, args=(c, up, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(up, c, False), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, outgoing: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if outgoing and self._alter is not None and self._alter[0] in data:
                    with self._lock:
                        if self._alter is not None and self._alter[0] in data:
                            data = data.replace(self._alter[0], self._alter[1], 1)
                            self._alter = None
                            self.altered.set()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def cut(self, seconds: float) -> None:
        self.down_until = time.monotonic() + seconds
        with self._lock:
            conns, self.conns = self.conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def alter(self, old: bytes, new: bytes) -> None:
        if len(old) != len(new):
            raise ValueError("an in-flight alteration keeps the length (the MQTT frame stays "
                             "valid)")
        self._alter = (old, new)

    def close(self) -> None:
        self.sock.close()
        self.cut(0)


class ScriptedTable:
    """One table: its own SQLite store with the hub's outbox, a link to the broker, and a script
    that plays a game of ``records`` records in small commits (``pace`` seconds apart).

    With ``until``, the game goes on past ``records`` until that event is set: a soak's faults
    then come in mid-game however long they take on a busy machine, and the script need not be
    paced for the slowest case (the soak waits for conditions, not for a schedule)."""

    def __init__(self, root: Path, event: str, table: str, broker: Broker,
                 players: tuple[str, str], rnd: int, records: int, seed: int,
                 pace: float = 0.01, ruling_key: bytes | None = None,
                 until: threading.Event | None = None) -> None:
        self.table, self.players, self.rnd = table, players, rnd
        self.records, self.pace, self.until = records, pace, until
        self.rng = random.Random(seed)
        self.path = root / f"{table}.sqlite3"
        self.rulings: list[dict[str, Any]] = []
        self._rl = threading.Lock()
        self.link = TableLink(self.path, event, table, broker, ruling_key, self._on_ruling)
        self.store = GameStore.open(self.path)
        self.box = Outbox.install(self.store, self.link.wake)
        self.gid = 0
        self.done = threading.Event()
        self._stop = threading.Event()
        self.error: BaseException | None = None
        self.vp: dict[str, int] = {}
        self.thread = threading.Thread(target=self._play, daemon=True, name=f"table-{table}")

    def _on_ruling(self, body: dict[str, Any]) -> None:
        with self._rl:
            self.rulings.append(body)

    def start(self) -> ScriptedTable:
        self.link.start()
        self.thread.start()
        return self

    def _take_rulings(self) -> None:
        with self._rl:
            got, self.rulings = self.rulings, []
        for body in got:  # the ruling stored at the table too (it then travels back)
            self.store.append(self.gid, "ruling", body)

    def _play(self) -> None:
        try:
            a, b = self.players
            self.gid = self.store.new_game(
                "airaction", header=[("Game", "airaction")], seats=[("A", a), ("B", b)],
                origin="hub-sim", extra={"round": self.rnd})
            made = 1
            while made < self.records - 1 or (self.until is not None
                                              and not self.until.is_set()):
                if self._stop.is_set():
                    return  # closed mid-game: the store is closed next, never under a commit
                k = self.rng.randint(1, 4)
                if self.until is None or self.until.is_set():
                    k = min(k, self.records - 1 - made)
                for _ in range(k):
                    made += 1
                    kind = self.rng.choice(("device", "device", "action", "expect"))
                    self.store.append(self.gid, kind, {"i": made, "click": self.rng.randint(0, 9),
                                                       "vp": self.rng.randint(0, 9)})
                self._take_rulings()
                self.store.commit()  # never waits for the network: the outbox is local
                time.sleep(self.pace)
            self.vp = {"A": self.rng.randint(0, 12), "B": self.rng.randint(0, 12)}
            winner = None if self.vp["A"] == self.vp["B"] else \
                max(self.vp, key=lambda s: self.vp[s])
            self.store.append(self.gid, "end", {"termination": "time", "winner": winner,
                                                "vp": self.vp, "how": None})
            self.store.commit()
        except BaseException as e:
            self.error = e
        finally:
            self.done.set()

    def expected(self) -> int:
        return int(self.store.game(self.gid).records) if self.gid else 0

    def close(self) -> None:
        """Stop the script, then the link and the store. The script's thread is joined first:
        closing an SQLite connection while another thread commits on it crashed the process
        (a segfault in sqlite3's commit, seen once when a test ended before its game)."""
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join(30)
        self.box.forget()
        self.link.stop()
        self.store.close()


def wait_for(cond: Callable[[], bool], timeout: float, what: str, every: float = 0.1) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(every)
    raise TimeoutError(f"after {timeout:.0f} s: {what}")


def crash_hub(hub: Any) -> None:
    """The hub (an ``Ingest``) killed, as far as a test in one process can: its writer stops,
    its broker socket is dropped without a DISCONNECT (the broker keeps its session) and its
    database connection cut without a goodbye."""
    hub._stop.set()
    hub.thread.join(10)
    hub.client.loop_stop()
    with contextlib.suppress(OSError, AttributeError):
        hub.client.socket().close()
    with contextlib.suppress(Exception):
        hub.db.pgconn.finish()
