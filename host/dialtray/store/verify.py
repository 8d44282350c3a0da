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
from dialtray.store.chain import Broken, check_chain
from dialtray.store.db import GameRow, GameStore
from dialtray.store.recorder import outcome_data

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

    @property
    def ok(self) -> bool:
        return self.broken is None and not self.problem

    def text(self) -> str:
        g = self.game
        if self.broken is not None:
            return f"game {g.id}: FAILED at {self.broken}"
        if self.problem:
            return f"game {g.id}: FAILED: {self.problem}"
        return (f"game {g.id}: ok ({self.records} records, {self.actions} actions: chain intact, "
                "replay reaches the recorded state)")


class Replaying:
    """The replay's dice: the recorded faces (``manual``) while replaying, then ``live`` —
    so a resumed game rolls on with real dice once it has caught up."""

    def __init__(self, manual: ManualDice) -> None:
        self.manual = manual
        self.live: DiceSource | None = None

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        src = self.live if self.live is not None else self.manual
        return tuple(src.roll(count, purpose))


def verify_game(store: GameStore, gid: int, dice_after: DiceSource | None = None) -> Verdict:
    """``dice_after``: the dice the replayed game (``Verdict.replayed``) rolls with afterwards
    (default: none; a roll raises, as the recorded faces are used up)."""
    g = store.game(gid)
    data, broken = check_chain(gid, store.rows(gid), g.records, g.head, REPLAYED)
    v = Verdict(g, g.records, data=data)
    if broken is not None:
        v.broken = broken
        return v
    if not data or data[0]["kind"] != "game":
        v.broken = Broken(1, "the first record is not the game's setup")
        return v
    setup = data[0]["data"]
    seats = [list(s) for s in store.seats(gid)]
    figures = sorted(list(f) for f in store.figures(gid))
    if setup.get("kind") != g.kind or [list(s) for s in setup.get("seats", [])] != seats or \
            sorted(list(f) for f in setup.get("figures", [])) != figures:
        v.problem = ("the game row, its seats or its figures/dock bindings differ from the "
                     "setup in record 1 (changed outside dialtray)")
        return v
    replay(v, setup, dice_after)
    return v


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
            if d["faces"]:
                dice.feed(tuple(d["faces"]))
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
        elif kind == "judge" and d.get("ruling") == "undo":
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
