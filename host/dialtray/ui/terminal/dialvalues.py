"""What a bound dial shows at a sensed click: the figure on the dock and its values there.

`dialtray monitor --docks-file` reads the tracker's dock file (``tracker.binding``), sets up the
game `play` sets up (``table.games.new_game``) so the file's figure labels (A1, B2, the Aces
scenario's characters) mean the same figures, and words every click with the values printed in
that click's window, from the engine's catalogue. Nothing here judges a click: the monitor only
shows what the dial reads (the tracker decides whether the rules wanted it). A piece of the
terminal's view (it knows each engine's catalogue, which the tracker never does), kept out of
``commands/`` so the command only parses its arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialtray.rules.core.dials import ACE, COMBAT, SPEED, Dial
from dialtray.tracker.binding import Binding, Slot, read_binding

__all__ = ["FigureDials", "Slot", "Window", "load"]


@dataclass(frozen=True)
class Window:
    """The figure on a reader and what its dial's window shows at one click."""

    figure: str  # "A1: Ace Pilot (Brigand)"
    values: dict[str, int | str]
    note: str = ""  # "past the last click (9)", "KO"

    def text(self, click: int) -> str:
        shown = ", ".join(f"{k} {v}" for k, v in self.values.items())
        return f"{self.figure}, click {click}: " + (shown or "-") + \
            (f" [{self.note}]" if self.note else "")


class FigureDials:
    """The bound figures of one game: ``window(slot, click)`` for every bound reader."""

    def __init__(self, game_kind: str, binding: Binding, lookup: Callable[[Dial, int], Window],
                 describe: Callable[[Dial], str]) -> None:
        self.game_kind = game_kind
        self.binding = binding
        self._lookup = lookup
        self._describe = describe

    def window(self, slot: Slot, click: int) -> Window | None:
        dial = self.binding.dial_at(slot)
        return None if dial is None else self._lookup(dial, click)

    def lines(self) -> list[str]:
        """'dock 0 combat: A1 combat dial — Ace Pilot (Brigand)' for every bound reader."""
        return [f"{slot.text()}: {dial.text()} — {self._describe(dial)}"
                for slot, dial in self.binding.items()]


def load(path: Path, game_kind: str, docks: int | None = None) -> FigureDials:
    """The dock file at ``path`` for a new ``game_kind`` game, as ``play`` would bind it.
    BindingError naming the file and line when it does not fit the game (the monitor says it
    as a one-line argument error)."""
    from dialtray.rules.core.dice import SeededDice
    from dialtray.table.games import new_game
    from dialtray.tracker.dice import TableDice

    setup = new_game(game_kind, TableDice(SeededDice(0)), 0, 1)
    game: Any = setup.game
    binding = read_binding(path, docks, game.dials())
    if game_kind == "airaction":
        return FigureDials(game_kind, binding, *_airaction(game))
    return FigureDials(game_kind, binding, *_aces(game))


def _past(values: dict[str, int | str], last: int) -> Window:
    return Window("", values, f"past the dial's last click ({last})")


def _airaction(game: Any) -> tuple[Callable[[Dial, int], Window], Callable[[Dial], str]]:
    cat = game.cat
    planes = game.state.planes
    by_pilot = {ps.pilot: ps for ps in planes.values()}

    def describe(d: Dial) -> str:
        if d.kind == ACE:
            ace = cat.aces[by_pilot[d.figure].ace]
            return f"Ace {ace.name}"
        fig = cat.figures[planes[d.figure].figure]
        return f"{fig.pilot} ({fig.plane})"

    def lookup(d: Dial, click: int) -> Window:
        who = f"{d.figure} {d.kind}: {describe(d)}"
        if d.kind == ACE:
            dial = cat.aces[by_pilot[d.figure].ace].dial
            if not 0 <= click < len(dial):
                return _with(who, _past({}, len(dial) - 1))
            a = dial[click]
            return Window(who, {"attack": a.attack, "fate": a.fate, "ko": "yes" if a.ko else "no"})
        fig = cat.figures[planes[d.figure].figure]
        if d.kind == SPEED:
            if not 0 <= click < len(fig.speed_dial):
                return _with(who, _past({}, len(fig.speed_dial) - 1))
            p = fig.speed_dial[click]
            return Window(who, {"speed": p.speed} | ({"effect": p.effect} if p.effect else {}))
        if not 0 <= click < len(fig.combat_dial):
            return _with(who, _past({}, fig.last_click()))
        c = fig.combat_dial[click]
        values: dict[str, int | str] = {
            "max speed": c.max_speed, "front gunnery": c.front_gunnery,
            "rear gunnery": c.rear_gunnery, "piloting": c.piloting,
            "bullet holes": c.bullet_holes}
        if c.bail_out is not None:
            values["bail out"] = c.bail_out
        return Window(who, values)

    return lookup, describe


def _aces(game: Any) -> tuple[Callable[[Dial, int], Window], Callable[[Dial], str]]:
    chars = game.state.chars

    def describe(d: Dial) -> str:
        return str(chars[d.figure].figure.name)

    def lookup(d: Dial, click: int) -> Window:
        fig = chars[d.figure].figure
        who = f"{d.figure} {COMBAT}: {fig.name}"
        if click >= fig.ko_click:
            return Window(who, {}, "KO" if click == fig.ko_click else
                          f"past the KO click ({fig.ko_click})")
        if click < 0:
            return _with(who, _past({}, fig.ko_click))
        v = fig.dial[click]
        return Window(who, {"speed": v.speed, "attack": v.attack, "defense": v.defense,
                            "fate": v.fate})

    return lookup, describe


def _with(who: str, w: Window) -> Window:
    return Window(who, w.values, w.note)
