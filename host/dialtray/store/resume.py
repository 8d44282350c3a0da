"""Carry a stored game on after a crash or a closed laptop (issue 12, "Resume").

:func:`resume` rebuilds what a host needs from the store alone: the game (replayed through its
rules engine, so exactly the verified state), its log header, its dock binding, and the tray's
last stored picture — every dial's stored position as a ``Snapshot`` for the new tracker to start
from, and the ``TraySession`` arguments that make the tray replay exactly what was never stored.
A click replayed that nobody caused is then flagged like any other; if the tray rebooted
meanwhile, the session's reconciliation turns the difference into recovered clicks, flagged as
moved while the host was away. :func:`attach` records the carried-on game into the same stored
game (the chain goes on).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dialtray.link.messages import Snapshot
from dialtray.rules.core.dials import Dial
from dialtray.rules.core.dice import DiceSource
from dialtray.store.consumer import resume_args, stored_dials
from dialtray.store.db import GameStore, StoreError
from dialtray.store.recorder import GameRecorder
from dialtray.store.verify import verify_game
from dialtray.tracker import Binding, Slot, Tracker, eye
from dialtray.tracker.marks import CHECK, FAULT, EyeCheck
from dialtray.tracker.restored import recheck


@dataclass
class Resumed:
    gid: int
    game: Any  # the rules engine's game, as replayed from the store
    header: list[tuple[str, str]]
    binding: Binding
    snapshot: Snapshot | None  # the dials as last stored (None: no tray event stored)
    session_args: dict[str, Any]  # TraySession(..., ack_policy="manual", **session_args)


def resume(store: GameStore, gid: int, dice: DiceSource | None = None) -> Resumed:
    """``dice``: what the game rolls with from now on (the table's ``TableDice``)."""
    v = verify_game(store, gid, dice_after=dice)
    if not v.ok or v.replayed is None:
        raise StoreError(f"{store.path}: game {gid} cannot be resumed: {v.text()}")
    g = store.game(gid)
    if g.status != "running":
        raise StoreError(f"{store.path}: game {gid} is {g.status}, not running: nothing to "
                         "resume")
    setup = v.data[0]["data"]
    header = [(str(k), str(val)) for k, val in setup.get("header", [])]
    binding = Binding({Dial(f, k): Slot(d, r) for f, k, d, r in store.figures(gid)
                       if d is not None and r is not None})
    args = resume_args(store, gid)
    dials = tuple(args["resume_dials"] if "resume_dials" in args else stored_dials(store, gid))
    snap = None
    if dials:
        boot, last = args.get("resume_from", (0, 0))
        snap = Snapshot(0, boot, last + 1, dials, "resumed from the store")
    return Resumed(gid, v.replayed, header, binding, snap, args)


def attach(store: GameStore, gid: int, tracker: Tracker) -> GameRecorder:
    """A recorder that goes on writing stored game ``gid`` from ``tracker``'s present state
    (its flags numbered on from those already stored)."""
    # The flags its stored dials raised (a sensor fault, an encoder lost track: ``carry_checks``
    # closes the stopped host's) are stored at the next sync.
    return GameRecorder(store, gid, tracker.game, tracker,
                        flag_base=_flag_records(store, gid))


def _flag_records(store: GameStore, gid: int) -> int:
    (n,) = store.conn.execute("SELECT count(*) FROM records WHERE game_id = ? AND "
                              "kind = 'flag'", (gid,)).fetchone()
    return int(n)


def open_flags(store: GameStore, gid: int, kind: str) -> list[tuple[int, str]]:
    """``(i, dial label)`` of every stored flag of ``kind`` never put right."""
    return _open_flags(store, gid).get(kind, [])


def _open_flags(store: GameStore, gid: int) -> dict[str, list[tuple[int, str]]]:
    """Per flag kind: ``(i, dial label)`` of every stored flag never put right (one read of
    the records for every kind)."""
    open_: dict[int, tuple[str, str]] = {}
    for rec_kind, content in store.conn.execute(
            "SELECT kind, content FROM records WHERE game_id = ? AND kind IN ('flag', "
            "'resolve') ORDER BY n", (gid,)):
        d = json.loads(content)["data"]
        open_.pop(d.get("i"), None)
        if rec_kind == "flag" and d.get("resolved") is None:
            open_[d["i"]] = (str(d.get("kind")), str(d["dial"]))
    out: dict[str, list[tuple[int, str]]] = {}
    for i, (kind, label) in open_.items():
        out.setdefault(kind, []).append((i, label))
    return out


def open_checks(store: GameStore, gid: int) -> list[tuple[int, str]]:
    """``(i, dial label)`` of every stored ``check`` flag never put right: dials restored from
    their sensors after a refused replay that the players had not checked when the host
    stopped (``tracker.restored``)."""
    return open_flags(store, gid, CHECK)


def eye_checks(store: GameStore, gid: int) -> list[EyeCheck]:
    """Every stored confirmation by eye (``eye`` records), in order."""
    out = []
    for (content,) in store.conn.execute("SELECT content FROM records WHERE game_id = ? AND "
                                         "kind = 'eye' ORDER BY n", (gid,)):
        d = json.loads(content)["data"]
        out.append(EyeCheck(str(d["dial"]), int(d["dock"]), int(d["reader"]),
                            str(d["figure"]), str(d["kind"]), int(d["click"]), d.get("rules"),
                            d.get("boot"), int(d["count"]), int(d["shift"]), str(d["by"]),
                            float(d["at"])))
    return out


def carry_eyes(store: GameStore, gid: int, tracker: Tracker, boot: int | None) -> list[str]:
    """A resumed host, before it reads the stored dials (``Resumed.snapshot``, of tray boot
    ``boot``): the dials whose encoder lost track and that players confirmed by eye in that
    boot keep their confirmation — the count is exact within a boot, and the stored positions
    are that boot's counts. Another boot's confirmations are never reused (the tray restarted
    since: the dial is lost again). Returns the labels carried on."""
    return eye.restore(tracker, eye_checks(store, gid), boot)


def carry_checks(rec: GameRecorder, now: float) -> list[str]:
    """A resumed host carries on the checks its predecessor left open: each stored one is
    closed as carried on (so the report never shows it as forgotten) and raised again on the
    resumed tracker, which the recorder stores as a new flag. Without this, a host stopped
    (killed) after storing the restored positions, before the players checked them, would
    hand its successor dials that look right and a flag nobody sees. Returns their labels.

    Its open ``fault`` flags (a sensor fault, an encoder's lost track) are closed as carried
    on too: the resumed tracker reads every sensor afresh and raises (and stores) its own."""
    t = rec.tracker
    open_ = _open_flags(rec.store, rec.gid)
    for i, label in open_.get(FAULT, []):  # read afresh: flagged again if still so
        rec.store.append(rec.gid, "resolve", {"i": i, "kind": FAULT, "dial": label,
                                              "how": "carried on by the restarted host (its "
                                              "sensor read afresh)", "at": now})
    checks = open_.get(CHECK, [])
    if t is None or not checks:
        return []
    for i, label in checks:
        rec.store.append(rec.gid, "resolve", {"i": i, "kind": CHECK, "dial": label,
                                              "how": "carried on by the restarted host",
                                              "at": now})
    return recheck(t, [label for _, label in checks], now)
