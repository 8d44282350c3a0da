"""What a tracked game looks like right now, as plain data (for the terminal view, tests, JSON).

Nothing here decides anything: ``build_view`` reads the tracker and the game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker

MAX_LEGAL = 40


@dataclass(frozen=True)
class DockView:
    """One reader: which figure's dial, what it must show, how far it is from that."""

    dock: int
    reader: int  # 0 combat reader, 1 speed reader
    label: str
    figure: str
    kind: str
    click: int | None  # the click the rules say (None: not set yet)
    values: dict[str, int]
    colours: dict[str, str]
    in_play: bool
    turn: int  # signed clicks to turn so it agrees (+ clockwise); 0 when it does
    status: str  # "ok", "turn" (clicks due) or a flag kind


@dataclass(frozen=True)
class View:
    phase: str  # start-check, play, over
    to_move: str | None
    waiting_for: tuple[str, ...]
    docks: tuple[DockView, ...]
    flags: tuple[str, ...]  # open flags, each with its instruction
    notes: tuple[str, ...]  # the judge's record (peeks, disputes)
    last_roll: str | None
    legal: tuple[str, ...]  # the decisions that may be typed now (first MAX_LEGAL)
    legal_count: int
    history: int
    outcome: str | None
    vp: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def build_view(t: Tracker) -> View:
    from dialtray.tracker.tracker import PLAY

    game = t.game
    out = game.outcome()
    legal: list[str] = []
    count = 0
    if out is None and t.phase == PLAY:
        acts = game.legal_actions()
        count = len(acts)
        legal = [a.text() for a in acts[:MAX_LEGAL]]
    roll = t.dice.last
    return View(
        phase=t.phase,
        to_move=game.to_move(),
        waiting_for=tuple(t.waiting_for()),
        docks=tuple(t.docks()),
        flags=tuple(f.text for f in t.open_flags()),
        notes=tuple(t.notes[-6:]),
        last_roll=None if roll is None else f"{roll.purpose}: {' '.join(map(str, roll.faces))}",
        legal=tuple(legal),
        legal_count=count,
        history=len(game.history),
        outcome=None if out is None else f"{out.termination}; winner {out.winner or 'none'}",
        vp=dict(out.vp) if out is not None else {},
    )
