"""A commit chains onto the game row it last wrote without reading it again (issue 35:
``store.chainwrite``), and still onto the row *as stored* when anything else moved it: another
writer's records, a hand edit of the row. Counted by statements, never timed."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from pathlib import Path

from dialtray.store.checked import KEYED, checked_chain
from dialtray.store.db import GameStore
from dialtray.store.keys import ChainKey


def _sound(store: GameStore, gid: int) -> bool:
    """Chain, MACs and the row's seal all check with the host's key."""
    _, broken, state = checked_chain(store, store.game(gid))
    return broken is None and state == KEYED


def _statements(store: GameStore) -> list[str]:
    seen: list[str] = []
    store.conn.set_trace_callback(lambda sql: seen.append(sql.split(" ", 2)[0]))
    return seen


def test_a_commit_after_our_own_is_begin_insert_update_commit(tmp_path: Path) -> None:
    st = GameStore.open(tmp_path / "g.sqlite3")
    gid = st.new_game("airaction", origin="test")
    st.append(gid, "note", {"text": "first"})
    st.commit()
    seen = _statements(st)
    st.append(gid, "note", {"text": "second"})
    st.update_game(gid, boot_id=7, last_seq=1)
    st.commit()
    assert seen == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
    assert _sound(st, gid)
    st.close()


def test_records_another_writer_added_meanwhile_are_chained_after(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    a = GameStore.open(db)
    gid = a.new_game("airaction", origin="test")
    a.append(gid, "note", {"text": "a1"})
    a.commit()
    b = GameStore.open(db)  # e.g. `dialtray judge`, another process
    b.append(gid, "note", {"text": "b1"})
    b.commit()
    b.close()
    seen = _statements(a)
    n = a.append(gid, "note", {"text": "a2"})  # queued as record 3: it becomes 4
    a.commit()
    assert n == 3 and "SELECT" in seen  # the check failed: the row was read afresh
    texts = [r.content for r in a.rows(gid)]
    assert [t.split(b'"text":"')[1][:2] for t in texts[1:]] == [b"a1", b"b1", b"a2"]
    assert _sound(a, gid)
    a.close()


def test_a_hand_edited_status_is_not_sealed_over_by_the_next_commit(tmp_path: Path) -> None:
    """The row is checked column by column: a status changed behind the store's back is read
    and sealed as stored, as it was before the cache (the seal vouches for the row as this host
    last wrote it; the chain is unbroken either way)."""
    db = tmp_path / "g.sqlite3"
    a = GameStore.open(db)
    gid = a.new_game("airaction", origin="test")
    a.append(gid, "note", {"text": "a1"})
    a.commit()
    with sqlite3.connect(db) as c:
        c.execute("UPDATE games SET status = 'over' WHERE id = ?", (gid,))
    seen = _statements(a)
    a.append(gid, "note", {"text": "a2"})
    a.commit()
    assert "SELECT" in seen
    assert a.game(gid).status == "over" and a.game(gid).records == 3 and _sound(a, gid)
    a.close()


def test_the_seal_is_hmac_sha256() -> None:
    """ChainKey.seal (precomputed pads, issue 35) is the HMAC the hmac module writes."""
    secret = bytes(range(32))
    k = ChainKey(secret, Path("chain.key"))
    state = '{"turn": 1}'
    msg = "\n".join(("3", "airaction", "12", "ab" * 32, "running", "",
                     hashlib.sha256(state.encode()).hexdigest(), "set"))
    assert k.seal(3, "airaction", 12, "ab" * 32, "running", "", state) == \
        hmac.new(secret, msg.encode(), hashlib.sha256).hexdigest()
