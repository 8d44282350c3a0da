"""The terminal view of a tracked game (Rich): every dock's figure, its click and values, the
phase, whose turn, what the tray waits for, the flags, the dice, the decisions one may type.

Reads only the tracker's plain-data ``View``; draws nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dialtray.tracker.marks import turn_words
from dialtray.tracker.view import View

MAX_LEGAL_SHOWN = 14


def render(v: View, *, title: str, phase: str, humans: Sequence[str], messages: Sequence[str],
           sim: bool, judge_vp: Mapping[str, int] | None = None) -> Group:
    head = Text()
    head.append(f"{title}  ", style="bold")
    head.append(f"{phase}  ")
    who = v.to_move or "nobody"
    head.append(f"to move: {who}", style="bold cyan")
    if v.to_move in humans:
        head.append("  (you)", style="bold green")
    head.append(f"  tracker: {v.phase}")

    docks = Table(box=None, pad_edge=False, show_edge=False, expand=False)
    for col in ("dock", "figure", "dial", "click", "values", "tray"):
        docks.add_column(col)
    for d in v.docks:
        values = " ".join(f"{k}={val}" for k, val in d.values.items())
        if d.turn:
            state = Text(f"turn {turn_words(d.turn)}", style="bold yellow" if d.status == "turn"
                         else "bold red")
        elif d.status != "ok":
            state = Text(d.status, style="bold red")
        else:
            state = Text("ok", style="green")
        click = "-" if d.click is None else str(d.click)
        figure = d.figure + ("" if d.in_play else " (out)")
        docks.add_row(f"{d.dock} {'cs'[d.reader]}", figure, d.kind, click, values, state)

    waits = Text("the tray waits for: ", style="bold")
    waits.append("; ".join(v.waiting_for))
    parts: list[object] = [head, docks, waits]
    if v.flags:
        flags = Text()
        for f in v.flags:
            flags.append(f"! {f}\n", style="bold red")
        parts.append(Panel(flags, title="put right", border_style="red"))
    if v.last_roll:
        parts.append(Text(f"dice: {v.last_roll}", style="magenta"))
    for n in v.notes[-3:]:
        parts.append(Text(f"judge: {n}", style="dim"))
    if judge_vp:  # a judge's VP rulings, beside the rules' VP table (tracker.rulings)
        parts.append(Text("judge's VP: " + ", ".join(f"{seat} {n:+d}" for seat, n in
                                                   sorted(judge_vp.items())), style="yellow"))
    if v.outcome:
        parts.append(Text(f"game over: {v.outcome}  VP {v.vp}", style="bold green"))
    elif v.to_move in humans and v.legal:
        shown = ", ".join(v.legal[:MAX_LEGAL_SHOWN])
        more = f" … ({v.legal_count} in all)" if v.legal_count > MAX_LEGAL_SHOWN else ""
        parts.append(Text(f"you may type: {shown}{more}", style="cyan"))
    for m in messages[-4:]:
        parts.append(Text(m))
    hint = "type a decision, 'dispute TEXT', 'legal', 'quit'"
    if sim:
        hint += ", or a sim command ('turn 0 speed -4', 'help sim')"
    parts.append(Text(hint, style="dim"))
    return Group(*parts)  # type: ignore[arg-type]
