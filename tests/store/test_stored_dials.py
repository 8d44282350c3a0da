"""A restarted host's picture of the dials (``store.consumer.stored_dials``): read from the end
of a long game, it must be exactly what reading every record from the start gives."""

from __future__ import annotations

import random
from pathlib import Path

from dialtray.link.messages import Click, DialState, Snapshot
from dialtray.store import GameStore
from dialtray.store.consumer import _stored_dials_forward, stored_dials
from dialtray.store.payload import data_of


def test_stored_dials_from_the_end_equal_a_full_read(tmp_path: Path) -> None:
    store = GameStore.open(tmp_path / "g.sqlite3")
    gid = store.new_game("aces")
    rng = random.Random(7)
    pos = {(d, r): rng.randrange(12) for d in range(4) for r in range(2)}
    seq = 0
    assert stored_dials(store, gid) == []  # nothing stored yet: nothing known
    for round_ in range(3):  # a snapshot, then clicks; again (a reconnect)
        seq += 1
        snap = Snapshot(0, 9, seq, tuple(DialState(d, r, "as5600", 0, 12, p)
                                         for (d, r), p in sorted(pos.items())))
        store.append(gid, "device", data_of(snap, 9))
        for _ in range(300 if round_ < 2 else 5):
            seq += 1
            d, r = rng.randrange(4), rng.randrange(2) if round_ < 2 else 0
            step = rng.choice((1, -1))
            pos[(d, r)] = (pos[(d, r)] + step) % 12
            store.append(gid, "device", data_of(Click(seq, d, r, pos[(d, r)], step), 9))
        store.commit()
        got = {(s.dock, s.dial): s.position for s in stored_dials(store, gid)}
        assert got == pos
        assert sorted(stored_dials(store, gid), key=lambda s: (s.dock, s.dial)) == \
            sorted(_stored_dials_forward(store, gid), key=lambda s: (s.dock, s.dial))
    store.close()
