"""``dialtray report GAME``: the end-of-game report, as text and as one self-contained HTML page.

VP table with how each point was scored (the engine's VP events and the judge's awards), every
figure's dial history (``judge.dial_histories``), every flag and how it was resolved, every ruling
(and refused attempt), and the fairness check of the device dice (``fairness``). The HTML page
draws a dial-history chart per figure (``chart``) and needs nothing but itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dialtray.store.checked import stored_records
from dialtray.store.db import GameRow, GameStore
from dialtray.store.fairness import DiceCheck, check_dice
from dialtray.store.judge import DialHistory, dial_histories, history_lines
from dialtray.store.verify import verify_game

VP_WORD = re.compile(r"\bVP\b")


@dataclass
class Report:
    game: GameRow
    verified: str
    ok: bool
    seats: list[str]
    vp: dict[str, int]  # the rules' VP (the outcome, or none yet)
    adjust: dict[str, int]  # the judge's awards
    scoring: list[tuple[str, str]]  # (when/what action, the VP event)
    dials: list[DialHistory]
    flags: list[dict[str, Any]]
    rulings: list[dict[str, Any]]
    dice_sources: dict[str, int]
    dice: DiceCheck
    span: tuple[float, float]
    outcome: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    eyes: list[dict[str, Any]] = field(default_factory=list)  # dials confirmed by eye

    @property
    def total(self) -> dict[str, int]:
        return {s: self.vp.get(s, 0) + self.adjust.get(s, 0) for s in self.seats}


def build(store: GameStore, gid: int) -> Report:
    recs = stored_records(store, gid)
    v = verify_game(store, gid)
    hists, game = dial_histories(store, gid)
    seats = [s for s, _ in store.seats(gid)]
    outcome: dict[str, Any] | None = None
    scoring: list[tuple[str, str]] = []
    flags: dict[int, dict[str, Any]] = {}
    rulings: list[dict[str, Any]] = []
    adjust: dict[str, int] = {}
    sources: dict[str, int] = {}
    device: list[dict[str, Any]] = []
    notes: list[str] = []
    eyes: list[dict[str, Any]] = []
    for r in recs:
        kind, d = r["kind"], r["data"]
        if kind == "action":
            for e in d["events"]:
                if VP_WORD.search(e):
                    scoring.append((d["text"], e))
        elif kind == "end":
            outcome = d
        elif kind == "flag":
            flags[d["i"]] = {**d, "n": r["n"], "resolved": d.get("resolved"),
                             "how": d.get("how", "")}
        elif kind == "resolve" and d["i"] in flags:
            flags[d["i"]].update(resolved=d["at"], how=d["how"])
        elif kind in ("judge", "judge-refused"):
            rulings.append({**d, "refused": kind == "judge-refused", "at": r["at"], "n": r["n"]})
            if kind == "judge":
                if d["ruling"] == "vp":
                    seat = d["args"]["seat"]
                    adjust[seat] = adjust.get(seat, 0) + int(d["args"]["points"])
                    scoring.append(("judge", d["text"]))
                elif d["ruling"] == "undo":
                    outcome = None  # a new end follows if the game ends again
        elif kind == "dice":
            sources[d["source"]] = sources.get(d["source"], 0) + 1
        elif kind == "device":
            device.append(d)
        elif kind == "note":
            notes.append(d["text"])
        elif kind == "eye":
            eyes.append({**d, "n": r["n"]})
    if game is not None and game.outcome() is not None and outcome is None:
        from dialtray.store.recorder import outcome_data
        outcome = outcome_data(game.outcome())
    vp = {str(k): int(x) for k, x in (outcome or {}).get("vp", {}).items()}
    times = [r["at"] for r in recs]
    committed = recs[0]["data"].get("dice") if recs else None
    return Report(store.game(gid), v.text(), v.ok, seats, vp, adjust, scoring, hists,
                  list(flags.values()), rulings, sources, check_dice(device, committed),
                  (min(times), max(times)), outcome, notes, eyes)


def text(rep: Report) -> str:
    g = rep.game
    out = [f"dialtray report: game {g.id} ({g.kind}), started {g.created}, {g.origin}",
           f"status: {g.status}" + (f" — {g.result}" if g.result else ""),
           f"verify: {rep.verified}", "", "Victory points"]
    out.append(f"  {'seat':6} {'rules':>6} {'judge':>6} {'total':>6}")
    for s in rep.seats:
        out.append(f"  {s:6} {rep.vp.get(s, 0):>6} {rep.adjust.get(s, 0):>+6} "
                   f"{rep.total[s]:>6}")
    if rep.outcome:
        out.append(f"  ended: {rep.outcome['termination']}; winner {rep.outcome['winner']}"
                   + (f" ({rep.outcome['how']})" if rep.outcome.get("how") else ""))
    out.append("  how the points were scored:")
    out.extend(f"    {e}  [{a}]" for a, e in rep.scoring)
    if not rep.scoring:
        out.append("    (no VP events during play: the rules score at the end, see above)")
    out += ["", "Dials"]
    for h in rep.dials:
        want = "not set" if h.want is None else f"click {h.want}"
        out.append(f"{h.label}: must show {want}" + (" (judge's ruling)" if h.judge_set else ""))
        out.extend(history_lines(h) or ["  (never turned)"])
    out += ["", f"Flags ({len(rep.flags)})"]
    for f in rep.flags:
        fate = f"put right: {f['how']}" if f["resolved"] is not None else "NEVER PUT RIGHT"
        out.append(f"  [{f['kind']}] {f['text']} — {fate} (record {f['n']})")
    out += ["", f"Dials confirmed by eye ({len(rep.eyes)}): encoders that lost track, a "
            "player's word, not a decision"]
    for e in rep.eyes:
        boot = f"{e['boot']:08x}" if isinstance(e.get("boot"), int) else "?"
        out.append(f"  {e['text']} — tray boot {boot}, the encoder's count {e['count']} "
                   f"(record {e['n']})")
    out += ["", f"Rulings ({len(rep.rulings)})"]
    for r in rep.rulings:
        tag = "REFUSED (no valid token)" if r["refused"] else f"by the judge of {r['event']}"
        out.append(f"  {r['text']} — {tag} (record {r['n']})")
    for n in rep.notes:
        out.append(f"  note for the judge: {n}")
    out += ["", "Dice"]
    for src, k in sorted(rep.dice_sources.items()):
        out.append(f"  {k} roll(s) by the game from {src}")
    out.extend(f"  {line}" for line in rep.dice.lines())
    return "\n".join(out) + "\n"
