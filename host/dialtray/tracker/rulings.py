"""A judge's ruling applied to a live game (issue 12, "The judge").

``dialtray judge`` stores a ruling into the game's chain (``store.judge``); the host playing that
game reads it at its next commit and applies it here, to the running tracker, so the table sees
it take effect at once — never silently (every ruling becomes a log comment, a judge's note and
the returned text the players are shown):

* ``undo``: the rules engine takes its last action back (``Game.undo``) when it is the action
  the judge undid; the dials go back to what the rules say now (clicks of the undone action are
  due back, flagged until turned); the action's log line becomes a comment.
* ``set-dial``: the dial must show that click from now on (flagged until it does). The rules
  engines have no API to set a dial's state, so only the tracker's expectation changes.
* ``vp``: VP awarded or removed by the judge, kept beside the rules' VP (``judge_vp``).
* ``dispute``: the judge's decision, noted and shown.
* ``end``: the game ends by the judge's word (the tracker stops: phase OVER).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dialtray.rules.core.dials import Dial
from dialtray.tracker import marks as mk
from dialtray.tracker.state import nearest
from dialtray.tracker.tracker import OVER, Tracker


def apply_ruling(t: Tracker, data: Mapping[str, Any], now: float) -> str:
    """Apply one stored ruling (a ``judge`` record's data) to ``t``; what the players are shown.
    A ruling the live game cannot apply says so in its text (it stays in the store)."""
    ruling = str(data.get("ruling", ""))
    args: Mapping[str, Any] = data.get("args") or {}
    text = str(data.get("text", ruling))
    if ruling == "undo":
        done = _undo(t, str(data.get("undone", "")), now)
    elif ruling == "set-dial":
        done = _set_dial(t, str(args.get("figure")), str(args.get("dial")),
                         int(args.get("click", 0)), now)
    elif ruling == "vp":
        seat, points = str(args.get("seat")), int(args.get("points", 0))
        vp: dict[str, int] = t.__dict__.setdefault("judge_vp", {})
        vp[seat] = vp.get(seat, 0) + points
        done = f"judge's VP for {seat} now {vp[seat]:+d}"
    elif ruling == "dispute":
        done = "decided"
    elif ruling == "end":
        t.phase = OVER
        done = "the game is over"
    else:
        done = f"not applied: unknown ruling {ruling!r}"
    shown = f"judge's ruling: {text} — {done}"
    t.notes.append(shown)
    t.lines.append(f"# judge: {shown}")
    return shown


def _undo(t: Tracker, undone: str, now: float) -> str:
    hist = t.game.history
    if not hist:
        return "not applied here: this game has no action to undo"
    last = hist[-1].action.text()
    if undone and last != undone:
        return f"not applied here: the last action here is '{last}', not '{undone}'"
    t.game.undo()
    t._dials_cache = (-1, {})  # keyed by history length: a new action may reach it again
    t._options_cache = (-1, [])
    for i in range(len(t.lines) - 1, -1, -1):  # its log line becomes a comment (replay skips
        line = t.lines[i]  # it); same length: the recorder's count of lines holds
        if type(line) is str and not line.startswith("#") and \
                line.split("\n", 1)[0].split("|", 1)[0].strip() == last:
            t.lines[i] = "\n".join(part if part.startswith("#") else
                                   f"# undone by the judge: {part}"
                                   for part in line.split("\n"))
            break
    _rules_dials(t, now)
    return f"'{last}' taken back; the dials go back to what the rules say"


def _rules_dials(t: Tracker, now: float) -> None:
    """Every dial's expectation from the rules' state as it is now."""
    settings = t.dials()
    for st in t.slots.values():
        st.exp = None
        setting = settings.get(st.dial)
        if st.seen is None:
            continue
        if setting is None or setting.click is None:
            st.want, st.free = st.seen, True
        else:
            st.want = nearest(st, st.phys(setting.click))
            st.free = False
        _rejudge(st, now, "the judge took the last action back")


def _set_dial(t: Tracker, figure: str, kind: str, click: int, now: float) -> str:
    st = t.slot_of(Dial(figure, kind))
    if st is None:
        return f"not applied: {figure} has no {kind} dial on the tray"
    if st.seen is not None:
        st.want = nearest(st, st.phys(click))
        st.free = False
    st.exp = None
    _rejudge(st, now, f"the judge ruled it must show click {click}")
    return f"{st.label} must show click {click} (the rules state itself is unchanged)"


def _rejudge(st: Any, now: float, why: str) -> None:
    """Judged again at the next tick: flagged (with ``why``) until the dial shows what it must;
    never read as a player's decision meanwhile."""
    if st.flag is not None and st.flag.kind != mk.FAULT and st.flag.resolved is None:
        st.flag.resolved = now
        st.flag.resolution = "the judge ruled"
        st.flag = None
    st.restored = False  # the judge has looked at it
    st.eyed = None
    st.failed = why if st.want is not None and st.seen != st.want else ""
    st.judged = False
    st.moved_at = float("-inf")  # at rest: judged at the next tick


__all__ = ["apply_ruling"]
