"""Game kinds: how ``dialtray replay`` finds the rule set named by a log's ``Game:`` line.

A rule set plugs in by defining, in its package ``__init__`` (``dialtray.rules.<pkg>``), a
module-level ``GAME_KIND`` object satisfying ``GameKind``. ``kinds()`` discovers every subpackage
of ``dialtray.rules`` that has one, so adding a rule set never edits a shared file. A package that
fails to import is reported by ``discovery_errors()`` instead of breaking the other kinds.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.events import Action, Event
from dialtray.rules.core.notation import GameLog


@runtime_checkable
class ReplayableGame(Protocol):
    """What replay needs from a game object."""

    def parse_action(self, text: str) -> Action:
        """Read one action's notation; ``InvalidActionError`` if it does not parse."""
        ...

    def apply(self, action: Action) -> Sequence[Event]:
        """Apply it (``IllegalActionError`` if the rules forbid it); the events it caused."""
        ...

    def report(self) -> str:
        """The final dials and the VP table, as printed by ``dialtray replay``."""
        ...


@runtime_checkable
class GameKind(Protocol):
    name: str  # the value of the log's ``Game:`` line, lower case
    title: str  # e.g. "Crimson Skies: Air Action"

    def new_game(self, log: GameLog, dice: DiceSource) -> ReplayableGame:
        """Build the game from the log's header; ``NotationError`` (file:line) if it is bad."""
        ...


_registered: dict[str, GameKind] = {}
_errors: dict[str, str] = {}
_discovered = False


def register(kind: GameKind) -> None:
    _registered[kind.name.lower()] = kind


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import dialtray.rules as rules_pkg

    for info in pkgutil.iter_modules(rules_pkg.__path__):
        if not info.ispkg or info.name == "core":
            continue
        modname = f"{rules_pkg.__name__}.{info.name}"
        try:
            module = importlib.import_module(modname)
        except Exception as exc:  # a broken rule set must not hide the others
            _errors[modname] = f"{type(exc).__name__}: {exc}"
            continue
        kind = getattr(module, "GAME_KIND", None)
        if kind is not None and isinstance(kind, GameKind):
            _registered.setdefault(kind.name.lower(), kind)


def kinds() -> dict[str, GameKind]:
    _discover()
    return dict(_registered)


def _direct(name: str) -> GameKind | None:
    """The kind from its own package only (``dialtray.rules.<name>``), without importing every
    other rule set: a host resuming one stored game pays for its own engine alone."""
    found = _registered.get(name)
    if found is not None or not name.isidentifier() or name == "core":
        return found
    try:
        module = importlib.import_module(f"dialtray.rules.{name}")
    except Exception:  # not (or a broken) package: full discovery decides and reports it
        return None
    kind = getattr(module, "GAME_KIND", None)
    if kind is not None and isinstance(kind, GameKind):
        _registered.setdefault(kind.name.lower(), kind)
    return _registered.get(name)


def get(name: str) -> GameKind:
    found = _direct(name.lower()) or kinds().get(name.lower())
    if found is None:
        known = ", ".join(sorted(kinds())) or "none"
        raise KeyError(f"unknown game kind {name!r} (known: {known})")
    return found


def discovery_errors() -> dict[str, str]:
    _discover()
    return dict(_errors)
