"""The terminal view of a table (``dialtray.table.TableView``), fitted to the terminal: the header
(game, turn, phase, who is to move), the docks in columns, what the tray waits for, the flags,
the latest narration, and last — always visible — what you may type and the prompt's hint.

Lines are cut to the width and the narration gives way first, so the whole view is never taller
than the terminal (a taller one would leave stale copies of its head behind when redrawn).
Long lists of decisions are paged (``more``). ``plain_lines`` is the ``--plain`` form a script
follows line by line.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from dialtray.table import DialDue, TableView, offers
from dialtray.tracker.marks import turn_words
from dialtray.tracker.view import DockView

OFFER_LINES = 3  # "you may type" takes at most this many lines; the rest is paged


def header(v: TableView, humans: Sequence[str]) -> str:
    who = v.to_move or "nobody"
    you = "  (you)" if v.to_move in humans else ""
    when = " ".join(x for x in (v.turn, v.phase) if x)
    return f"{v.title}  {when}  to move: {who}{you}  tracker: {v.tracker_phase}"


def due_line(d: DialDue) -> str:
    """``dock N <dial> dial (<figure>): K clicks clockwise`` first — what to do — then why."""
    reader = "combat" if d.reader == 0 else "speed"  # the reader's name: what `turn` takes
    head = f"dock {d.dock} {reader} dial ({d.figure}): {turn_words(d.clicks)}"
    why = d.text.split("): ", 1)[-1] if "): " in d.text else d.text
    if why.startswith(turn_words(d.clicks)):
        why = why[len(turn_words(d.clicks)):].lstrip(" —")
    return f"{head}{' to put right' if d.flagged else ''} — {why}" if why else head


def waits_of(v: TableView) -> list[str]:
    """Each dial to turn (its own line), then whatever else the tray waits for."""
    out = [due_line(d) for d in v.due]
    labels = {f"dock {d.dock} " for d in v.due}
    out += [w for w in v.waiting_for if not any(w.startswith(x) for x in labels)
            and not (v.due and w.endswith(" to decide"))]
    return out


def wrap2(s: str, width: int) -> list[str]:
    """At most two lines: what to turn is never cut (the reason may be)."""
    import textwrap

    lines = textwrap.wrap(s, width, subsequent_indent="  ", break_on_hyphens=False) or [""]
    if len(lines) > 2:
        rest = " ".join(lines[1:])
        lines = [lines[0], rest if len(rest) <= width else rest[:width - 1] + "…"]
    return lines


def dock_cell(d: DockView) -> str:
    state = "ok" if not d.turn and d.status == "ok" else \
        (f"turn {d.turn:+d}" if d.turn else d.status)
    click = "-" if d.click is None else str(d.click)
    out = "" if d.in_play else " out"
    return f"{d.dock}{'cs'[d.reader]} {d.figure}{out} {click} {state}"


def dock_lines(docks: Sequence[DockView], width: int) -> list[str]:
    if not docks:
        return []
    cell = min(width, max(len(dock_cell(d)) for d in docks) + 2)
    per = max(1, width // cell)
    cells = [dock_cell(d).ljust(cell) for d in docks]
    return ["".join(cells[i:i + per]).rstrip() for i in range(0, len(cells), per)]


def you_may_type(v: TableView, width: int, page: int) -> list[str]:
    """At most ``OFFER_LINES`` lines: "you may type: A, B, …" then "… N more: type 'more'"."""
    texts = offers.flat(v.offers)
    if not texts:
        return []
    lines: list[str] = []
    line = "you may type: "
    pages: list[int] = [0]
    i = 0
    budget = OFFER_LINES
    # find where each page starts: fill OFFER_LINES lines per page
    while i < len(texts):
        used, cur = 1, len("you may type: ")
        j = i
        while j < len(texts):
            need = len(texts[j]) + 2
            if cur + need > width - 1:
                used += 1
                cur = 2
                if used > budget:
                    break
            cur += need
            j += 1
        if j == i:
            j = i + 1
        if j < len(texts):
            pages.append(j)
        i = j
    page = page % len(pages)
    start = pages[page]
    end = pages[page + 1] if page + 1 < len(pages) else len(texts)
    for t in texts[start:end]:
        piece = t + ", "
        if len(line) + len(piece) > width - 1:
            lines.append(line.rstrip())
            line = "  "
        line += piece
    lines.append(line.rstrip().rstrip(","))
    if len(pages) > 1:
        more = len(texts) - end
        lines.append(f"  … {len(texts)} in all, page {page + 1}/{len(pages)}: 'more'"
                     + (f" shows {more} more" if more else " starts again"))
    return [ln[:width] for ln in lines]


def render(v: TableView, *, humans: Sequence[str], narration: Sequence[str],
           messages: Sequence[str], sim: bool, width: int, height: int, page: int = 0,
           asks: Sequence[str] = (), typing: str | None = None) -> Text:
    """The whole screen, at most ``height`` lines of at most ``width`` characters; ``typing``:
    the line being typed, drawn last (``keyline``: the screen is its echo)."""
    def cut(s: str) -> str:
        return s if len(s) <= width else s[:width - 1] + "…"

    top = [cut(header(v, humans))]
    top += dock_lines(v.docks, width)
    waits = [ln for w in waits_of(v)[:4] for ln in wrap2("the tray waits for: " + w, width)]
    flags = [cut("! " + f) for f in v.flags[:3]]
    if v.judge_vp:  # a judge's VP rulings, beside the rules' VP (tracker.rulings)
        flags.append(cut(judge_vp_line(v)))
    bottom: list[str] = []
    if v.over is not None:
        bottom.append(cut(f"game over: {v.over.termination}; winner "
                          f"{v.over.winner or 'none'}"))
    else:
        if v.pending:
            bottom.append(cut(f"the table takes '{v.pending}' unless you type 'wait'"))
        if v.mover in ("human", "table") and v.offers:
            bottom += you_may_type(v, width, page)
        elif v.mover == "bot":
            bottom.append(cut(f"{v.to_move} (a bot) is deciding"))
    bottom += [cut(a) for a in asks[-2:]]
    if v.eye:
        bottom.append(cut(eye_line(v)))
    hint = "type: a decision, legal, more, wait, dispute X, quit"
    if sim and v.docks:  # the virtual tray's dials turned by typing: the dial due, if one is
        d = v.due[0] if v.due else None  # (an example that fits this game, never a mistake)
        hint += (f"; sim: turn {d.dock} {'combat' if d.reader == 0 else 'speed'} {d.clicks}"
                 if d is not None else "; sim: turn DOCK DIAL N")
    bottom.append(cut(hint))
    if typing is not None:  # its end stays in sight (and room for the cursor)
        bottom.append("> " + (typing if len(typing) <= width - 3 else
                              "…" + typing[len(typing) - (width - 4):]))
    room = height - 1 - len(top) - len(waits) - len(flags) - len(bottom)
    news = [cut(m) for m in [*narration, *messages]][-max(0, room):] if room > 0 else []
    lines = [*top, *waits, *flags, *news, *bottom]
    if len(lines) > height - 1:  # a tiny terminal: the bottom (what to type) wins
        lines = lines[-(height - 1):]
    text = Text()
    for i, line in enumerate(lines):
        style = "bold" if i == 0 and line is top[0] else None
        if line.startswith("!"):
            style = "bold red"
        elif line.startswith("you may type") or (line.startswith("  ") and line in bottom):
            style = "cyan"
        last = i == len(lines) - 1
        text.append(line + ("" if last else "\n"), style=style)
    if typing is not None:
        text.append(" ", style="reverse")  # the cursor, where the next key goes
    return text


def eye_line(v: TableView) -> str:
    """The dials whose encoder lost track, with what to type to confirm each by eye."""
    return ("look at each dial whose encoder lost track and confirm it by eye: "
            + ", ".join(f"'{c}'" for c in v.eye) + " (add the click it shows if not the rules')")


def judge_vp_line(v: TableView) -> str:
    return "judge's VP: " + ", ".join(f"{seat} {n:+d}" for seat, n in v.judge_vp)


def plain_lines(v: TableView, humans: Sequence[str], page: int = 0) -> list[str]:
    """The ``--plain`` view: one fact per line, the lines a script waits for."""
    out = [header(v, humans)]
    out += [f"the tray waits for: {w}" for w in waits_of(v)]
    out += [f"! {f}" for f in v.flags]
    if v.judge_vp:
        out.append(judge_vp_line(v))
    if v.eye:
        out.append(eye_line(v))
    if v.over is not None:
        out.append(f"game over: {v.over.termination}; winner {v.over.winner or 'none'}")
    elif v.pending:
        out.append(f"the table takes '{v.pending}' unless you type 'wait'")
    if v.over is None and v.mover in ("human", "table") and v.offers:
        out += you_may_type(v, 10_000, page)
    return out
