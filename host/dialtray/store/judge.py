"""The judge's tools: tokens, rulings as store events, and the dials compared with the store.

* A token is made for an event (a tournament, a club night); only its SHA-256 is stored. A
  ruling must present a token whose hash is stored; without one it is refused and the attempt
  is recorded (``judge-refused``) — never silent either way.
* Rulings (record kind ``judge``): ``set-dial`` (what a dial must show from now on), ``undo`` (the
  last action is taken back: the game is rebuilt by replay and undone), ``vp`` (award or remove
  VP), ``dispute`` (decided), ``end`` (the game ends by the judge's word). ``dialtray verify``
  replays undos; the report and ``export`` show every ruling.
* :func:`dial_histories` — per bound dial, every click the rules asked for (cause, rule id,
  time), every click the tray sensed, every flag and every confirmation by eye (its tray boot,
  count and shift), for ``judge verify`` (``dialread``) and the report.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dialtray.link.messages import UNREPLAYED
from dialtray.rules.core.dials import COUNTER_CLOCKWISE, SPEED
from dialtray.rules.core.game import state_json
from dialtray.store.checked import stored_records
from dialtray.store.db import GameStore, StoreError
from dialtray.store.verify import verify_game

RULINGS = ("set-dial", "undo", "vp", "dispute", "end")
UP = {SPEED: COUNTER_CLOCKWISE}  # a rising click index turns this way (AA-M02), else clockwise


class RulingRefused(StoreError):
    """No valid judge token: the ruling was not applied (and the attempt is recorded)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.strip().encode()).hexdigest()


def new_token(store: GameStore, event: str) -> str:
    """A fresh token for ``event``: returned once, only its hash is stored. Never starting with
    '-': a judge types it after ``--token``, where argparse would read "-x…" as an option (1 in
    64 urlsafe tokens did: `dialtray judge … --token -Q…` failed with "expected one argument")."""
    token = secrets.token_urlsafe(18)
    while token.startswith("-"):
        token = secrets.token_urlsafe(18)
    store.add_token(event, token_hash(token))
    return token


def token_event(store: GameStore, token: str | None) -> str | None:
    """The event a token was made for, or None if it is not a stored token."""
    if not token:
        return None
    h = token_hash(token)
    for stored, event in store.token_events().items():
        if hmac.compare_digest(stored.encode("utf-8", "replace"), h.encode()):
            return event
    return None


def rule(store: GameStore, gid: int, token: str | None, ruling: str, args: Mapping[str, Any],
         why: str = "") -> str:
    """Apply one ruling to stored game ``gid``; returns what was done, in words.
    RulingRefused (after recording the attempt) without a valid token."""
    if ruling not in RULINGS:
        raise ValueError(f"unknown ruling {ruling!r}")
    text = describe(ruling, args, why)
    event = token_event(store, token)
    if event is None:
        store.append(gid, "judge-refused", {"ruling": ruling, "args": dict(args), "why": why,
                                            "text": text,
                                            "reason": "no token" if not token else
                                            "not a judge's token"})
        store.commit()
        what = "no judge token given" if not token else "that is not a judge token"
        raise RulingRefused(f"{store.path}: game {gid}: ruling refused — {what} (create one "
                            "with `dialtray judge token`); the attempt is recorded")
    g = store.game(gid)
    if ruling == "end" and g.status != "running":  # a finished game's result stays its own
        raise StoreError(f"{store.path}: game {gid} is {g.status} already"
                         f"{f' ({g.result})' if g.result else ''}: only a running game can be "
                         "ended (see `dialtray games`)")
    data: dict[str, Any] = {"ruling": ruling, "args": dict(args), "why": why, "text": text,
                            "event": event}
    if ruling == "undo":
        v = verify_game(store, gid)
        if not v.ok or v.replayed is None:
            raise StoreError(f"{store.path}: game {gid} cannot be undone: {v.text()}")
        game = v.replayed
        if not game.history:
            raise StoreError(f"{store.path}: game {gid}: no action to undo")
        entry = game.undo()
        data["undone"] = entry.action.text()
        text = data["text"] = f"undo '{entry.action.text()}'" + (f" ({why})" if why else "")
        store.append(gid, "judge", data)
        status = "running" if g.status == "over" and game.outcome() is None else g.status
        store.update_game(gid, state_json=state_json(game), status=status,
                          result="" if status == "running" else g.result)
    elif ruling == "end":
        store.append(gid, "judge", data)
        store.update_game(gid, status="ended", result=f"ended by the judge: {args['reason']}")
    else:
        store.append(gid, "judge", data)
    store.commit()
    return text


def describe(ruling: str, a: Mapping[str, Any], why: str) -> str:
    because = f" ({why})" if why else ""
    if ruling == "set-dial":
        return f"{a['figure']} {a['dial']} dial must show click {a['click']}{because}"
    if ruling == "vp":
        n = int(a["points"])
        return f"{'award' if n >= 0 else 'remove'} {abs(n)} VP {'to' if n >= 0 else 'from'} " \
               f"{a['seat']}{because}"
    if ruling == "dispute":
        return f"dispute '{a['about']}': {a['decision']}{because}"
    if ruling == "end":
        return f"game ended: {a['reason']}{because}"
    return f"undo the last action{because}"


# ---- dial histories ----------------------------------------------------------------------------


@dataclass
class DialHistory:
    figure: str
    kind: str
    dock: int | None
    reader: int | None
    up: int  # +1: a rising click index is clockwise
    items: list[dict[str, Any]] = field(default_factory=list)  # time-ordered
    want: int | None = None  # the click the rules (and rulings) say now
    judge_set: bool = False

    @property
    def label(self) -> str:
        where = f"dock {self.dock} {('combat', 'speed')[self.reader or 0]}" \
            if self.dock is not None else "not on the tray"
        return f"{self.figure} {self.kind} dial ({where})"


def dial_histories(store: GameStore, gid: int) -> tuple[list[DialHistory], Any]:
    """Every bound dial's history from the records; the replayed game (None if it does not
    verify). StoreError if the chain is broken."""
    recs = stored_records(store, gid)
    v = verify_game(store, gid)
    game = v.replayed if v.ok else None
    hist: dict[tuple[str, str], DialHistory] = {}
    by_slot: dict[tuple[int, int], DialHistory] = {}
    for fig, kind, dock, reader in store.figures(gid):
        h = DialHistory(fig, kind, dock, reader, -1 if UP.get(kind) == COUNTER_CLOCKWISE else 1)
        hist[(fig, kind)] = h
        if dock is not None and reader is not None:
            by_slot[(dock, reader)] = h
    labels: dict[str, list[tuple[dict[str, Any], str]]] = {}  # a flag's dial label → flags
    actions: dict[int, dict[str, Any]] = {}
    unreplayed = False  # the last snapshot stood in for events the tray could not replay
    for r in recs:
        kind, d, at, n = r["kind"], r["data"], r["at"], r["n"]
        if kind == "action":
            actions[d["i"]] = d  # expectations name their action by its history index
        elif kind == "expect":
            he = hist.get((d["figure"], d["dial"]))
            if he is not None:
                act = actions.get(d.get("action", -1), {})
                he.items.append({"at": at, "n": n, "what": "rules", "clicks": d["clicks"],
                                "direction": d["direction"], "to": d["to_click"],
                                "rule": d["rule_id"], "cause": d["cause"] or "the rules",
                                "action": act.get("text", "")})
        elif kind == "device" and d.get("type") == "Click":
            ht = by_slot.get((d["dock"], d["dial"]))
            if ht is not None:
                ht.items.append({"at": at, "n": n, "what": "tray", "delta": d["delta"],
                                "position": d["position"], "seq": d["seq"],
                                "recovered": d["recovered"],
                                "restored": unreplayed and d["recovered"] and not d["seq"]})
        elif kind == "device" and d.get("type") == "Snapshot":
            unreplayed = d.get("reason") in UNREPLAYED
        elif kind in ("flag", "resolve"):
            labels.setdefault(d["dial"], []).append((r, kind))
        elif kind == "eye":  # a dial whose encoder lost track, confirmed by a player
            he2 = by_slot.get((d["dock"], d["reader"]))
            if he2 is not None:
                he2.items.append({"at": at, "n": n, "what": "eye", "text": d["text"],
                                  "kind": "confirmed by eye", "boot": d.get("boot"),
                                  "count": d["count"], "shift": d["shift"]})
        elif kind == "judge" and d.get("ruling") == "set-dial":
            hj = hist.get((d["args"]["figure"], d["args"]["dial"]))
            if hj is not None:
                hj.items.append({"at": at, "n": n, "what": "judge", "to": int(d["args"]["click"]),
                                "text": d["text"]})
    for h in hist.values():
        for r, kind in labels.get(flag_label(h), []):
            d = r["data"]
            h.items.append({"at": r["at"], "n": r["n"], "what": kind,
                            "text": d.get("text") or d.get("how", ""), "kind": d["kind"]})
        h.items.sort(key=lambda i: i["n"])
        settings = game.dials() if game is not None else {}
        for dial, setting in settings.items():
            if (dial.figure, dial.kind) == (h.figure, h.kind):
                h.want = setting.click
        last_rules = max((i["n"] for i in h.items if i["what"] == "rules"), default=0)
        for i in h.items:
            if i["what"] == "judge" and i["n"] > last_rules:
                h.want, h.judge_set = i["to"], True
    return list(hist.values()), game


def flag_label(h: DialHistory) -> str:
    """How the tracker names this dial in its flags (``Binding.label``)."""
    reader = ("combat", "speed")[h.reader or 0]
    extra = "" if h.kind in ("combat", "speed") else f" {h.kind}"
    return f"dock {h.dock} {reader} dial ({h.figure}{extra})"


def put_right(h: DialHistory, position: int, detents: int) -> str | None:
    """What to turn so the dial at sensed ``position`` shows ``h.want``; None when it does."""
    if h.want is None:
        return None
    off = (position - h.want * h.up) % detents
    if off > detents // 2:
        off -= detents
    if off == 0:
        return None
    fix = -off
    n = abs(fix)
    return f"turn it {n} click{'' if n == 1 else 's'} " \
           f"{'clockwise' if fix > 0 else 'counter-clockwise'} (to click {h.want})"


def history_lines(h: DialHistory) -> list[str]:
    out = []
    for i in h.items:
        t = _clock(i["at"])
        if i["what"] == "rules":
            way = "set" if i["direction"] == "set" else f"{i['clicks']} {i['direction']}"
            out.append(f"  {t}  rules  {way} to click {i['to']}: {i['cause']} [{i['rule']}] "
                       f"(action '{i['action']}', record {i['n']})")
        elif i["what"] == "tray":
            rec = (" restored from the sensor: the replay was refused, so this is only the "
                   "difference the nearer way round" if i.get("restored") else
                   " recovered while the host was away" if i["recovered"] else "")
            out.append(f"  {t}  tray   {i['delta']:+d} click(s) -> position {i['position']} "
                       f"(tray event {i['seq']}{rec}, record {i['n']})")
        elif i["what"] == "judge":
            out.append(f"  {t}  judge  {i['text']} (record {i['n']})")
        else:
            out.append(f"  {t}  {i['what']:6} {i['kind']}: {i['text']} (record {i['n']})")
    return out


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(at))
