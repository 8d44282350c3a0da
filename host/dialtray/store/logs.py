"""Stored games to notation logs and back (docs/notation.md): ``dialtray export`` / ``import``.

Export writes the game as it stands — each action with its dice (``| faces``) and its events as
comments; a judge's undo takes the undone action out, as it took it out of the game — plus the
flags, notes and rulings as comments, so ``dialtray replay`` re-runs the export. Import replays a
log first (any error is ``FILE:LINE``, nothing stored) and then stores it as a game whose records
``dialtray verify`` checks like any other.
"""

from __future__ import annotations

from typing import Any

from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import GameLog, format_action_line, format_log
from dialtray.rules.core.replay import replay_log
from dialtray.store.chain import check_chain
from dialtray.store.db import GameStore, StoreError
from dialtray.store.recorder import outcome_data, result_text


def stored_records(store: GameStore, gid: int) -> list[dict[str, Any]]:
    """A game's records, decoded, after checking the chain (StoreError naming the record)."""
    g = store.game(gid)
    data, broken = check_chain(gid, store.rows(gid), g.records, g.head)
    if broken is not None:
        raise StoreError(f"{store.path}: game {gid} fails verification at {broken} "
                         "(see `dialtray verify`)")
    return data


def export_log(store: GameStore, gid: int) -> str:
    recs = stored_records(store, gid)
    setup = recs[0]["data"]
    lines: list[list[str]] = []  # one block per applied action (comments ride along)
    loose: list[str] = []  # comments before the first action
    for r in recs[1:]:
        kind, d = r["kind"], r["data"]
        if kind == "action":
            lines.append([format_action_line(d["text"], d["faces"], d["events"])])
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
    if kind == "judge":
        return f"# ruling: {d.get('text', '')}"
    if kind == "judge-refused":
        return f"# ruling refused (no valid judge token): {d.get('text', '')}"
    if kind == "end":
        return f"# game over: {d['termination']}, winner {d['winner']}, VP {d['vp']}"
    return None


def import_log(store: GameStore, log: GameLog) -> tuple[int, list[str]]:
    """Replay ``log`` (``NotationError`` FILE:LINE if it does not), then store it; returns the
    game's number and the log's warnings."""
    result = replay_log(log)
    game: Any = result.game
    header = [(h.key, h.value) for h in log.header]
    seats = [(s, "") for s in game.seats()] if hasattr(game, "seats") else []
    gid = store.new_game(log.kind, header=header, seats=seats, origin="import",
                         extra={"file": log.name})
    for i, (entry, bl) in enumerate(zip(game.history, log.body, strict=True)):
        store.append(gid, "action", {
            "i": i, "text": entry.action.text(), "faces": list(bl.faces or ()),
            "events": [e.text() for e in entry.events], "how": f"{log.name}:{bl.line}",
            "seat": None})
        for ch in game.dial_changes(i):
            store.append(gid, "expect", {"action": i, **ch.to_dict()})
    out = game.outcome()
    if out is not None:
        store.append(gid, "end", outcome_data(out))
    store.update_game(gid, state_json=state_json(game),
                      status="over" if out is not None else "imported",
                      result=result_text(out) if out is not None else "")
    store.commit()
    return gid, [str(w) for w in result.warnings]
