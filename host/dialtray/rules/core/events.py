"""Events, actions and the event log: the state is a pure fold of the log.

A rule set's game object keeps a list of ``Entry(action, events)``. ``apply(action)`` checks the
action against the current state, works out the events it causes (rolls, checks, clicks, removals,
VP ...) and folds each one into the state as it goes; ``undo()`` drops the last entry and re-folds.
The fold (``EventSourcedGame.fold``) depends only on the events (and read-only reference data such
as the figure catalogue), so a log always rebuilds the very same state.

Events are frozen dataclasses deriving from ``Event``; each has a one-line ``text()`` for reports
and logs (MegaMek's "report": data first, rendered later). Actions are small value objects with a
``text()`` that the rule set's notation parser reads back.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from dialtray.rules.core.dials import Dial, DialChange, DialSetting


class Event:
    """Base of every event. Subclasses are ``@dataclass(frozen=True)``."""

    def text(self) -> str:
        """A readable one-liner; subclasses override for nicer wording."""
        if dataclasses.is_dataclass(self):
            parts = [f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self)]
            return f"{type(self).__name__}({', '.join(parts)})"
        return type(self).__name__


class Action(Protocol):
    """A decision a player (or the table) makes; ``text()`` is its notation."""

    def text(self) -> str: ...


A = TypeVar("A", bound=Action)
S = TypeVar("S")


@dataclass(frozen=True)
class Entry(Generic[A]):
    """One applied action, every event it caused and the dial clicks those made, in order."""

    action: A
    events: tuple[Event, ...]
    dial_changes: tuple[DialChange, ...] = ()


Emit = Callable[[Event], None]


class EventSourcedGame(ABC, Generic[S, A]):
    """Machinery for a game whose state is the fold of its events.

    Subclasses implement ``initial_state`` (the empty state before the setup events) and
    ``apply_event`` (fold one event into a state, in place, no dice, no decisions). For the dial
    vocabulary (``core.dials``) they implement ``dial_settings(state)`` and
    ``dial_changes_of(state, event)`` (the clicks ``event`` makes, given the state before it).
    """

    def __init__(self, setup_events: Iterable[Event]) -> None:
        self._setup: tuple[Event, ...] = tuple(setup_events)
        self._entries: list[Entry[A]] = []
        self._history: tuple[Entry[A], ...] | None = ()  # ``history``, until an action changes it
        self.state: S = self.fold(self._setup)

    # -- the fold ---------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S: ...

    @abstractmethod
    def apply_event(self, state: S, event: Event) -> None: ...

    def fold(self, events: Iterable[Event]) -> S:
        """The state after ``events``, computed from scratch (pure and deterministic)."""
        state = self.initial_state()
        for e in events:
            self.apply_event(state, e)
        return state

    # -- history ----------------------------------------------------------------------------
    @property
    def setup_events(self) -> tuple[Event, ...]:
        return self._setup

    @property
    def history(self) -> Sequence[Entry[A]]:
        """Applied actions with their events, oldest first (python-chess's ``move_stack``).

        The same tuple until an action is applied or undone: the tracker asks for its length
        at every click (whether the game moved on), and a fresh tuple of every action per
        click grew with the game (issue 35)."""
        h = self._history
        if h is None:
            h = self._history = tuple(self._entries)
        return h

    def events(self) -> Iterator[Event]:
        """Every event so far: setup first, then each action's."""
        yield from self._setup
        for entry in self._entries:
            yield from entry.events

    def add_setup(self, event: Event) -> None:
        """Append a setup event before the first action (a log's ``Position:`` header, a
        judge's set-up) and rebuild the state."""
        if self._entries:
            raise RuntimeError("setup events go before the first action")
        self._setup = (*self._setup, event)
        self.state = self.fold(self._setup)

    # -- dials (core.dials) ------------------------------------------------------------------
    def dial_settings(self, state: S) -> dict[Dial, DialSetting]:
        """What every dial shows in ``state``; rule sets with dials override."""
        return {}

    def dial_changes_of(self, state: S, event: Event) -> tuple[DialChange, ...]:
        """The clicks ``event`` makes on the dials, ``state`` being the state just before it."""
        return ()

    def dials(self) -> dict[Dial, DialSetting]:
        """What every dial must show now."""
        return self.dial_settings(self.state)

    def initial_dials(self) -> dict[Dial, DialSetting]:
        """What every dial showed after setup, before the first action."""
        return self.dial_settings(self.fold(self._setup))

    def dial_changes(self, index: int = -1) -> tuple[DialChange, ...]:
        """The clicks caused by history entry ``index`` (default: the last action)."""
        return self._entries[index].dial_changes

    def event_count(self) -> int:
        return len(self._setup) + sum(len(e.events) for e in self._entries)

    def _transaction(self, action: A, produce: Callable[[Emit], Any]) -> tuple[Event, ...]:
        """Run ``produce(emit)``; each emitted event is folded at once so later rules see it.

        If ``produce`` raises (an illegal action found late, dice that ran out), the state is
        rebuilt from the log, so a refused action leaves no trace.
        """
        buf: list[Event] = []
        clicks: list[DialChange] = []

        def emit(event: Event) -> None:
            clicks.extend(self.dial_changes_of(self.state, event))
            self.apply_event(self.state, event)
            buf.append(event)

        try:
            produce(emit)
        except BaseException:
            if buf:
                self.state = self.fold(self.events())
            raise
        events = tuple(buf)
        self._entries.append(Entry(action, events, tuple(clicks)))
        self._history = None
        return events

    def undo(self) -> Entry[A]:
        """Take back the last action (python-chess's ``pop``); returns what was undone."""
        if not self._entries:
            raise IndexError("undo: no action to take back")
        entry = self._entries.pop()
        self._history = None
        self.state = self.fold(self.events())
        return entry

    def rebuilt_state(self) -> S:
        """The state re-derived from the whole log (equal to ``state``; used by tests)."""
        return self.fold(self.events())
