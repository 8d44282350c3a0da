"""Helpers for the FASA tests: games set up at a chosen position, dice typed in as d10s, a
refusal checked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event
from dialtray.rules.core.game import state_json
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import FasaAction
from dialtray.rules.fasa.game import FasaGame
from dialtray.rules.fasa.hexmap import from_offset
from dialtray.rules.fasa.tables import SHIPPED


def d10(*faces: int) -> ManualDice:
    return ManualDice(faces, sides=10)


def placed(plane: str, seat: str, sheet: str, col: int, row: int, facing: str, speed: int,
           home: str = "") -> ev.PlanePlaced:
    return ev.PlanePlaced(plane, seat, sheet, from_offset(col, row), "ABCDEF".index(facing),
                          speed, home or ("south" if seat == "P1" else "north"))


def game(planes: Sequence[ev.PlanePlaced], extra: Sequence[Event] = (),
         dice: ManualDice | None = None, map_name: str = "sample-blank",
         combat: Sequence[str] | None = None, fractional: bool = False,
         collision_damage: bool = False, sealed: bool = False) -> FasaGame:
    """A game at a set position; ``combat`` starts it in the Combat Phase with that order."""
    setup: list[Event] = [ev.GameSetup(map_name, ("P1", "P2"), 12, sealed, fractional,
                                       collision_damage), *planes, *extra]
    if combat is not None:
        setup.append(ev.Phase("combat", 1, tuple(combat)))
    return FasaGame(dice if dice is not None else d10(), setup)


def feed(g: FasaGame, *faces: int) -> None:
    assert isinstance(g.dice, ManualDice)
    g.dice.feed(faces, sides=10)


def refused(g: FasaGame, action: str | FasaAction, rule: str) -> IllegalActionError:
    """The engine refuses action naming the mechanic rule, and the state is unchanged."""
    before = state_json(g)
    with pytest.raises(IllegalActionError) as caught:
        g.apply(action)
    assert caught.value.rule.mechanic == rule, caught.value
    assert state_json(g) == before
    return caught.value


def done(g: FasaGame, plane: str) -> None:
    """FS-M68: a plane that launched may launch more this round; it passes if it still can."""
    from dialtray.rules.fasa.actions import Pass

    if g.state.current() == plane:
        g.apply(Pass(plane))


def shipped(name: str) -> dict[str, Any]:
    """A shipped sample table's document (``data/fasa/tables/NAME.json``), to edit."""
    doc: dict[str, Any] = json.loads((SHIPPED / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def owner(tmp_path: Path, **files: dict[str, Any]) -> Path:
    """An owner's tables directory holding ``files`` (name -> document)."""
    d = tmp_path / "box"
    d.mkdir(exist_ok=True)
    for name, doc in files.items():
        (d / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
    return d
