"""The fairness check of the device dice, from the stored tray events alone.

Committed dice sessions (docs/protocol.md, "Verifiably fair dice") are rebuilt from the stored
FAIR_COMMIT / FAIR_MIX / FAIR_ROLL / DICE / FAIR_REVEAL events and checked with the host's
independent ``link.fairproof.verify``: a report can prove, long after the game, that every roll
of a session came from the seed the tray committed to. Tray rolls outside a session (hardware
entropy) are counted and said to be unverifiable, never called fair.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dialtray.link.fairproof import FairRoll, Problem, Verdict, verify

PARTS = 8
NONCE_PARTS = 4


@dataclass
class _Session:
    sid: int
    commit: dict[int, bytes] = field(default_factory=dict)
    mix: dict[int, bytes] = field(default_factory=dict)
    reveal: dict[int, bytes] = field(default_factory=dict)
    rolls: list[FairRoll] = field(default_factory=list)
    anomalies: list[Problem] = field(default_factory=list)


@dataclass
class DiceCheck:
    sessions: list[tuple[int, Verdict]] = field(default_factory=list)
    unverifiable: int = 0  # tray rolls from hardware entropy, outside any session

    def lines(self) -> list[str]:
        out = []
        for sid, v in self.sessions:
            if v.ok:
                out.append(f"fair dice session {sid}: {len(v.rolls)} roll(s), every one "
                           "re-derived from the revealed seed: fair")
            else:
                out.append(f"fair dice session {sid}: FAILED: "
                           + "; ".join(str(p) for p in v.problems))
        if self.unverifiable:
            out.append(f"{self.unverifiable} tray roll(s) from hardware entropy outside a "
                       "committed session: not verifiable")
        if not out:
            out.append("no tray dice were rolled")
        return out


def check_dice(events: Iterable[dict[str, Any]],
               committed: dict[str, Any] | None = None) -> DiceCheck:
    """``events``: the data of the game's ``device`` records, in order. ``committed``: the
    dice source the game recorded at its start (``recorder.dice_source``) — a session committed
    before the game was stored has its commitment and nonce there, not among the events."""
    sessions: dict[int, _Session] = {}
    open_s: _Session | None = None
    if committed and committed.get("commitment") and committed.get("session"):
        c = bytes.fromhex(committed["commitment"])
        open_s = sessions[int(committed["session"])] = _Session(int(committed["session"]))
        open_s.commit = {i: c[4 * i:4 * i + 4] for i in range(PARTS)}
        if committed.get("nonce"):
            mixed = bytes.fromhex(committed["nonce"])
            open_s.mix = {i: mixed[4 * i:4 * i + 4] for i in range(NONCE_PARTS)}
    tag: dict[str, Any] | None = None
    out = DiceCheck()
    for e in events:
        t = e["type"]
        if t in ("FairCommit", "FairMix", "FairReveal"):
            s = sessions.setdefault(e["session"], _Session(e["session"]))
            data = bytes.fromhex(e["data"])
            {"FairCommit": s.commit, "FairMix": s.mix, "FairReveal": s.reveal}[t][e["part"]] = data
            if t == "FairCommit" and len(s.commit) == PARTS and not s.reveal:
                open_s = s
            if t == "FairReveal" and e["part"] == PARTS:
                open_s = None if open_s is s else open_s
        elif t == "FairRollTag":
            tag = e
        elif t == "DiceRolled":
            if open_s is None:
                out.unverifiable += 1
                tag = None
                continue
            if tag is None or tag["seq"] + 1 != e["seq"] or tag["session"] != open_s.sid:
                open_s.anomalies.append(Problem(
                    "unseeded", f"dice at event {e['seq']} without their roll counter"))
            else:
                who = "button" if e["request_id"] == 0 else f"request {e['request_id']}"
                open_s.rolls.append(FairRoll(tag["counter"], tag["sides"], tuple(e["faces"]),
                                             who, e["seq"], e["request_id"]))
            tag = None
        elif t == "Booted" and open_s is not None:
            open_s.anomalies.append(Problem("reboot", f"the tray rebooted (event {e['seq']}) "
                                            "during the session: its seed is gone"))
            open_s = None
    for sid, s in sorted(sessions.items()):
        if len(s.commit) < PARTS:
            continue
        commitment = b"".join(s.commit[i] for i in range(PARTS))
        seed = b"".join(s.reveal[i] for i in range(PARTS)) \
            if all(i in s.reveal for i in range(PARTS)) else None
        nonce = b"".join(s.mix[i] for i in range(NONCE_PARTS)) \
            if all(i in s.mix for i in range(NONCE_PARTS)) else None
        claimed = int.from_bytes(s.reveal[PARTS], "little") if PARTS in s.reveal else \
            max((r.counter + 1 for r in s.rolls), default=0)
        out.sessions.append((sid, verify(commitment, seed, claimed, s.rolls, s.anomalies,
                                         nonce)))
    return out
