"""`dialtray serve --sim --quadrature`: the page's game on a virtual tray built with encoders on
its first seven dials (AS5600s on the rest). A dial confirmed by eye from the page (its
websocket's ``eye`` request) is compared by the page's judge view with the store in the tray's
present boot; one not confirmed is "look at it" (``store.dialread``), as `judge verify` says.

A real server and websocket client on the real firmware; no browser (the judge view's JSON is
what the page shows)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from dialtray.store import judge as jg
from dialtray.store.db import GameStore
from dialtray.tracker import Slot
from test_ui_requests import first_state, http, reply, ws_url
from uikit import serve
from websockets.sync.client import connect


def test_a_dial_confirmed_by_eye_on_the_page_is_verified_by_the_judge(tmp_path: Path) -> None:
    s = serve(tmp_path, quadrature=True)
    try:
        t = s.tracker
        a1c, a1s = t.slots[Slot(0, 0)], t.slots[Slot(0, 1)]
        end = time.monotonic() + 30
        while not (a1c.lost and a1s.lost):  # the first snapshot: every encoder lost track
            assert time.monotonic() < end, t.waiting_for()
            time.sleep(0.02)
        with connect(ws_url(s)) as ws:
            first_state(ws)
            ws.send(json.dumps({"op": "eye", "dock": 0, "reader": 0}))
            r = reply(ws)
            assert r["ok"] and r["message"] == ("dock 0 combat dial (A1): confirmed by eye at "
                                                "click 0 by P1 (where the rules put it)"), r
        with GameStore.open(s.opts.db) as store:
            token = jg.new_token(store, "quadrature")

        def verify() -> dict[str, Any]:
            code, body = http(s, "/api/judge/verify", {"game": s.live.game_id, "token": token,
                                                       "dock": 0})
            assert code == 200, body
            return {d["label"]: d for d in body["dials"]} | {"": body}

        end = time.monotonic() + 30
        while not (v := verify())["A1 combat dial (dock 0 combat)"]["ok"]:  # once stored
            assert time.monotonic() < end, v
            time.sleep(0.1)
        assert v["A1 combat dial (dock 0 combat)"]["status"] == (
            "confirmed by eye in this tray boot (its encoder counts 0): it shows click 0, as "
            "the rules say")
        speed = v["A1 speed dial (dock 0 speed)"]
        assert speed["look"] and not speed["ok"] and speed["fix"] == "look at it"
        assert speed["status"] == (f"its encoder lost track at tray boot {t.boot:08x} and was "
                                   "not confirmed by eye since")
        assert v[""]["summary"].startswith("1 dial(s) to look at")
    finally:
        s.close()
