"""A table not at an event (``dialtray serve`` without ``--event``): the page has no
"Call the judge" button, and a call asked of the server is refused saying plainly that this table
is not at an event (nothing is sent anywhere). At an event: tests/hub/test_serve_judge_call.py."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from dialtray.ui.server import Served


def test_no_event_no_judge_call_button(table: Served, browser: Any) -> None:
    url = f"http://127.0.0.1:{table.port}/api/call"
    req = urllib.request.Request(url, data=json.dumps({"note": "help"}).encode(),
                                 method="POST", headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=10)
        raise AssertionError("a judge call was taken by a table not at an event")
    except urllib.error.HTTPError as e:
        assert e.code == 409
        assert "not at an event" in json.loads(e.read())["error"]
    got = json.loads(urllib.request.urlopen(url, timeout=10).read())
    assert got["at_event"] is False and "not at an event" in got["message"]
    b = browser.new_page()
    try:
        b.goto(table.url)
        b.wait_for_function("window.dialtray_call !== undefined", timeout=10000)
        assert b.locator("#call-button").is_hidden()
        assert b.locator("#judge-call").is_hidden()
    finally:
        b.close()
