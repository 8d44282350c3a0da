"""A judge's verify of dials whose encoder lost track (``store.dialread``): a dial confirmed by
eye in the tray's present boot is compared with the store at ``count + shift`` like an absolute
dial; one not confirmed in this boot is "look at it", never agreeing.

On the paper tray of ``encoders.py`` (dock 2 on encoders), stored as played: the page's judge
view (``ui.views.verify``, its JSON) on snapshots the test makes; then `dialtray judge verify`
against the virtual tray (the real firmware, encoders on its first seven readers)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from dialrig import config
from dialtray.cli import main
from dialtray.link.session import TraySession
from dialtray.ui import views
from dialtray.virtual.tray import VirtualTray
from encoders import ENC_C, EncoderTray, played

A3C_LABEL = "A3 combat dial (dock 2 combat)"
A3S_LABEL = "A3 speed dial (dock 2 speed)"


def page(db: Path, gid: int, tray: EncoderTray) -> tuple[dict[str, Any], dict[str, Any]]:
    """The page's judge view of dock 2 (its JSON) as the tray would answer now: the rows by
    label, and the whole answer."""
    body = views.verify(db, gid, tray.snapshot(), 2)
    return {r["label"]: r for r in body["dials"]}, body


def test_the_judge_compares_a_confirmed_encoder_and_asks_to_look_at_one_not_confirmed_since(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    tray, gid = played(db)

    v, body = page(db, gid, tray)  # confirmed in this boot, where the rules put it: agrees
    assert v[A3C_LABEL]["status"] == ("confirmed by eye in this tray boot (its encoder counts "
                                      "-4): it shows click 0, as the rules say")
    assert v[A3C_LABEL]["ok"] and v[A3C_LABEL]["fix"] is None
    assert v[A3S_LABEL]["ok"], v[A3S_LABEL]
    assert any("eye    confirmed by eye:" in ln for ln in v[A3C_LABEL]["history"])
    assert body["summary"] == "every dial agrees with the store" and body["wrong"] == 0

    tray.phys[ENC_C] += 2  # turned by hand while no host listened (the tracker never told)
    v, body = page(db, gid, tray)
    assert v[A3C_LABEL]["status"] == ("confirmed by eye in this tray boot (its encoder counts "
                                      "-2): it shows click 2, the rules say click 0")
    assert v[A3C_LABEL]["fix"] == "turn it 2 clicks counter-clockwise (to click 0)"
    assert not v[A3C_LABEL]["ok"] and body["wrong"] == 1
    assert body["summary"] == "1 dial(s) to put right"

    tray.boot += 1  # the tray restarted: its counts start again where the dials are
    tray.at_boot = {s: p for s, p in tray.phys.items() if s.dock == 2}
    v, body = page(db, gid, tray)
    for label in (A3C_LABEL, A3S_LABEL):
        assert v[label]["status"] == ("its encoder lost track at tray boot 00000002 and was "
                                      "not confirmed by eye since")
        assert v[label]["fix"] == "look at it" and v[label]["look"] and not v[label]["ok"]
    assert body["summary"] == ("2 dial(s) to look at (encoders not confirmed by eye "
                                       "in this tray boot: confirm them at the table)")


def boot_of(port: str) -> int:
    with TraySession(port, name="boot") as session:
        session.wait_synced(15)
        return session.snapshot(5).boot_id


def test_judge_verify_on_an_encoder_tray(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`dialtray judge verify` on the virtual tray with encoders (a game stored as played in
    its present boot): agrees, then names the click a hand turned it to, then asks to look at
    it once the tray restarted."""
    cfg = config.quadrature_config(8, config.SENSOR_AS5600)
    db = tmp_path / "games.sqlite3"
    with VirtualTray(cfg, seed=3) as vt:
        first = boot_of(vt.port)
        _, gid = played(db, first, start=0)  # stored as played in this boot (count 0)
        args = ["judge", "verify", str(gid), "--dock", "2", "--port", vt.port, "--db", str(db)]

        def until(code: int, line: str) -> str:
            end = time.monotonic() + 30
            while True:
                got = main(args)
                out = capsys.readouterr().out
                if got == code and line in out:
                    return out
                assert time.monotonic() < end, out

        out = until(0, "every dial agrees with the store")
        assert f"{A3C_LABEL}: confirmed by eye in this tray boot (its encoder counts 0): it " \
            "shows click 0, as the rules say: ok" in out
        vt.turn(2, 0, 3)  # by hand, no host listening
        out = until(1, "1 dial(s) to put right")
        assert f"{A3C_LABEL}: confirmed by eye in this tray boot (its encoder counts 3): it " \
            "shows click 3, the rules say click 0: PUT RIGHT: turn it 3 clicks " \
            "counter-clockwise (to click 0)" in out
        vt.reboot()
        out = until(1, "2 dial(s) to look at")
        [line] = [ln for ln in out.splitlines() if ln.startswith(f"{A3C_LABEL}: ")]
        assert line.startswith(f"{A3C_LABEL}: its encoder lost track at tray boot ")
        assert line.endswith(" and was not confirmed by eye since: look at it")
        assert f"{first:08x}" not in line  # the new boot's, not the confirmed one
        assert "Traceback" not in out
