"""The report and judge views, read from the store (each call opens its own connection: these
run on worker threads beside the table's).

The report is ``store.report.build`` with the store's own dial-history chart
(``html_report.chart``); the judge's verify compares what the tray's readers show now with what
the store says every dial must show (``judge.dial_histories`` / ``dialread.read_dials``: an
encoder dial as confirmed by eye in the tray's boot), the same comparison as ``dialtray judge
verify``.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from dialtray.link.messages import Snapshot
from dialtray.store import dialread as dr
from dialtray.store import judge as jg
from dialtray.store import report as rp
from dialtray.store.db import GameStore
from dialtray.store.html_report import chart


class NotFound(LookupError):
    """Unknown game: the message names it."""


class Refused(PermissionError):
    """No valid judge token: the message says so."""


def games(db: Path, live: int | None) -> list[dict[str, Any]]:
    with GameStore.open(db, readonly=True) as store:
        return [{"id": g.id, "kind": g.kind, "status": g.status, "result": g.result,
                 "created": g.created, "live": g.id == live} for g in store.games()]


def _game(store: GameStore, gid: int) -> None:
    if gid not in {g.id for g in store.games()}:
        raise NotFound(f"unknown game {gid} (see `dialtray games`)")


def report(db: Path, gid: int) -> dict[str, Any]:
    """The report view: VP table, a dial-history chart per figure, flags, rulings."""
    e = escape
    with GameStore.open(db, readonly=True) as store:
        _game(store, gid)
        rep = rp.build(store, gid)
    g = rep.game
    out = [f"<h2>Game {g.id}: {e(g.kind)}</h2>",
           f"<p>Started {e(g.created)}; status <b>{e(g.status)}</b>"
           + (f": {e(g.result)}" if g.result else "") + "</p>",
           f"<p class='{'ok' if rep.ok else 'bad'}'>{'✔' if rep.ok else '✖'} verify: "
           f"{e(rep.verified)}</p>",
           "<h3>Victory points</h3><table class='vp'><tr><th scope=col>seat</th>"
           "<th scope=col>rules</th><th scope=col>judge</th><th scope=col>total</th></tr>"]
    for s in rep.seats:
        out.append(f"<tr><th scope=row>{e(s)}</th><td>{rep.vp.get(s, 0)}</td>"
                   f"<td>{rep.adjust.get(s, 0):+d}</td><td><b>{rep.total[s]}</b></td></tr>")
    out.append("</table>")
    out.append("<h3>Dials</h3><p class='legend'>▼ navy: what the rules say · ● green: what the "
               "tray sensed · ◆ orange: the judge · ┆ red dashed: a flag</p>")
    t0, t1 = rep.span
    for h in rep.dials:
        out.append(f"<figure class='dialchart'><figcaption>{e(h.label)}</figcaption>"
                   f"{chart(h, t0, t1)}</figure>")
    out.append(f"<h3>Flags ({len(rep.flags)})</h3><ul class='flags'>")
    for f in rep.flags:
        fate = f"✔ put right: {e(f['how'])}" if f["resolved"] is not None else \
            "<b class='bad'>✖ never put right</b>"
        out.append(f"<li>⚑ [{e(f['kind'])}] {e(f['text'])} — {fate}</li>")
    out.append(f"</ul><h3>Rulings ({len(rep.rulings)})</h3><ul class='rulings'>")
    for r in rep.rulings:
        tag = "<b class='bad'>✖ refused: no valid token</b>" if r["refused"] else \
            f"by the judge of {e(str(r['event']))}"
        out.append(f"<li>{e(r['text'])} — {tag}</li>")
    out += [f"<li>note for the judge: {e(n)}</li>" for n in rep.notes]
    out.append("</ul>")
    return {"game": gid, "html": "".join(out), "flags": len(rep.flags),
            "rulings": len(rep.rulings), "ok": rep.ok}


def check_token(db: Path, token: str | None) -> str:
    """The event the judge token was made for; ``Refused`` when it is not a judge's token."""
    with GameStore.open(db, readonly=True) as store:
        event = jg.token_event(store, token)
    if event is None:
        raise Refused("refused: " + ("no judge token given" if not token else
                                     "that is not a judge token")
                      + " (make one with `dialtray judge token --event NAME`)")
    return event


def verify(db: Path, gid: int, snap: Snapshot | None, dock: int | None) -> dict[str, Any]:
    """Every dial (or one dock's) as the tray shows it now against the store, with histories."""
    with GameStore.open(db, readonly=True) as store:
        _game(store, gid)
        hists, game = jg.dial_histories(store, gid)
    if dock is not None:
        hists = [h for h in hists if h.dock == dock]
        if not hists:
            raise NotFound(f"game {gid} has no dial on dock {dock}")
    reads = dr.read_dials(hists, snap)
    return {"game": gid, "dials": [r.row() for r in reads],
            "wrong": sum(1 for r in reads if not r.ok), "verified": game is not None,
            "summary": dr.summary(reads)}


RULING_DETAILS: dict[str, tuple[tuple[str, type], ...]] = {
    "set-dial": (("figure", str), ("dial", str), ("click", int)),
    "vp": (("seat", str), ("points", int)),
    "dispute": (("about", str), ("decision", str)),
    "end": (("reason", str),),
    "undo": (),
}
"""Each ruling's details, as ``dialtray judge``'s arguments (``store.judge.describe``)."""


def ruling_args(store: GameStore, gid: int, ruling: str, args: dict[str, Any]) -> dict[str, Any]:
    """The ruling's details checked as ``dialtray judge`` checks its arguments (the game's own
    figures and seats, whole numbers in range): ValueError naming the detail at fault, before
    anything is stored — a ruling the live tracker could not apply is never stored."""
    spec = RULING_DETAILS[ruling]
    names = tuple(n for n, _ in spec)
    extra = sorted(set(args) - set(names))
    if extra:
        raise ValueError(f"args.{extra[0]}: not a detail of '{ruling}' (details: "
                         f"{', '.join(names) or 'none'})")
    out: dict[str, Any] = {}
    for name, kind in spec:
        v = args.get(name)
        if kind is int and type(v) is not int:
            raise ValueError(f"args.{name}: a whole number is needed for '{ruling}'")
        if kind is str and (not isinstance(v, str) or not v.strip() or len(v) > 200):
            raise ValueError(f"args.{name}: words (1..200 characters) are needed for "
                             f"'{ruling}'")
        out[name] = v.strip() if isinstance(v, str) else v
    if ruling == "set-dial":
        dials = {(f, k) for f, k, _, _ in store.figures(gid)}
        if (out["figure"], out["dial"]) not in dials:
            known = ", ".join(f"{f} {k}" for f, k in sorted(dials)) or "none bound"
            raise ValueError(f"args.figure/dial: game {gid} has no {out['figure']} "
                             f"{out['dial']} dial (its dials: {known})")
        if not 0 <= out["click"] <= 99:
            raise ValueError("args.click: a click index 0..99 is needed")
    elif ruling == "vp":
        seats = [s for s, _ in store.seats(gid)]
        if out["seat"] not in seats:
            raise ValueError(f"args.seat: game {gid} has no seat {out['seat']!r} (seats: "
                             f"{' '.join(seats)})")
        if not -999 <= out["points"] <= 999:
            raise ValueError("args.points: -999..999 VP")
    elif ruling == "dispute" and out["decision"] not in ("allowed", "refused"):
        raise ValueError("args.decision: allowed or refused")
    return out


def rule(store: GameStore, gid: int, token: str | None, ruling: str,
         args: dict[str, Any], why: str) -> str:
    """One ruling (``store.judge.rule``) in ``store`` — for the live game, the recorder's own
    store on the table's thread (one writer per game keeps the hash chain whole; the live
    tracker then applies it: ``LiveTable.rule``). ``Refused`` (attempt recorded) without a
    token; ValueError (nothing stored) for an unknown ruling or a bad detail."""
    _game(store, gid)
    if ruling not in jg.RULINGS:
        raise ValueError(f"unknown ruling {ruling!r} (rulings: {', '.join(jg.RULINGS)})")
    params = ruling_args(store, gid, ruling, args)
    try:
        return jg.rule(store, gid, token, ruling, params, why)
    except jg.RulingRefused as e:
        raise Refused(str(e)) from e
