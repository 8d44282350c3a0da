"""``dialtray verify``: is a stored game exactly what was played?

Three checks, each naming the first record that does not fit:

1. the hash chain (``chain.check_chain``): every byte of every record, their order, none missing;
2. the game row against its ``game`` record (kind, seats, figures and dock bindings);
3. a replay through the rules engine (the game kind from the core registry, dice fed back from
   each ``action`` record as ``dialtray replay`` does): each action must be legal, use exactly
   its recorded dice and cause exactly its recorded events and dial changes (``expect``); judge
   undos are applied; and the replay must reach the state stored in the game row.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from dialtray.rules.core import registry
from dialtray.rules.core.dice import DiceSource, ManualDice
from dialtray.rules.core.errors import (
    CatalogueError,
    DiceError,
    IllegalActionError,
    InvalidActionError,
    NotationError,
)
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import format_log, parse_log
from dialtray.store.chain import GENESIS, Broken
from dialtray.store.checked import FOREIGN, KEYED, UNKEYED, checked_chain
from dialtray.store.db import GameRow, GameStore, StoreError
from dialtray.store.recorder import outcome_data, result_text

REPLAYED = frozenset({"game", "action", "expect", "judge", "end"})
"""The record kinds the replay reads; the others are checked by their hashes alone."""


@dataclass
class Verdict:
    game: GameRow
    records: int = 0
    actions: int = 0
    broken: Broken | None = None
    problem: str = ""  # a problem that is no record's (the game row)
    replayed: Any = None  # the game as replayed (None when the chain broke)
    data: list[dict[str, Any]] = field(default_factory=list)
    keys: str = KEYED  # keyed (MACs checked with this host's key), unkeyed, foreign
    incomplete: bool = False  # a game row with no records: its creation was interrupted
    note: str = ""  # appended to an intact game's line (verify --hub)

    @property
    def ok(self) -> bool:
        """Intact: chain, row and replay (whether it could be keyed-checked or not)."""
        return self.broken is None and not self.problem and not self.incomplete

    @property
    def vouched(self) -> bool:
        """Intact AND checked with the key that wrote it: an edit by someone holding the file
        would have been found."""
        return self.ok and self.keys == KEYED

    def text(self) -> str:
        g = self.game
        if self.incomplete:
            return (f"game {g.id}: incomplete (its creation was interrupted before its setup "
                    "record was stored; nothing of it was played)")
        if self.broken is not None:
            return f"game {g.id}: FAILED at {self.broken}"
        if self.problem:
            return f"game {g.id}: FAILED: {self.problem}"
        what = (f"{self.records} records, {self.actions} actions: chain intact, replay reaches "
                f"the recorded state{self.note}")
        if self.keys == UNKEYED:
            return (f"game {g.id}: UNKEYED, intact as far as a plain hash can tell ({what}); its "
                    "chain is not keyed, so anyone holding the file could have rewritten it")
        if self.keys == FOREIGN:
            return (f"game {g.id}: intact, but keyed by another host's key ({g.key_id}), not "
                    f"this one's: its MACs and seal are not checked ({what}); verify it where "
                    "it was played, or with --key-dir")
        return f"game {g.id}: ok ({what}; keyed chain and seal checked)"


class Replaying:
    """The replay's dice: the recorded faces (``manual``) while replaying, then ``live`` —
    so a resumed game rolls on with real dice once it has caught up."""

    def __init__(self, manual: ManualDice) -> None:
        self.manual = manual
        self.live: DiceSource | None = None

    def roll(self, count: int, purpose: str, sides: int = 6) -> tuple[int, ...]:
        if self.live is None:
            return tuple(self.manual.roll(count, purpose, sides))
        if sides == 6:
            return tuple(self.live.roll(count, purpose))
        return tuple(self.live.roll(count, purpose, sides))  # type: ignore[call-arg]


def verify_game(store: GameStore, gid: int, dice_after: DiceSource | None = None) -> Verdict:
    """``dice_after``: the dice the replayed game (``Verdict.replayed``) rolls with afterwards
    (default: none; a roll raises, as the recorded faces are used up). Never raises for a
    damaged game: what cannot be read or does not fit is the verdict (a StoreError when not
    even its row can be read)."""
    try:
        g = store.game(gid)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        raise StoreError(f"{store.path}: game {gid}: its row cannot be read from the file "
                         f"({e})") from e
    v = Verdict(g, g.records)
    if g.records == 0 and g.head == GENESIS:
        first = next(iter(store.rows(gid, 1)), None)
        if first is None:
            v.incomplete = True
            return v
    data, broken, v.keys = checked_chain(store, g, REPLAYED)
    v.data = data
    if broken is not None:
        v.broken = broken
        return v
    if not data or data[0]["kind"] != "game":
        v.broken = Broken(1, "the first record is not the game's setup")
        return v
    try:
        setup = data[0]["data"]
        seats = [list(s) for s in store.seats(gid)]
        figures = sorted(list(f) for f in store.figures(gid))
        if setup.get("kind") != g.kind or [list(s) for s in setup.get("seats", [])] != seats \
                or sorted(list(f) for f in setup.get("figures", [])) != figures:
            v.problem = ("the game row, its seats or its figures/dock bindings differ from the "
                         "setup in record 1 (changed outside dialtray)")
            return v
        replay(v, setup, dice_after)
        if v.ok:
            check_row(v, setup)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        v.problem = f"the game's seats or figures cannot be read from the file ({e})"
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as e:
        v.problem = (f"a record's data is not what dialtray writes ({type(e).__name__}: "
                     f"{str(e)[:80]}): changed outside dialtray")
    return v


def expected_row(v: Verdict, setup: dict[str, Any]) -> tuple[str, str]:
    """The status and result the records say (issue 31: the games table's ``status`` and
    ``result`` are what ``games`` and ``report`` show, so verify holds them to the records):
    ended by a judge's ``end`` ruling, else over when the replay reaches the end, else running
    (``imported`` for an unfinished imported log)."""
    ended = [r for r in v.data if r["kind"] == "judge" and r["data"].get("ruling") == "end"]
    if ended:
        return "ended", f"ended by the judge: {ended[-1]['data']['args']['reason']}"
    out = v.replayed.outcome() if v.replayed is not None else None
    if out is not None:
        return "over", result_text(out)
    return ("imported" if setup.get("origin") == "import" else "running"), ""


def check_row(v: Verdict, setup: dict[str, Any]) -> None:
    status, result = expected_row(v, setup)
    g = v.game
    if (g.status, g.result) != (status, result):
        v.problem = (f"the games table says {g.status!r}" + (f" ({g.result})" if g.result else "")
                     + f", the records say {status!r}" + (f" ({result})" if result else "")
                     + " (the game row was changed outside dialtray)")


def new_game_from(setup: dict[str, Any], name: str) -> tuple[Any, ManualDice, Replaying]:
    """The game a ``game`` record describes, built by its kind (``core.registry``)."""
    header = [(str(k), str(val)) for k, val in setup.get("header", [])]
    log = parse_log(format_log(str(setup["kind"]), header, []), name)
    kind = registry.get(log.kind)
    dice = ManualDice()
    source = Replaying(dice)
    return kind.new_game(log, source), dice, source


def replay(v: Verdict, setup: dict[str, Any], dice_after: DiceSource | None = None) -> None:
    gid = v.game.id
    try:
        game, dice, source = new_game_from(setup, f"game {gid}")
    except (KeyError, NotationError, IllegalActionError, InvalidActionError, DiceError,
            CatalogueError) as e:
        v.broken = Broken(1, f"the rules engine cannot set this game up: {e}")
        return
    due: list[dict[str, Any]] = []
    for rec in v.data[1:]:
        n, kind, d = rec["n"], rec["kind"], rec["data"]
        if kind == "expect":
            want = due.pop(0) if due else None
            got = {k: val for k, val in d.items() if k != "action"}
            if want != got:
                v.broken = Broken(n, f"expects {got.get('clicks')} click(s) on "
                                  f"{got.get('figure')} {got.get('dial')}, the replay "
                                  f"{'makes no such change' if want is None else want}")
                return
            continue
        if due and kind != "expect":
            v.broken = Broken(n, f"an expectation is missing before it (the replay makes "
                              f"{due[0]['clicks']} click(s) on {due[0]['figure']} "
                              f"{due[0]['dial']})")
            return
        if kind == "action":
            dice.clear()
            if d["faces"]:  # each face on its die: FASA rolls d10s (issue 31)
                dice.feed(tuple(d["faces"]), d.get("sides") or 6)
            try:
                events = game.apply(game.parse_action(d["text"]))
            except (IllegalActionError, InvalidActionError, DiceError) as e:
                v.broken = Broken(n, f"'{d['text']}' does not replay: {e}")
                return
            if dice.remaining:
                v.broken = Broken(n, f"'{d['text']}' leaves {dice.remaining} recorded die "
                                  "face(s) unused")
                return
            texts = [e.text() for e in events]
            if texts != d["events"]:
                v.broken = Broken(n, f"'{d['text']}' now causes {texts}, the record says "
                                  f"{d['events']}")
                return
            due = [ch.to_dict() for ch in game.dial_changes()]
            v.actions += 1
        elif kind == "judge" and d.get("ruling") == "undo" and "in_log" not in d:
            if not game.history:
                v.broken = Broken(n, "a judge's undo with no action to undo")
                return
            game.undo()
        elif kind == "end":
            out = game.outcome()
            if out is None or outcome_data(out) != d:
                v.broken = Broken(n, "the recorded end of the game is not where the replay "
                                  "ends")
                return
    if due:
        v.broken = Broken(v.records, "expectations of the last action are missing")
        return
    v.replayed = game
    source.live = dice_after
    if v.game.state_json is not None and state_json(game) != v.game.state_json:
        v.problem = (f"the replay of its {v.records} records does not reach the state stored in "
                     "the game row (the row was changed, or records are missing)")
