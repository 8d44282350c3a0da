"""Stored games to notation logs and back (docs/notation.md): ``dialtray export`` / ``import``.

Export writes the game as it stands — each action with its dice (``| faces``) and its events as
comments; a judge's undo takes the undone action out, as it took it out of the game — plus the
flags, notes and rulings as comments, so ``dialtray replay`` re-runs the export. Import replays a
log first (any error is ``FILE:LINE``, nothing stored) and then stores it as a game whose records
``dialtray verify`` checks like any other.
"""

from __future__ import annotations

import json
from typing import Any

from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import GameLog, format_action_line, format_log
from dialtray.rules.core.replay import replay_log
from dialtray.store.chain import canonical
from dialtray.store.checked import stored_records
from dialtray.store.db import GameStore
from dialtray.store.recorder import outcome_data, result_text


def export_log(store: GameStore, gid: int) -> str:
    recs = stored_records(store, gid)
    setup = recs[0]["data"]
    lines: list[list[str]] = []  # one block per applied action (comments ride along)
    loose: list[str] = []  # comments before the first action
    for r in recs[1:]:
        kind, d = r["kind"], r["data"]
        if kind == "action":
            lines.append([format_action_line(d["text"], d["faces"], d["events"],
                                             d.get("sides"))])
            continue
        text = _comment(kind, d)
        if text is None:
            continue
        if kind == "judge" and d.get("ruling") == "undo" and lines:
            lines.pop()
        (lines[-1] if lines else loose).append(text)
    header = [(str(k), str(v)) for k, v in setup.get("header", [])]
    body = loose + [x for block in lines for x in block]
    g = store.game(gid)
    return format_log(setup["kind"], header, body,
                      f"dialtray game {gid}, {g.created}, {g.origin}; {g.status}"
                      + (f": {g.result}" if g.result else ""))


def _comment(kind: str, d: dict[str, Any]) -> str | None:
    if kind == "flag":
        settled = f" (put right at once: {d['how']})" if d.get("resolved") is not None else ""
        return f"# flag {d['kind']}: {d['text']}{settled}"
    if kind == "resolve":
        return f"# put right ({d['kind']}): {d['dial']} — {d['how']}"
    if kind == "note":
        return f"# judge: {d['text']}"
    if kind == "eye":  # a dial whose encoder lost track, confirmed by a player (as played)
        return f"# eye: {d['text']}"
    if kind in RULING_KINDS:  # kept as a record by `dialtray import` (the `#!` line)
        what = {"judge": "ruling", "ruling": "ruling from the hub",
                "judge-refused": "ruling refused (no valid judge token)"}[kind]
        text = d.get("text") or f"{d.get('ruling', '')} {d.get('args', '')}"
        return f"# {what}: {text}\n{MARK}{kind} {canonical(d).decode()}"
    if kind == "end":
        return f"# game over: {d['termination']}, winner {d['winner']}, VP {d['vp']}"
    return None


RULING_KINDS = ("judge", "judge-refused", "ruling")
MARK = "#! "  # a machine-readable comment: `#! KIND {json}` (a ruling, kept as a record)


def ruling_lines(text: str, name: str) -> list[tuple[int, str, dict[str, Any]]]:
    """The rulings an export wrote as ``#! KIND {json}`` comments: (line, kind, data)."""
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        s = raw.strip()
        if not s.startswith(MARK):
            continue
        kind, _, body = s[len(MARK):].partition(" ")
        if kind not in RULING_KINDS:
            continue
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as e:
            raise NotationError(name, n, f"a ruling's data is not JSON ({str(e)[:60]})") from e
        if not isinstance(data, dict):
            raise NotationError(name, n, "a ruling's data must be a JSON object")
        out.append((n, kind, data))
    return out


def import_log(store: GameStore, log: GameLog, text: str | None = None
               ) -> tuple[int, list[str]]:
    """Replay ``log`` (``NotationError`` FILE:LINE if it does not), then store it — the game,
    every action and every ruling an export kept (``text``: the log's text, for its ``#!``
    lines) — in ONE transaction: a refused or interrupted import stores nothing. Returns the
    game's number and the log's warnings."""
    result = replay_log(log)
    game: Any = result.game
    header = [(h.key, h.value) for h in log.header]
    seats = [(s, "") for s in game.seats()] if hasattr(game, "seats") else []
    rulings = ruling_lines(text, log.name) if text is not None else []
    records: list[tuple[str, Any]] = []

    def rulings_before(line: int) -> None:
        while rulings and rulings[0][0] < line:
            n, kind, data = rulings.pop(0)
            if kind == "judge" and data.get("ruling") == "undo":
                data = {**data, "in_log": "taken out"}  # the export already left it out
            records.append((kind, {**data, "imported": f"{log.name}:{n}"}))

    for i, (entry, bl) in enumerate(zip(game.history, log.body, strict=True)):
        rulings_before(bl.line)
        act: dict[str, Any] = {
            "i": i, "text": entry.action.text(), "faces": list(bl.faces or ()),
            "events": [e.text() for e in entry.events], "how": f"{log.name}:{bl.line}",
            "seat": None}
        if bl.sides is not None:  # not all d6 (FASA's d10s): each face with its die
            act["sides"] = list(bl.sides)
        records.append(("action", act))
        for ch in game.dial_changes(i):
            records.append(("expect", {"action": i, **ch.to_dict()}))
    out = game.outcome()
    if out is not None:
        records.append(("end", outcome_data(out)))
    rulings_before(1 << 62)
    status, res = ("over", result_text(out)) if out is not None else ("imported", "")
    ended = [d for k, d in records if k == "judge" and d.get("ruling") == "end"]
    if ended:
        status, res = "ended", f"ended by the judge: {ended[-1]['args']['reason']}"
    gid = store.new_game(log.kind, header=header, seats=seats, origin="import",
                         extra={"file": log.name}, records=records,
                         fields={"state_json": state_json(game), "status": status,
                                 "result": res})
    return gid, [str(w) for w in result.warnings]
