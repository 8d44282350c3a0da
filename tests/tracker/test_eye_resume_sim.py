"""`play --resume --sim` of a game played on encoders (``table.stored.sim_tray_for``): the new
virtual tray is built as the stored one was (the stored snapshot names each reader's sensor),
each encoder dial placed where its last confirmation by eye put it (count + shift), so the
person confirms it at the rules' click again in the new boot and nothing is flagged as moved.

A paper game stored as played (``encoders.played``: dock 2 on encoders, its combat dial found
at click 4, confirmed there, turned to click 0: count -4, shift 4), then the real firmware."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from dialtray.link.messages import DialState
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.table.errors import TableError
from dialtray.table.stored import StorePlace, pick_resume, resumed_table, resync, sim_tray_for
from dialtray.tracker import TableDice
from dialtray.tracker import marks as mk
from encoders import A3C, A3S, ENC_C, ENC_S, played


def test_resume_sim_rebuilds_the_encoder_tray_with_its_dials_where_they_were_confirmed(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    _, gid = played(db, start=4)
    res = pick_resume(StorePlace(db, tmp_path / "keys"), None, ("airaction",))
    assert res.gid == gid
    vt = sim_tray_for(res, 8)
    try:
        sensors = [[dial["sensor"] for dial in dock] for dock in vt.cfg["docks"]]
        assert sensors[2] == ["quadrature", "quadrature"]
        assert {s for i, dock in enumerate(sensors) if i != 2 for s in dock} == {"as5600"}
        assert vt.detent(2, 0) % 12 == 0  # count -4 + shift 4, not the count alone (8)
        session = TraySession(vt.port, name="resumed", ack_policy="manual", **res.session_args)
        t, link = resumed_table(res, TableDice(SeededDice(6)), session)
        session.start()
        assert resync(link) == []  # the AS5600 dials where the store left them
        a3c, a3s = t.slots[ENC_C], t.slots[ENC_S]
        link.wait_until(lambda: a3c.lost and a3s.lost, 20, "A3's encoders flagged (new boot)")
        for slot, label in ((ENC_C, A3C), (ENC_S, A3S)):  # the person reads each dial
            st = t.slots[slot]
            shows = vt.detent(slot.dock, slot.dial) * st.up % st.detents
            r = link.tracker.confirm_eye(slot, shows, link.clock(), "P1")
            assert r.ok and r.message.startswith(f"{label}: confirmed by eye at click 0 by "
                                                 "P1 ("), r
        link.pump(0.0)
        assert not [f for f in t.open_flags() if f.kind in (mk.AWAY, mk.FAULT)], \
            [f.text for f in t.open_flags()]
        assert t.ready()
        link.close()
    finally:
        vt.close()
    res.store.close()


def test_resume_sim_quadrature_on_a_game_stored_without_encoders_is_refused(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    played(db)
    res = pick_resume(StorePlace(db, tmp_path / "keys"), None, ("airaction",))
    plain = [DialState(d, i, "as5600", 0, 12, 0) for d in range(8) for i in range(2)]
    res = replace(res, session_args={**res.session_args, "resume_dials": plain})
    with pytest.raises(TableError) as e:
        sim_tray_for(res, 8, quadrature=True)
    assert str(e.value) == (f"argument --quadrature: game {res.gid} was played on a tray with "
                            "no encoders, and --resume --sim builds the tray it was played on")
    assert e.value.status == 2
    res.store.close()
