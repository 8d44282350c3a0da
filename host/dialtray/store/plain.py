"""Games with no dials stored as they are played (issue 31): FASA's board game (``play fasa``)
and any game an engine plays without a tracker. Each action is a record with its dice — every
face with its die (``sides``: FASA rolls d10s) — and its events, the engine's state in the game
row, the end when it comes: what ``dialtray verify`` replays and ``export`` writes, exactly as
for an imported log. Each action is one transaction (stored before the next is played)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from dialtray.rules.core.game import state_json
from dialtray.store.db import GameStore
from dialtray.store.recorder import outcome_data, result_text


class PlainRecorder:
    """``PlainRecorder.start(store, game, header, origin=…)``; ``played(...)`` after each
    action the game applied; ``close()``."""

    def __init__(self, store: GameStore, gid: int, game: Any) -> None:
        self.store = store
        self.gid = gid
        self.game = game
        self.ended = False

    @classmethod
    def start(cls, store: GameStore, game: Any, header: Iterable[tuple[str, str]], *,
              origin: str = "play", extra: dict[str, Any] | None = None) -> PlainRecorder:
        gid = store.new_game(game.kind, header=list(header),
                             seats=[(s, "") for s in game.seats()], origin=origin,
                             extra=extra, fields={"state_json": state_json(game)})
        return cls(store, gid, game)

    def played(self, faces: Sequence[int], sides: Sequence[int], how: str = "",
               seat: str | None = None) -> None:
        """The game's last action (just applied): stored with its dice, events and end."""
        g = self.game
        i = len(g.history) - 1
        entry = g.history[i]
        act: dict[str, Any] = {"i": i, "text": entry.action.text(), "faces": list(faces),
                               "events": [e.text() for e in entry.events], "how": how,
                               "seat": seat}
        if any(n != 6 for n in sides):
            act["sides"] = list(sides)
        self.store.append(self.gid, "action", act)
        for ch in g.dial_changes(i):
            self.store.append(self.gid, "expect", {"action": i, **ch.to_dict()})
        fields: dict[str, Any] = {"state_json": state_json(g)}
        out = g.outcome()
        if out is not None and not self.ended:
            self.ended = True
            self.store.append(self.gid, "end", outcome_data(out))
            fields.update(status="over", result=result_text(out))
        self.store.update_game(self.gid, **fields)
        self.store.commit()

    def stored_as(self) -> str:
        return (f"stored as game {self.gid} in {self.store.path} (dialtray verify {self.gid}, "
                f"dialtray export {self.gid})")

    def close(self) -> None:
        self.store.close()
