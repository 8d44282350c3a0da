"""A table's game in the store: stored as it is played (``CommandTable``, ``plain_table`` for a
game with no dials), and a running game picked, rebuilt and resynced with the tray for
``play --resume`` (issue 30: the game in progress is the table's; ``commands._store`` parses
``--db``, ``StorePlace.of`` names the database from the options). Store failures become
one-line errors (``TableError``, exit 2) naming the database."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dialrig import config

from dialtray.link.seqspace import unwrap
from dialtray.store import claim
from dialtray.store.consumer import resume_args, stored_dials
from dialtray.store.db import GameStore, StoreError, default_db
from dialtray.store.plain import PlainRecorder
from dialtray.store.recorder import GameRecorder
from dialtray.store.recording import RecordingTracker
from dialtray.store.resume import attach, carry_checks, carry_eyes, eye_checks, resume
from dialtray.store.table import StoredTable
from dialtray.table.build import game_tracker
from dialtray.table.errors import TableError
from dialtray.tracker import TableDice, Timing, Tracker
from dialtray.tracker.eye import latest

if TYPE_CHECKING:
    from dialtray.link.session import TraySession


@dataclass(frozen=True)
class StorePlace:
    """Where a table keeps its game: the database file, and the folder of the store's chain key
    and judge tokens (None: the store's own default). ``StorePlace.of`` makes it from the
    options ``--db``, ``--key-dir`` and the data directory."""

    db: Path
    key_dir: Path | None = None

    @classmethod
    def of(cls, options: Any) -> StorePlace:
        """Where the options put the game (``options``: parsed arguments, read by name).

        ``db`` (``--db PATH``; default: the game database in ``data_dir``) and ``key_dir``
        (``--key-dir``; default: ``keys`` in the data directory, issue 31: never in the game
        database; None when there is no data directory either).
        """
        data = getattr(options, "data_dir", None)
        db: Path | None = getattr(options, "db", None)
        if db is not None:
            db = db.expanduser()
        elif data is None:
            raise TypeError("StorePlace.of: neither db nor data_dir given")
        else:
            db = default_db(Path(data))
        given: Path | None = getattr(options, "key_dir", None)
        keys = (given.expanduser() if given is not None
                else Path(data) / "keys" if data is not None else None)
        return cls(db, keys)

    def open(self) -> GameStore:
        return GameStore.open(self.db, key_dir=self.key_dir)


class CommandTable(StoredTable):
    """For ``play`` and ``demo``: their game stored as it is played (a ``StoredTable``: every
    pump stores, then acknowledges), a store failure turned into the command's one-line error
    (exit 2) naming the database — the events it could not store stay unacknowledged on the
    tray. The session must run with ``ack_policy="manual"``."""

    @classmethod
    def open(cls, place: StorePlace, tracker: Tracker, session: TraySession,
             origin: str, on_ruling: Callable[[str], None] | None = None,
             extra: dict[str, Any] | None = None) -> CommandTable:
        try:
            store = place.open()
            rec = GameRecorder.start(store, tracker, origin=origin, extra=extra)
        except StoreError as e:
            raise TableError(str(e), 2) from e
        return cls(rec, session, on_ruling=on_ruling)

    def pump(self, timeout: float = 0.0) -> int:
        try:
            return super().pump(timeout)
        except StoreError as e:
            raise TableError(str(e), 2) from e

    def sync(self, timeout: float = 5.0) -> None:
        try:
            super().sync(timeout)
        except StoreError as e:
            raise TableError(str(e), 2) from e

    def close(self) -> None:
        try:
            super().close()
        except StoreError as e:
            raise TableError(str(e), 2) from e

    def stored_as(self) -> str:
        rec = self.recording.recorder
        return (f"stored as game {rec.gid} in {rec.store.path} (dialtray report {rec.gid}, "
                f"dialtray verify {rec.gid})")


# ---- play --resume ----------------------------------------------------------------------------


@dataclass
class Resuming:
    """A stored running game picked for ``play --resume`` (before the tray is opened: the
    session is made with ``session_args`` so the tray replays what was never stored)."""

    store: GameStore
    gid: int
    kind: str
    session_args: dict[str, Any]


def pick_resume(place: StorePlace, game: int | None, kinds: tuple[str, ...]) -> Resuming:
    """``--resume [GAME]``: that game, or (``game`` 0 or None) the latest running one;
    one-line errors, exit 2."""
    try:
        store = place.open()
    except StoreError as e:
        raise TableError(str(e), 2) from e
    try:
        gid = int(game or 0)
        if not gid:
            row = store.latest("running")
            if row is None:
                raise TableError(f"argument --resume: no running game in {store.path} to "
                                 "resume (see `dialtray games`)", 2)
            gid = row.id
        g = store.game(gid)
        if g.status != "running":
            raise TableError(f"argument --resume: game {gid} is {g.status}, not running: "
                             "nothing to resume (see `dialtray games`)", 2)
        if g.kind not in kinds:
            raise TableError(f"argument --resume: game {gid} is {g.kind!r}; `play` plays "
                             f"{' or '.join(kinds)}", 2)
        if not claim.claim(store.path, gid):  # one table a game (store.claim)
            raise TableError(f"argument --resume: {claim.busy(store.path, gid)}", 2)
        return Resuming(store, gid, g.kind, resume_args(store, gid))
    except StoreError as e:
        store.close()
        raise TableError(str(e), 2) from e
    except TableError:
        store.close()
        raise


def resumed_table(res: Resuming, dice: TableDice, session: TraySession,
                  clock: Callable[[], float] = time.monotonic
                  ) -> tuple[Tracker, CommandTable]:
    """The stored game rebuilt (replayed through its rules, verified), tracked from the dials
    as last stored, and recorded on into the same chain; subscribe (build this) before the
    session starts so the tray's replay is seen."""
    try:
        r = resume(res.store, res.gid, dice)
    except StoreError as e:
        raise TableError(str(e), 2) from e
    tracker = game_tracker(r.game, r.binding, dice, r.header, Timing())  # Sky Ace: Untracked
    if r.snapshot is not None:  # where the dials were when the last host stopped
        carry_eyes(res.store, res.gid, tracker, r.snapshot.boot_id)  # (that boot's only)
        tracker.feed(r.snapshot, clock())
    rec = attach(res.store, res.gid, tracker)
    carry_checks(rec, clock())  # dials restored from their sensors and not yet checked
    return tracker, CommandTable(rec, session, clock)


def sim_tray_for(res: Resuming, docks: int, rp2040: bool = False,
                 quadrature: bool = False) -> Any:
    """``--resume --sim``: the virtual tray did not outlive its host, so a new one is powered on
    (a new boot) with every dial where the store last saw it; the reboot reconciliation then
    finds them all in place. Its boot id comes from entropy, as a real board's does, so it
    never passes for the stored boot. ``rp2040``: on the emulated Pico (``--rp2040``).

    It is built as the stored game's tray was: the stored snapshot names each reader's sensor
    (``virtual.factory.tray_config``), so a game played on encoders (``--quadrature``) gets its
    encoders again — lost track in the new boot, confirmed by eye again — each placed where the
    last confirmation by eye of the stored boot puts it (its count plus the shift; the count
    alone, as on a first boot, when none was made). ``quadrature`` on a game stored with no
    encoders is refused."""
    from dialtray.virtual.factory import tray_config, virtual_tray
    from dialtray.virtual.tray import TICKS_PER_DETENT

    dials = list(res.session_args.get("resume_dials") or stored_dials(res.store, res.gid))
    need = max([docks, *(d.dock + 1 for d in dials)])
    if need > config.MAX_DOCKS:
        raise TableError(f"game {res.gid} used dock {need - 1}; the virtual tray has at "
                         f"most {config.MAX_DOCKS} docks", 2)
    if quadrature and dials and not any(d.sensor == "quadrature" for d in dials):
        raise TableError(f"argument --quadrature: game {res.gid} was played on a tray with no "
                         "encoders, and --resume --sim builds the tray it was played on", 2)
    cfg = tray_config(need, quadrature, {(d.dock, d.dial): d.sensor for d in dials} if dials
                      else None)
    shift = eye_shifts(res)
    vtray = virtual_tray(cfg, rp2040=rp2040, report=lambda _note: None)
    for d in dials:
        where = d.position + shift.get((d.dock, d.dial), 0) if d.sensor == "quadrature" \
            else d.position
        vtray.dials[vtray.dial_index(d.dock, d.dial)].ticks = where * TICKS_PER_DETENT
    return vtray.start()


def eye_shifts(res: Resuming) -> dict[tuple[int, int], int]:
    """Per (dock, reader): the shift of the latest confirmation by eye made in the tray boot the
    store resumes from (what maps that boot's counts onto the dial's clicks)."""
    boot = res.session_args.get("resume_from", (None, 0))[0]
    return {where: c.shift for where, c in latest(eye_checks(res.store, res.gid), boot).items()}


def resync(table: CommandTable, wait_s: float = 10.0) -> list[str]:
    """After a resume: ask the tray for a snapshot; the clicks it replays from before that
    snapshot were turned while no host listened and are marked so (flagged as moved while the
    host was away); the snapshot itself, fed once they are in, catches whatever the replay
    did not bring. Returns the labels of the dials that moved meanwhile (those read from their
    sensors because the tray's log no longer held their clicks are ``restored_labels``)."""
    rec = table.recording
    if all(st.seen is None for st in table.tracker.slots.values()):
        table.sync()  # nothing stored yet: the snapshot is the start
        return []
    session = table.session
    snap = session.snapshot(wait_s)
    rec.away_before = (snap.boot_id, snap.next_seq)
    stored = resume_point(rec)
    end = time.monotonic() + wait_s
    while time.monotonic() < end and stored is not None and stored[0] == snap.boot_id and \
            stored[1] < snap.next_seq - 1 and not _caught_up(session, snap):
        table.pump(0.05)  # the tray's replay of what was never stored
        stored = rec.last or stored
    table.pump(0.0)
    rec.away_before = None
    rec.feed(snap, table.clock())  # stored; compared at the next tick (in this pump)
    table.pump(0.0)
    return [st.label for st in table.tracker.slots.values() if st.away and not st.restored]


def carry_on(gid: int, sim: bool = False) -> tuple[str, str]:
    """For a stored game that is not over, the command that carries it on (``sim``: on a new
    virtual tray) and the one that closes it: every front end that stops says both."""
    return (f"dialtray play --resume {gid}{' --sim' if sim else ''}",
            f"dialtray games --close {gid} --reason TEXT")


def resumed_words(table: CommandTable, moved: list[str]) -> str:
    """What a resumed table tells the players about its dials (``moved``: ``resync``'s)."""
    said = [f"moved while the host was away: {', '.join(moved)} (flagged: put them back)"] \
        if moved else []
    checks = restored_labels(table)
    if checks:
        said.append("read from their sensors, the tray's log no longer holding their clicks: "
                    f"{', '.join(checks)} (flagged: check them)")
    return "; ".join(said) or "no dial moved while the host was away"


def restored_labels(table: CommandTable) -> list[str]:
    """The dials flagged to be checked: restored from their sensors after a refused replay
    (``tracker.restored``), this time or before the host restarted."""
    return [st.label for st in table.tracker.slots.values() if st.restored]


def _caught_up(session: TraySession, snap: Any) -> bool:
    """The session has delivered (or, its replay refused, restored from a snapshot) everything
    the tray had logged when ``snap`` was taken: nothing more of it will come to be stored.
    Without this, a refused replay (the tray's ring log overflowed) left ``resync`` waiting
    its whole ``wait_s`` for clicks that will never be replayed."""
    if session.boot_id != snap.boot_id or not session.expected:
        return False
    return session.expected >= unwrap(snap.next_seq, session.expected)


def resume_point(rec: RecordingTracker) -> tuple[int, int] | None:
    g = rec.recorder.store.game(rec.recorder.gid)
    return (g.boot_id, g.last_seq) if g.boot_id is not None and g.last_seq is not None else None


def plain_table(place: StorePlace, game: Any, header: list[tuple[str, str]],
                origin: str = "play") -> PlainRecorder:
    """A game with no dials (``play fasa``) stored as it is played; one-line errors, exit 2."""
    try:
        return PlainRecorder.start(place.open(), game, header, origin=origin)
    except StoreError as e:
        raise TableError(str(e), 2) from e
