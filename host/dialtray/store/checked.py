"""A stored game's chain read and checked with the right key: what verify, export, the report
and the judge's tools all start from (issue 31).

A game is *keyed* when its row names the key that MACs its records (``key_id``); it is checked
with the host's key when the ids agree, and is *foreign* (keyed by another host's key: the MACs
cannot be checked here) when they do not. A game with no ``key_id`` is *unkeyed*: written before
keyed chains, or stripped of its MACs by someone holding the file — its plain SHA-256 chain
still shows an accidental change, never a deliberate one.
"""

from __future__ import annotations

import hmac
import sqlite3
from collections.abc import Container
from typing import Any

from dialtray.store.chain import Broken, check_chain
from dialtray.store.db import GameRow, GameStore, StoreError

KEYED, UNKEYED, FOREIGN = "keyed", "unkeyed", "foreign"


def key_state(store: GameStore, g: GameRow) -> str:
    if not g.key_id:
        return UNKEYED
    if store.key is None or store.key.id != g.key_id:
        return FOREIGN
    return KEYED


def checked_chain(store: GameStore, g: GameRow, decode: Container[str] | None = None
                  ) -> tuple[list[dict[str, Any]], Broken | None, str]:
    """The decoded records (those of ``decode``'s kinds), the first break, the key state. A
    keyed game's row is checked against its seal too (count, head, status, result, state)."""
    state = key_state(store, g)
    key = store.key if state == KEYED else None
    try:
        data, broken = check_chain(g.id, store.rows(g.id, g.records), g.records, g.head, decode,
                                   key)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # damaged past per-record reads
        return [], Broken(1, f"the records cannot be read from the file ({e})"), state
    if broken is None and key is not None:
        want = key.seal(g.id, g.kind, g.records, g.head, g.status, g.result, g.state_json)
        if not isinstance(g.seal, str) or not hmac.compare_digest(want.encode(),
                                                             g.seal.encode("utf-8", "replace")):
            broken = Broken(g.records, "the game row (its status, result, state or head) was "
                            "changed outside dialtray: its seal does not fit")
    return data, broken, state


def stored_records(store: GameStore, gid: int) -> list[dict[str, Any]]:
    """A game's records, decoded, after checking the chain (StoreError naming the record)."""
    g = store.game(gid)
    data, broken, _state = checked_chain(store, g)
    if broken is not None:
        raise StoreError(f"{store.path}: game {gid} fails verification at {broken} "
                         "(see `dialtray verify`)")
    if not data or data[0].get("kind") != "game":
        raise StoreError(f"{store.path}: game {gid} is incomplete: it has no setup record "
                         "(its creation was interrupted; see `dialtray verify`)")
    return data
