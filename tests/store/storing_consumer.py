"""A small storing host for the kill test: rebuilds its game from the store (``store.resume``:
the replayed rules state, the binding, the dials as last stored), tracks it with the click
tracker, stores every tray event and what the tracker makes of it, and acknowledges after each
commit; started again after a kill -9 it resumes from the stored (boot id, last seq).

Usage: ``python storing_consumer.py DB GAME PORT`` (one host), or ``python storing_consumer.py
--fork-server`` (a process that imports all this once, then forks a fresh host for each
``start DB GAME PORT`` line on its stdin, kills it with SIGKILL at ``kill``, and says whether it
still runs at ``alive``). Each forked host opens the store, rebuilds the game and opens the
port anew, exactly as a started program does; only the import of the Python modules (a quarter
of a second of CPU, nothing the kill test is about) is done once instead of at every start —
the rules engine's too (``store.resume`` imports it on first use: another quarter second)."""

from __future__ import annotations

import os
import signal
import sys
import time

import dialtray.rules.aces  # noqa: F401  (the stored game's engine: imported once, see above)
from dialtray.link.session import SessionState, TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameStore
from dialtray.store.consumer import StoringConsumer
from dialtray.store.resume import attach, resume
from dialtray.tracker import TableDice, Tracker


def main(db: str, gid: int, port: str) -> None:
    store = GameStore.open(db)
    dice = TableDice(SeededDice(1))
    r = resume(store, gid, dice)
    tracker = Tracker(r.game, r.binding, dice, header=r.header)
    if r.snapshot is not None:  # where the dials were when the last host died
        tracker.feed(r.snapshot, time.monotonic())
    rec = attach(store, gid, tracker)
    session = TraySession(port, name="consumer", ack_policy="manual", **r.session_args)
    consumer = StoringConsumer(store, gid, session, recorder=rec)
    with session:
        print("started", flush=True)
        while True:
            consumer.pump(0.05)
            if session.state is SessionState.FAILED:  # alive but storing nothing: say why
                raise RuntimeError(f"the session failed: {session.error!r}")


def fork_server() -> None:
    """Answer ``start DB GAME PORT`` (``pid N``), ``kill`` (``killed``) and ``alive`` (``yes``,
    or ``no STATUS`` with the wait status of a host that ended by itself) on stdin/stdout."""
    child = 0
    for line in sys.stdin:
        word, *args = line.split()
        if word == "start":
            child = os.fork()
            if child == 0:  # the host: its stdout is not the server's answer channel
                devnull = os.open(os.devnull, os.O_RDWR)
                os.dup2(devnull, 0)
                os.dup2(devnull, 1)
                code = 0
                try:
                    main(args[0], int(args[1]), args[2])
                except BaseException:
                    import traceback

                    traceback.print_exc()
                    code = 1
                finally:
                    sys.stderr.flush()
                    os._exit(code)
            answer = f"pid {child}"
        elif word == "kill":
            try:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
            except (ProcessLookupError, ChildProcessError):
                pass  # it had ended already (and "alive" said so)
            answer = "killed"
        else:  # alive
            pid, status = os.waitpid(child, os.WNOHANG)
            answer = "yes" if pid == 0 else f"no {status}"
        print(answer, flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork-server"]:
        fork_server()
    else:
        main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
