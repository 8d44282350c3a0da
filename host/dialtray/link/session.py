"""The host's end of the tray link: one connection, kept alive across cables, reboots and noise.

Recovery follows the DGT board and MegaMek's reconnect: on every (re)connection the host says
hello, learns the device's boot id and sequence range, and then

* same boot, replay window still holds what we missed → REPLAY from our next expected sequence;
* same boot, the window has moved on (REPLAY_GAP) → full SNAPSHOT, and the difference between
  what we knew and the snapshot is delivered as recovered clicks;
* new boot (the tray rebooted) → SNAPSHOT and REPLAY from seq 1; quadrature dials report that
  they lost track, because incremental encoders cannot know what happened while they were off.

Events are delivered exactly once and in sequence order. Commands are numbered, acknowledged and
resent when the ACK does not come back; the device recognises a resent command and does not act
twice. The protocol work is :class:`dialtray.link.engine.LinkEngine`, on one background thread
that owns the port; this module is what callers use.

What the session can claim is its ``state`` (:mod:`dialtray.link.state`): LIVE only while
nothing is known to be missing; ``synced`` is derived from it. An error on the link thread ends
the session in FAILED and is raised again (SessionFailed) from wait_synced(), wait_state(),
stream() and every command — the thread never dies silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

from dialrig import config, proto

from dialtray.link import revive, sided
from dialtray.link.bootstream import BootStream
from dialtray.link.commands import CommandEncoder, sensor_in_use, set_dial_fields, show_dice_fields
from dialtray.link.engine import LinkEngine, Pending, patient
from dialtray.link.messages import (
    ACK_NAMES,
    Ack,
    DialState,
    DiceRolled,
    LinkState,
    Snapshot,
    Stats,
    TrayEvent,
)
from dialtray.link.reconcile import DialMemory
from dialtray.link.seqspace import to_wire, unwrap
from dialtray.link.state import (
    CONNECTED,
    SessionFailed,
    SessionState,
    StateChange,
    StateFlag,
)
from dialtray.link.transport import LinkDown, SerialTransport, Transport

__all__ = ["CommandFailed", "SessionFailed", "SessionState", "StateChange", "TraySession"]

log = logging.getLogger("dialtray.link")

ANSWER_WAIT_S = 0.3
BACKOFF_FIRST_S = 0.05
BACKOFF_MAX_S = 0.5  # a replugged Pico enumerates in about a second: look often
LIVE = frozenset({SessionState.LIVE})


class CommandFailed(RuntimeError):
    """The device refused a command (bad arguments, unknown) or never acknowledged it."""

    ack: Ack | None = None  # the refusal, when the device answered one


class _ConsumerAcks(CommandEncoder):
    """ack_policy="manual": every cumulative acknowledgement the link sends (ACK_EVENTS and the
    HEARTBEAT's next-expected) is held back to what the consumer has acknowledged
    (``TraySession.acknowledge``), so an event is acknowledged only once it is stored."""

    def __init__(self, session: TraySession, inner: CommandEncoder) -> None:
        super().__init__(inner.next_id, inner.writer)
        self.session = session

    def _held(self, wire: int) -> int:
        s, acked = self.session._stream, self.session._consumer_ack
        if s is None or acked is None or acked[0] != s.boot_id:
            return 1  # nothing of this boot stored yet: acknowledges nothing (the tray ignores
            # an acknowledgement below what it already counts as acknowledged)
        return to_wire(min(unwrap(wire, acked[1]), acked[1]))

    def ack_events(self, next_expected: int) -> bytes:
        return super().ack_events(self._held(next_expected))

    def heartbeat(self, next_expected: int) -> bytes:
        return super().heartbeat(self._held(next_expected))


class TraySession(LinkEngine):
    """A connection to one tray. Use as a context manager, or start()/stop().

    ``ack_policy="manual"``: the consumer decides when events are acknowledged to the tray
    (``acknowledge(boot_id, seq)`` once they are stored); until then the tray keeps offering them.
    ``resume_from=(boot_id, last_seq)``: carry on from a stored point (a restarted host): the
    same boot replays from ``last_seq + 1``; another boot goes through the usual reboot
    reconciliation against ``resume_dials`` (the stored positions, ``DialState``s).
    """

    def __init__(self, port: str | None = None, *, connect: Callable[[], Transport] | None = None,
                 name: str = "tray", ack_policy: str = "auto",
                 resume_from: tuple[int, int] | None = None,
                 resume_dials: Iterable[DialState] = ()) -> None:
        super().__init__(name)
        if ack_policy not in ("auto", "manual"):
            raise ValueError(f"ack_policy must be 'auto' or 'manual', not {ack_policy!r}")
        self._connect: Callable[[], Transport] = connect or (lambda: SerialTransport.open(port))
        self.synced = StateFlag(self._cell, LIVE)  # read-only: is_set() / wait()
        self.connected = StateFlag(self._cell, CONNECTED)
        self._thread: threading.Thread | None = None
        self._next_roll = 1
        self.ack_policy = ack_policy
        self._consumer_ack: tuple[int, int] | None = None  # (boot, next count not yet stored)
        if ack_policy == "manual":
            self._encoder = _ConsumerAcks(self, self._encoder)
        for d in resume_dials:
            self.dials[(d.dock, d.dial)] = DialMemory(d.sensor, d.detents, d.position)
        if resume_from is not None:
            boot, last = resume_from
            self._stream = BootStream(boot, last + 1, self.counters)
            self._last_boot = boot
            self._consumer_ack = (boot, last + 1)

    def acknowledge(self, boot_id: int, seq: int) -> None:
        """ack_policy="manual": every event of boot ``boot_id`` up to ``seq`` (a count, as
        delivered) is stored; the link may now acknowledge them to the tray."""
        cur = self._consumer_ack
        if cur is None or cur[0] != boot_id or seq + 1 > cur[1]:
            self._consumer_ack = (boot_id, seq + 1)

    @property
    def acknowledged(self) -> tuple[int, int] | None:
        """(boot id, last acknowledged seq) under ack_policy="manual"; None before any."""
        a = self._consumer_ack
        return None if a is None else (a[0], a[1] - 1)

    # ---- lifecycle and state -------------------------------------------------------------------

    def start(self) -> TraySession:
        self._thread = threading.Thread(target=self._run, name=f"{self.name}-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self._cell.set(SessionState.STOPPED, "stopped")

    def __enter__(self) -> TraySession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def state(self) -> SessionState:
        return self._cell.state

    @property
    def error(self) -> BaseException | None:
        """What ended the session when it is FAILED."""
        return self._cell.error

    @property
    def state_history(self) -> list[StateChange]:
        return list(self._cell.history)

    @property
    def boot_id(self) -> int | None:
        return self._stream.boot_id if self._stream else None

    @property
    def expected(self) -> int:
        """The next sequence number (a count, see seqspace) to deliver; 0 while not in sync."""
        return self._stream.expected if self._stream else 0

    def wait_state(self, *states: SessionState, timeout: float | None = 10.0) -> SessionState:
        """Block until the session is in one of ``states``; SessionFailed if it fails first."""
        return self._cell.wait_for(frozenset(states), timeout)

    def wait_synced(self, timeout: float = 10.0) -> None:
        """Block until LIVE. Raises SessionFailed if the session's thread died, TimeoutError
        naming the state it is stuck in otherwise."""
        try:
            self._cell.wait_for(LIVE, timeout)
        except TimeoutError as e:
            raise TimeoutError(f"no synchronised tray after {timeout:.0f} s: {e}") from None

    def on_state(self, listener: Callable[[StateChange], None]) -> None:
        """Call ``listener`` (on the changing thread) for every state change."""
        self._cell.subscribe(listener)

    def off_state(self, listener: Callable[[StateChange], None]) -> None:
        self._cell.unsubscribe(listener)

    def subscribe(self, listener: Callable[[TrayEvent], None], *, first: bool = False) -> None:
        """Call ``listener`` (on the link thread) for every delivered event, after the
        listeners subscribed before it; ``first``: before them. A listener that raises ends
        the session (FAILED): its error is not swallowed.

        ``first`` is for a listener that must hear of an event before anyone acts on it and
        only notes it: the camera witness (``table.camera.EncoderWitness``). Told after a
        tracker's queue, it could hear of a settle only once the tracker's thread had fed it
        and a hand had turned the dial on: its read asked too late, timed from then."""
        with self._lock:
            if first:
                self._listeners.insert(0, listener)
            else:
                self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    async def stream(self) -> AsyncIterator[TrayEvent]:
        """Every delivered event, for asyncio code; raises SessionFailed if the session fails."""
        loop = asyncio.get_running_loop()
        q: asyncio.Queue[TrayEvent | None] = asyncio.Queue()

        def forward(ev: TrayEvent | None) -> None:
            with contextlib.suppress(RuntimeError):  # the consumer's event loop has closed
                loop.call_soon_threadsafe(q.put_nowait, ev)

        def on_change(change: StateChange) -> None:
            if change.new == SessionState.FAILED:
                forward(None)

        self.subscribe(forward)
        self.on_state(on_change)
        try:
            self._cell.raise_if_failed()
            while True:
                ev = await q.get()
                if ev is None:
                    self._cell.raise_if_failed()
                    continue
                yield ev
        finally:
            self.unsubscribe(forward)
            self.off_state(on_change)

    # ---- commands (any thread) -----------------------------------------------------------------

    def request(self, mtype: int, fmt: str, *fields: int | bytes, timeout: float = 3.0) -> Ack:
        self._cell.raise_if_failed()
        cmd_id, frame = self._encoder.command(mtype, fmt, *fields)
        p = Pending(mtype, cmd_id, frame, user=True)
        self._outbox.put(p)
        if not p.done.wait(patient(timeout)):
            self._cell.raise_if_failed()
            raise TimeoutError(f"command 0x{mtype:02x} not acknowledged within {timeout:.1f} s")
        self._cell.raise_if_failed()
        if p.ack is None:
            raise CommandFailed(p.error or "no acknowledgement")
        if p.ack.status not in (proto.ACK_OK, proto.ACK_REJECTED):
            refused = CommandFailed(f"tray refused command 0x{mtype:02x}: "
                                    f"{ACK_NAMES.get(p.ack.status, p.ack.status)}")
            refused.ack = p.ack
            raise refused
        return p.ack

    def _ask(self, mtype: int, waiters: list[tuple[threading.Event, list[Any]]],
             timeout: float, what: str) -> Any:
        """Send a command whose answer is a separate message; ask again while the answer is
        lost (its ACK may well have arrived: the answer is the larger, likelier-damaged frame),
        and while the command is not acknowledged at all (a tray busy, or off the CPU, for longer
        than a command's 8 tries): these commands change nothing, so asking again is safe, and
        the caller's ``timeout`` is the only limit."""
        got: list[Any] = []
        ev = threading.Event()
        with self._lock:
            waiters.append((ev, got))
        deadline = time.monotonic() + patient(timeout)
        while time.monotonic() < deadline:
            try:
                self.request(mtype, proto.CMD_ID_FMT,
                             timeout=max(0.1, deadline - time.monotonic()))
            except CommandFailed as e:
                if e.ack is not None:
                    raise  # the tray answered and refused: asking again changes nothing
                self.counters["commands asked again"] += 1
                continue
            except TimeoutError:
                break
            if ev.wait(min(ANSWER_WAIT_S, max(0.0, deadline - time.monotonic()))):
                self._cell.raise_if_failed()
                return got[0]
        self._cell.raise_if_failed()
        raise TimeoutError(f"no {what} from the tray within {timeout:.1f} s")

    def snapshot(self, timeout: float = 3.0) -> Snapshot:
        snap: Snapshot = self._ask(proto.C_SNAPSHOT, self._snapshot_waiters, timeout, "snapshot")
        return snap

    def stats(self, timeout: float = 3.0) -> Stats:
        stats: Stats = self._ask(proto.C_STATS, self._stats_waiters, timeout, "statistics")
        return stats

    def roll_dice(self, n: int, timeout: float = 3.0) -> DiceRolled:
        """Ask the tray to roll n d6 from its hardware entropy; returns the faces it logged."""
        with self._lock:
            req = self._next_roll
            self._next_roll = req % 255 + 1
            ev = threading.Event()
            got: list[DiceRolled] = []
            self._dice_waiters[req] = (ev, got)
        self.request(proto.C_ROLL_DICE, proto.ROLL_FMT, n, req, timeout=timeout)
        if not ev.wait(patient(timeout)) or not got:
            self._cell.raise_if_failed()
            raise TimeoutError(f"the tray did not report the {n} dice it rolled")
        return got[0]

    def roll_led_dice(self, count: int, purpose: str) -> tuple[int, ...]:
        """The rules engines' tray dice (``rules.core.dice.TrayDiceLink``): ``count`` d6 from the
        tray's hardware entropy, in batches of at most the 12 dice the LED panel shows."""
        log.info("%s: rolling %dd6 on the tray for %s", self.name, count, purpose)
        faces: list[int] = []
        try:
            while len(faces) < count:
                batch = min(config.MAX_DICE, count - len(faces))
                faces.extend(self.roll_dice(batch).faces)
        except CommandFailed as e:
            raise ConnectionError(f"the tray could not roll for {purpose}: {e}") from e
        return tuple(faces)

    def roll_sided(self, n: int, sides: int, rolls: int = 1,
                   timeout: float = 5.0) -> list[tuple[int, ...]]:
        """``rolls`` rolls of n dice of ``sides`` sides by the firmware, in one ROLL_SIDED
        command (``dialtray.link.sided``); the last is shown on the LED panel."""
        with self._lock:
            req = self._next_roll
            self._next_roll = req % 255 + 1
        return sided.roll_sided(self, req, n, sides, rolls, timeout)

    def roll_led_dice_sided(self, count: int, purpose: str, sides: int) -> tuple[int, ...]:
        """``rules.core.dice.SidedTrayDiceLink``: ``count`` dice of ``sides`` sides rolled by
        the firmware and shown on the LED panel (a d10 on the d10 ring), at most 12 a roll."""
        log.info("%s: rolling %dd%d on the tray for %s", self.name, count, sides, purpose)
        faces: list[int] = []
        try:
            while len(faces) < count:
                batch = min(config.MAX_DICE, count - len(faces))
                faces.extend(self.roll_sided(batch, sides)[0])
        except (CommandFailed, ValueError) as e:  # ValueError: a die the tray cannot roll
            raise ConnectionError(f"the tray could not roll for {purpose}: {e}") from e
        return tuple(faces)

    def show_dice(self, faces: list[int], colours: list[int]) -> None:
        self.request(proto.C_SHOW_DICE, proto.SHOW_DICE_FMT, *show_dice_fields(faces, colours))

    def set_dial(self, dock: int, dial: int, settings: dict[str, int | str]) -> None:
        """Reconfigure one dial; CommandFailed naming both dials if another reads that sensor."""
        try:
            self.request(proto.C_SET_DIAL, proto.SET_DIAL_FMT, dock, dial,
                         *set_dial_fields(settings))
        except CommandFailed as e:
            if e.ack is not None and e.ack.status == proto.ACK_IN_USE:
                raise CommandFailed(sensor_in_use(dock, dial, settings, e.ack.info)) from e
            raise

    def set_timing(self, settle_ms: int, sample_ms: int) -> None:
        self.request(proto.C_SET_TIMING, proto.SET_TIMING_FMT, settle_ms, sample_ms)

    def diagnostics(self, on: bool, period_ms: int = 100) -> None:
        self.request(proto.C_DIAG, proto.DIAG_CMD_FMT, int(on), period_ms if on else 0)

    def reboot(self) -> None:
        self.request(proto.C_REBOOT, proto.CMD_ID_FMT)

    # ---- the link thread -----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._keep_connected()
        except BaseException as e:  # whatever it is, the caller must hear of it
            log.exception("%s: the link thread stopped on an error", self.name)
            self._fail(e)

    def _fail(self, e: BaseException) -> None:
        """Record the error, then wake everyone who waits so they raise it."""
        self._cell.fail(e, f"{type(e).__name__}: {e}")
        with self._lock:
            waiters = self._snapshot_waiters + self._stats_waiters + list(
                self._dice_waiters.values())
        for ev, _ in waiters:
            ev.set()
        for p in list(self._pending.values()):
            p.error = f"the session failed: {e!r}"
            p.done.set()
        while True:
            try:
                p = self._outbox.get_nowait()
            except queue.Empty:
                break
            p.error = f"the session failed: {e!r}"
            p.done.set()

    def _keep_connected(self) -> None:
        backoff = BACKOFF_FIRST_S
        reported_down = False
        while not self._stop.is_set():
            try:
                transport = revive.guard(self._connect(), self.name)
            except LinkDown as e:
                if not reported_down:
                    self._deliver(LinkState(0, False, str(e)))
                    reported_down = True
                self._set_state(SessionState.DOWN if self.counters["connects"] else
                                SessionState.CONNECTING, str(e))
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX_S)
                continue
            backoff = BACKOFF_FIRST_S
            reported_down = False
            self.counters["connects"] += 1
            try:
                self._serve(transport)
            except LinkDown as e:
                self._set_state(SessionState.DOWN, str(e))
                self._deliver(LinkState(0, False, str(e)))
                reported_down = True
            finally:
                self._serving = False
                transport.close()
                self._sync_counters()
