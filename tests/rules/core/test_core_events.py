"""The event-log fold, transactions and undo of the shared core."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Emit, Event, EventSourcedGame


@dataclass(frozen=True)
class Added(Event):
    n: int


@dataclass
class Counter:
    total: int = 0
    seen: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Add:
    n: int

    def text(self) -> str:
        return f"add {self.n}"


class Toy(EventSourcedGame[Counter, Add]):
    def initial_state(self) -> Counter:
        return Counter()

    def apply_event(self, state: Counter, event: Event) -> None:
        assert isinstance(event, Added)
        state.total += event.n
        state.seen.append(event.n)

    def apply(self, action: Add) -> tuple[Event, ...]:
        def produce(emit: Emit) -> None:
            emit(Added(action.n))
            if self.state.total > 10:  # a rule found only after a first event
                raise IllegalActionError(action.text(), "over ten", "X-M01", "Toy")
            emit(Added(0))

        return self._transaction(action, produce)


def test_fold_undo_and_refused_action_leaves_no_trace() -> None:
    g = Toy([Added(1)])
    g.apply(Add(2))
    g.apply(Add(3))
    assert g.state.total == 6
    assert g.state == g.rebuilt_state()
    before = Counter(g.state.total, list(g.state.seen))
    with pytest.raises(IllegalActionError) as info:
        g.apply(Add(9))
    assert info.value.mechanic == "X-M01" and "Toy" in str(info.value)
    assert g.state == before and len(g.history) == 2
    undone = g.undo()
    assert undone.action == Add(3) and g.state.total == 3
    g.undo()
    assert g.state.total == 1
    with pytest.raises(IndexError):
        g.undo()
    assert g.event_count() == 1


def test_history_is_one_tuple_until_an_action_changes_it() -> None:
    """``history`` is kept, not rebuilt per call (the tracker asks for its length at every
    click, issue 35), and follows every apply, refusal and undo."""
    g = Toy([Added(1)])
    assert g.history == () and g.history is g.history
    g.apply(Add(2))
    first = g.history
    assert [e.action for e in first] == [Add(2)] and g.history is first
    with pytest.raises(IllegalActionError):
        g.apply(Add(20))
    assert g.history is first
    g.apply(Add(3))
    assert [e.action for e in g.history] == [Add(2), Add(3)] and first == (first[0],)
    g.undo()
    assert [e.action for e in g.history] == [Add(2)]
    g.undo()
    assert g.history == ()
