"""A tray in memory: the table's link when no tray is there (tests, the monkey, a game of FASA or
Sky Ace without a tray). Every turn becomes the ``Click`` event the link would deliver, at once;
its clock is virtual and moves on by itself at each pump, so a dial rests long enough to be
judged without anyone waiting for it (no sleeping in tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dialtray.link.messages import Click, DialState, Snapshot
from dialtray.tracker import Tracker
from dialtray.tracker.binding import Slot

DETENTS = 12
STEP_S = 0.3  # virtual seconds per pump: past the quick judge time (``table.QUICK``)


@dataclass
class PaperLink:
    """``TrackedTray``'s shape (``tracker``, ``clock``, ``pump``, ``sync``, ``close``) plus the
    hand that turns its dials (``turn``)."""

    tracker: Tracker
    now: float = 0.0
    seq: int = 0
    pos: dict[Slot, int] = field(default_factory=dict)

    def clock(self) -> float:
        return self.now

    def sync(self, timeout: float = 0.0) -> None:
        """Every dial where it rests (0, its start click, unless turned before)."""
        for slot in self.tracker.binding.slots():
            self.pos.setdefault(slot, 0)
        dials = tuple(DialState(s.dock, s.dial, "as5600", 0, DETENTS, p % DETENTS)
                      for s, p in sorted(self.pos.items()))
        self.seq += 1
        self.tracker.feed(Snapshot(0, 1, self.seq, dials, "connect"), self.now)

    def turn(self, slot: Slot, clicks: int) -> None:
        step = 1 if clicks > 0 else -1
        for _ in range(abs(clicks)):
            self.seq += 1
            self.pos[slot] = self.pos.get(slot, 0) + step
            self.tracker.feed(Click(self.seq, slot.dock, slot.dial, self.pos[slot] % DETENTS,
                                    step), self.now)

    def pump(self, timeout: float = 0.0) -> int:
        self.now += STEP_S
        self.tracker.tick(self.now)
        return 0

    def wake(self) -> None:
        pass

    def close(self) -> None:
        pass
