"""Patches (``ui.push.diff``) applied as the page applies them (``uikit.apply``, the page's
logic in Python) give back the state they were made from — over random changes of the kinds a
live game makes: a reader's fields, a dock's readers, keys, log and notes tails that move on
(past their cap, too), a tail that is replaced. No server: pure and cheap."""

from __future__ import annotations

import random
from typing import Any

from dialtray.ui.push import appended, diff
from uikit import apply

LOG_TAIL = 40


def state(rng: random.Random) -> dict[str, Any]:
    return {"op": "state", "phase": "play", "waiting_for": ["P1 to decide"], "log": [],
            "notes": [], "rulings": [], "layout": {"docks": {}},
            "docks": [{"dock": n, "readers": [reader(rng, i) for i in range(rng.randint(1, 2))]}
                      for n in range(8)]}


def reader(rng: random.Random, i: int) -> dict[str, Any]:
    return {"reader_index": i, "turn": 0, "sensed": rng.randint(0, 11), "flag": None,
            "window": f"<svg>{rng.random()}</svg>", "expect": None}


def change(rng: random.Random, s: dict[str, Any], n: int) -> dict[str, Any]:
    s = {**s, "docks": [{**d, "readers": [dict(r) for r in d["readers"]]} for d in s["docks"]]}
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(7)
        d = rng.choice(s["docks"])
        r = rng.choice(d["readers"])
        if what == 0:
            r["sensed"] += rng.choice((-1, 1))
            r["turn"] = rng.randint(-2, 2)
        elif what == 1:
            r["flag"] = None if r["flag"] else {"kind": "too-few", "text": f"flag {n}"}
        elif what == 2:
            r["window"] = f"<svg>{n}</svg>"
        elif what == 3:  # the dock's readers change shape: sent whole
            d["readers"] = [reader(rng, i) for i in range(3 - len(d["readers"]))]
        elif what == 4:
            s["log"] = (s["log"] + [f"line {n}.{k}" for k in range(rng.randint(1, 5))]
                        )[-LOG_TAIL:]
        elif what == 5:
            s["notes"] = (s["notes"] + [f"note {n}"])[-6:]
        else:
            s["waiting_for"] = [f"wait {n}"]
            if rng.random() < 0.2:
                s["log"] = [f"fresh {n}"]  # not the old tail moved on: sent whole
    return s


def test_patches_applied_in_order_rebuild_every_state() -> None:
    rng = random.Random(13)
    for _ in range(20):
        s = state(rng)
        page = {**s, "rev": 1, "received": None, "sent": 0.0}
        for n in range(2, 80):
            new = change(rng, s, n)
            d = diff(s, new)
            assert d is not None
            stamp = {"rev": n, "received": None, "sent": float(n)}
            page = apply(page, {"op": "patch", "base": n - 1, **d, **stamp})
            assert page == {**new, **stamp}, n
            s = new


def test_a_tail_is_sent_as_its_new_lines_only_when_it_moved_on() -> None:
    old = [f"l{i}" for i in range(40)]
    assert appended(old, [*old[3:], "a", "b", "c"]) == ["a", "b", "c"]
    assert appended(old[:5], [*old[:5], "a"]) == ["a"]
    assert appended([], ["a"]) == ["a"]
    assert appended(["x", "y"], ["a"]) == ["a"]  # a one-line tail: its line
    assert appended(["x", "y", "z"], ["q", "r"]) == ["q", "r"]  # replaced: all of it
    assert appended(old, []) is None
    assert diff(None, {"docks": []}) is None  # no state yet: the whole state
    assert diff({"docks": [{"dock": 1, "readers": []}]},
                {"docks": [{"dock": 2, "readers": []}]}) is None  # other docks: whole state
