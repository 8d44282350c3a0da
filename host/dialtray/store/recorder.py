"""What a tracked game writes to the store: every device event, rules action, expectation,
flag, confirmation and dice roll, as hash-chained records (``db``, ``chain``).

The recorder sits downstream of the tracker (sensor → link → tracker → engine → *store*): it is
handed each tray event, feeds it to the tracker, then writes what the event and the tracker
produced. It reads the tracker's public lists (``game.history``, ``lines``, ``flags``,
``confirmed``, ``notes``) and never changes them. Nothing is durable until ``commit()``; the
caller acknowledges tray events only after it (``consumer``).

Record kinds: ``game`` (setup), ``device`` (a tray event), ``action`` (text, faces, events,
who), ``expect`` (one DialChange: dial, clicks, direction, rule id, cause), ``confirm``,
``flag``, ``resolve``, ``note`` (for the judge), ``refused`` (a decision the rules refused),
``dice`` (faces, purpose, source, fairness commitment), ``eye`` (a dial whose encoder lost
track confirmed by a player: which click, who, the tray boot and the encoder's count, the shift
the tracker adds to that boot's counts), ``judge`` / ``judge-refused``
(rulings, ``judge``), ``end`` (the outcome).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from typing import Any

from dialtray.link.messages import Click, TrayEvent
from dialtray.rules.core.game import Game, plain, state_json
from dialtray.rules.core.notation import parse_sided_faces
from dialtray.store import claim
from dialtray.store.chain import content_of
from dialtray.store.db import GameStore
from dialtray.store.payload import click_content, data_of, device_heads, flag_content
from dialtray.tracker import Binding, Roll, TableDice, Tracker
from dialtray.tracker.binding import READERS

log = logging.getLogger("dialtray.store")


def figures_of(binding: Binding) -> list[tuple[str, str, int | None, int | None]]:
    return [(d.figure, d.kind, s.dock, s.dial) for s, d in binding.items()]


def dice_source(dice: Any) -> dict[str, Any]:
    """Which dice a game rolls with, and the fair-dice commitment when there is one."""
    inner = dice.inner if isinstance(dice, TableDice) else dice
    out: dict[str, Any] = {"source": type(inner).__name__}
    commitment = getattr(inner, "commitment", None)
    if isinstance(commitment, bytes):  # a committed (verifiably fair) dice session
        out["commitment"] = commitment.hex()
        out["session"] = getattr(inner, "session_id", 0)
        nonce = getattr(inner, "nonce", None)
        if isinstance(nonce, bytes):
            out["nonce"] = nonce.hex()
    link = getattr(inner, "link", None)
    if link is not None and not isinstance(link, str):
        inner2 = getattr(link, "commitment", None)
        if isinstance(inner2, bytes):
            out["commitment"] = inner2.hex()
    return out


class GameRecorder:
    """Records one game. Build with :meth:`start` (a new stored game) or :meth:`attach`."""

    def __init__(self, store: GameStore, gid: int, game: Game,
                 tracker: Tracker | None = None, *, flag_base: int | None = None) -> None:
        """``flag_base``: an attached recorder (``resume.attach``), given the flags already
        stored: it numbers on from them and stores every flag its tracker has raised so far
        (those its stored dials raised: a sensor fault, an encoder lost track)."""
        self.store = store
        self.gid = gid
        self.game = game
        self.tracker = tracker
        self.clock = time.time
        self._hist = len(game.history)
        self._lines = len(tracker.lines) if tracker else 0
        self._flags = len(tracker.flags) if tracker and flag_base is None else 0
        # A flag record's "i" (its resolve's too) is unique in the game: an attached recorder
        # (a resumed host, whose tracker counts its flags from 0 again) numbers on from the
        # flags already stored (``resume.attach``), or the report takes one flag for another.
        self.flag_base = flag_base or 0
        self._open: dict[int, Any] = {}
        self._confirmed = len(tracker.confirmed) if tracker else 0
        self._notes = len(tracker.notes) if tracker else 0
        self._eyes = len(tracker.eyes) if tracker else 0
        self._state_at = -1
        self._ended = False
        self._faces: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # (faces, sides)
        self._rolls: list[Roll] = []
        if tracker is not None:
            self._hook_dice(tracker.dice)

    # ---- building -----------------------------------------------------------------------------

    @classmethod
    def start(cls, store: GameStore, tracker: Tracker, *, origin: str = "play",
              extra: dict[str, Any] | None = None) -> GameRecorder:
        """A new stored game for ``tracker`` (its header, seats, figures and dock binding)."""
        g = tracker.game
        gid = store.new_game(g.kind, header=tracker.header, seats=[(s, "") for s in g.seats()],
                             figures=figures_of(tracker.binding), origin=origin,
                             extra={"dice": dice_source(tracker.dice),
                                    "readers": list(READERS), **(extra or {})},
                             state_json=state_json(g))
        claim.claim(store.path, gid)  # this process plays it: a second table is refused
        rec = cls(store, gid, g, tracker)
        rec._state_at = len(g.history)
        return rec

    @classmethod
    def for_game(cls, store: GameStore, game: Game, header: Iterable[tuple[str, str]], *,
                 origin: str, extra: dict[str, Any] | None = None) -> GameRecorder:
        """A new stored game with no tracker (an imported log, a bench): actions are handed in
        with :meth:`action`."""
        gid = store.new_game(game.kind, header=header, seats=[(s, "") for s in game.seats()],
                             origin=origin, extra=extra, state_json=state_json(game))
        rec = cls(store, gid, game)
        rec._state_at = len(game.history)
        return rec

    def _hook_dice(self, dice: TableDice) -> None:
        prev = dice.on_roll

        def on_roll(r: Roll) -> None:
            self._rolls.append(r)
            if prev is not None:
                prev(r)
        dice.on_roll = on_roll

    # ---- in -----------------------------------------------------------------------------------

    def device(self, ev: TrayEvent, boot: int | None, now: float) -> None:
        """One tray event, stored and fed to the tracker (in that order: what the tracker makes
        of it follows it in the chain)."""
        if type(ev) is Click:
            gid = self.gid
            self.store.append_content(gid, "device",
                                      lambda n: click_content(gid, n, self.clock(), ev, boot))
        else:
            self.store.append(self.gid, "device", data_of(ev, boot), at=self.clock())
        if self.tracker is not None:
            self.tracker.feed(ev, now)
            self.sync()

    def devices(self, evs: Sequence[TrayEvent], boot: int | None, now: float) -> None:
        """Tray events that arrived together (one pump's queue, one boot), stored and fed to
        the tracker in order: the same records, numbers and chain as ``device`` one by one,
        with one time for the batch (tested: ``test_batch_path.py``). The batch path (issue
        35): the tracker takes the events in one call and says which did more than note a
        click (``Tracker.feed_many``); the device records are made in one pass (up to their
        numbers: ``payload.device_heads``) and queued with one call, a peek's flag record
        among them, in order; anything else the tracker made is recorded by ``sync``."""
        t = self.tracker
        if t is None or len(evs) < 2:
            for ev in evs:
                self.device(ev, boot, now)
            return
        store, gid = self.store, self.gid
        at = round(self.clock(), 3)
        heads = device_heads(gid, at, evs, boot)
        rows: list[tuple[int, int, str, bytes]] = []
        n = store.next_number(gid)
        done = 0

        def upto(i: int) -> None:  # the device records of events done..i
            nonlocal done, n
            for j in range(done, i + 1):
                h = heads[j]
                rows.append((gid, n, "device", b"%b%d}" % (h, n) if h is not None else
                             content_of(gid, n, "device", at, data_of(evs[j], boot))))
                n += 1
            done = i + 1

        def after(i: int) -> None:  # event i made more than a click note: record it now
            nonlocal n
            upto(i)
            f = self._peek_only()
            if f is not None:
                rows.append((gid, n, "flag", self._flag_bytes(self._flags - 1, f, n, at)))
                n += 1
                return
            store.queue_numbered(gid, rows)
            rows.clear()
            self.sync()
            n = store.next_number(gid)

        t.feed_many(evs, now, after)
        upto(len(evs) - 1)
        store.queue_numbered(gid, rows)

    def _peek_only(self) -> Any:
        """The flag the tracker raised since the last sync when that is all it did — a peek:
        one flag born settled and its note, no action, roll, confirmation or open flag —
        counted as ``sync`` counts it (its record is the caller's to make); else None."""
        t = self.tracker
        assert t is not None
        flags, notes = t.flags, t.notes
        if len(flags) != self._flags + 1 or len(notes) != self._notes + 1 or self._open or \
                self._rolls or len(t.confirmed) != self._confirmed:
            return None
        f = flags[-1]
        if f.resolved is None or notes[-1] != f.text:
            return None
        lines = t.lines
        for k in range(self._lines, len(lines)):
            line = lines[k]
            if type(line) is str and not line.startswith("#"):
                return None  # an action line: sync reads it
        self._lines = len(lines)
        self._flags += 1
        self._notes += 1
        return f

    def tick(self, now: float) -> None:
        if self.tracker is not None:
            self.tracker.tick(now)
            self.sync()

    def decide(self, text: str, now: float, seat: str | None = None) -> Any:
        """A typed decision through the tracker; a refusal is recorded with its reason."""
        assert self.tracker is not None
        r = self.tracker.decide(text, now, seat)
        if not r.ok:
            self.store.append(self.gid, "refused", {"text": text, "seat": seat,
                                                    "why": r.message})
        self.sync()
        return r

    def action(self, text: str, faces: Sequence[int], how: str = "") -> None:
        """(No tracker.) Apply one action to the game, then record it."""
        action = self.game.parse_action(text)
        self._faces.append((tuple(faces), ()))
        self.game.apply(action)
        self._record_actions(how)

    # ---- out ----------------------------------------------------------------------------------

    def sync(self) -> None:
        """Record whatever the tracker and the game made since the last sync. Called per tray
        event: it only looks further when the tracker's lists grew (``game.history`` is a
        fresh tuple per call, so it is read only after the tracker wrote an action line)."""
        t = self.tracker
        if t is None:
            if len(self.game.history) != self._hist:
                self._record_actions("")
            return
        lines = t.lines
        acted = False
        if len(lines) != self._lines:
            for line in lines[self._lines:]:
                if type(line) is str and not line.startswith("#"):
                    first = line.split("\n", 1)[0]
                    _, bar, dice = first.partition("|")
                    self._faces.append(parse_sided_faces(dice, "tracker", 0) if bar
                                       else ((), ()))
                    acted = True
            self._lines = len(lines)
        if self._rolls:
            for r in self._rolls:
                self.store.append(self.gid, "dice", {"purpose": r.purpose,
                                                     "faces": list(r.faces),
                                                     **dice_source(t.dice)})
            self._rolls.clear()
        if acted and len(self.game.history) != self._hist:
            self._record_actions("")
        flags = t.flags
        new_texts: set[str] | None = None
        if len(flags) != self._flags:
            new_texts = set()
            for i in range(self._flags, len(flags)):
                f = flags[i]
                if f.resolved is None:
                    self._open[i] = f
                self._flag(i, f)
                new_texts.add(f.text)
            self._flags = len(flags)
        if self._open:
            for i, f in list(self._open.items()):
                if f.resolved is not None:
                    self.store.append(self.gid, "resolve", {"i": self.flag_base + i,
                                                            "kind": f.kind,
                                                            "dial": f.label,
                                                            "how": f.resolution,
                                                            "at": f.resolved})
                    del self._open[i]
        if len(t.confirmed) != self._confirmed:
            for c in t.confirmed[self._confirmed:]:
                self.store.append(self.gid, "confirm", {
                    "text": c.text, "figure": c.dial.figure, "dial": c.dial.kind,
                    "clicks": c.clicks, "seq": c.seq, "free": c.free, "at": c.at})
            self._confirmed = len(t.confirmed)
        if len(t.eyes) != self._eyes:  # dials confirmed by eye: a player's word, for the judge
            for e in t.eyes[self._eyes:]:
                self.store.append(self.gid, "eye", {**e.to_dict(), "text": e.text()})
            self._eyes = len(t.eyes)
        if len(t.notes) != self._notes:
            for note in t.notes[self._notes:]:
                if new_texts is None or note not in new_texts:  # a peek's note is its flag's
                    self.store.append(self.gid, "note", {"text": note})  # text: stored there
            self._notes = len(t.notes)

    def _flag(self, i: int, f: Any) -> None:
        """A flag record; one born settled (a peek) says both in one record."""
        gid = self.gid
        at = round(self.clock(), 3)
        self.store.append_content(gid, "flag", lambda n: self._flag_bytes(i, f, n, at))

    def _flag_bytes(self, i: int, f: Any, n: int, at: float) -> bytes:
        """A flag record's canonical content (from a template when it can)."""
        gid = self.gid
        i += self.flag_base
        made = flag_content(gid, n, at, i, f.kind, f.label, f.text, f.raised, f.resolved,
                            f.resolution)
        if made is None:
            data: dict[str, Any] = {"i": i, "kind": f.kind, "dial": f.label, "text": f.text,
                                    "at": f.raised}
            if f.resolved is not None:
                data.update(resolved=f.resolved, how=f.resolution)
            made = content_of(gid, n, "flag", at, data)
        return made

    def _record_actions(self, how: str) -> None:
        hist = self.game.history
        for i in range(self._hist, len(hist)):
            entry = hist[i]
            faces, sides = self._faces.pop(0) if self._faces else ((), ())
            act: dict[str, Any] = {"i": i, "text": entry.action.text(), "faces": list(faces),
                                   "events": [e.text() for e in entry.events], "how": how,
                                   "seat": None}
            if any(n != 6 for n in sides):  # each face on its die: FASA rolls d10s
                act["sides"] = list(sides)
            self.store.append(self.gid, "action", act)
            for ch in stored_changes(self.game, i):
                self.store.append(self.gid, "expect", {"action": i, **ch.to_dict()})
        self._hist = len(hist)
        out = self.game.outcome()
        if out is not None and not self._ended:
            self._ended = True
            self.store.append(self.gid, "end", outcome_data(out))
            self.store.update_game(self.gid, status="over", result=result_text(out))

    def undone(self) -> None:
        """The game's last action was taken back (a judge's ruling): recount the history."""
        self._hist = len(self.game.history)
        if self.game.outcome() is None and self._ended:
            self._ended = False
            self.store.update_game(self.gid, status="running", result="")

    def checkpoint(self) -> None:
        """Queue the game's state for the next commit (when it changed)."""
        if len(self.game.history) != self._state_at:
            self._state_at = len(self.game.history)
            self.store.update_game(self.gid, state_json=state_json(self.game))

    def commit(self) -> None:
        self.checkpoint()
        self.store.commit()


def stored_changes(game: Any, index: int) -> tuple[Any, ...]:
    """The dial changes action ``index`` makes, as ``dialtray verify`` replays them: a game
    with no dial on the docks (``table.build.Untracked``: Sky Ace's LIFE counters on the LED
    dice) hides its engine's changes from the tracker, not from the store."""
    engine = getattr(game, "engine_changes", None)
    return tuple(engine(index) if engine is not None else game.dial_changes(index))


def outcome_data(out: Any) -> dict[str, Any]:
    return {"termination": str(out.termination), "winner": out.winner,
            "vp": {str(k): int(v) for k, v in out.vp.items()},
            "how": plain(getattr(out, "how", None))}


def result_text(out: Any) -> str:
    vp = " ".join(f"{k}:{v}" for k, v in out.vp.items())
    who = f"{out.winner} wins" if out.winner else "no winner"
    return f"{who} ({out.termination}; VP {vp})"
