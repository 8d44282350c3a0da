"""A seat that picks a random decision from those on screen (``Table.view().offers``) and turns
the dials the screen asks for — now and then one click too many, put right when flagged."""

from __future__ import annotations

import random

from dialtray.table import Table, offers

MAX_PUMPS = 20000


def play(table: Table, rng: random.Random, slips: float = 0.05) -> int:
    """Play the people's seats until the game ends; returns the pumps it took. Fails loudly
    (with what the tray waits for) when the game does not end."""
    for n in range(MAX_PUMPS):
        if table.over:
            return n
        v = table.view()
        if v.due:  # what the screen says to turn
            d = rng.choice(v.due)
            owner = table.setup.owner(table.t.slots[next(s for s in table.t.slots
                                                        if s.dock == d.dock and
                                                        s.dial == d.reader)].dial)
            if owner in table.humans or d.flagged or v.tracker_phase != "play":
                extra = 1 if (rng.random() < slips and not d.flagged) else 0
                table.turn(d.dock, d.reader, d.clicks + (extra if d.clicks > 0 else -extra))
        elif (v.mover == "human" or (v.mover == "table" and v.offers)) and v.offers:
            choice = rng.choice(offers.flat(v.offers))
            r = table.decide(choice, v.to_move)
            assert r.ok or "waits for the dials" in r.message or r.retry, r.message
        table.pump()
    raise AssertionError(f"the game did not end: {table.view().waiting_for}")
