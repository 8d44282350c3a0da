"""The judge's read of the tray's dials against the store, for ``dialtray judge verify`` and the
page's judge view (both only show what this says).

An absolute dial (AS5600) reports the click it sits on: compared with the click the store says
it must show (``judge.dial_histories``: the rules, or a ruling since). An incremental encoder
reports *lost track* for its whole tray boot, with a count relative to that boot, so its
position alone says nothing. A player's confirmation by eye (the ``eye`` record: the boot, the
encoder's count then, and the ``shift`` the tracker added to that boot's counts from then on)
makes it comparable again: in the confirmed boot the dial sits at ``count + shift``, compared
like an absolute dial's. A dial not confirmed in the tray's present boot (never, or only in an
earlier boot: the tray restarted, the counts started again) is said plainly — "look at it" —
and never passes as agreeing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dialtray.link.messages import LOST_TRACK, DialState, Snapshot
from dialtray.store.judge import DialHistory, history_lines, put_right
from dialtray.tracker.state import DEFAULT_DETENTS


@dataclass(frozen=True)
class DialRead:
    """One bound dial read now: ``status`` what the tray shows against the store; ``fix`` what
    to put right (None: nothing); ``look`` an encoder nobody confirmed by eye in this boot."""

    history: DialHistory
    status: str
    fix: str | None = None
    look: bool = False
    agrees: bool = False  # compared with the store, and it agrees
    turn: bool = False  # ``fix`` is a turn (else: check or look at the dial)

    @property
    def ok(self) -> bool:
        return self.fix is None

    def line(self) -> str:
        """The dial's line in ``dialtray judge verify``."""
        h = self.history
        if self.fix is None:
            return f"{h.label}: {self.status}" + (": ok" if self.agrees else "")
        return f"{h.label}: {self.status}: {'PUT RIGHT: ' if self.turn else ''}{self.fix}"

    def row(self) -> dict[str, Any]:
        """The dial's row in the page's judge view (its JSON)."""
        h = self.history
        return {"label": h.label, "dock": h.dock, "status": self.status, "fix": self.fix,
                "ok": self.ok, "look": self.look, "history": history_lines(h)}


def read_dials(hists: list[DialHistory], snap: Snapshot | None) -> list[DialRead]:
    """Every dial of ``hists`` as ``snap`` shows it, in dock order; ``snap`` None: no tray to
    read (every dial "no reader on the tray")."""
    out = []
    for h in sorted(hists, key=lambda h: (h.dock if h.dock is not None else 99, h.reader or 0)):
        d = snap.position(h.dock, h.reader or 0) if snap is not None and h.dock is not None \
            else None
        out.append(read_dial(h, d, snap.boot_id if snap is not None else None))
    return out


def read_dial(h: DialHistory, d: DialState | None, boot: int | None) -> DialRead:
    """``h`` as its reader ``d`` shows it in tray boot ``boot``."""
    if d is None or d.sensor == "none":
        return DialRead(h, "no reader on the tray")
    detents = d.detents or DEFAULT_DETENTS
    said = "the judge" if h.judge_set else "the rules"
    if d.status == LOST_TRACK:
        eye = confirmed(h, boot)
        if eye is None:
            return DialRead(h, f"its encoder lost track at tray boot {boot_text(boot)} and was "
                               "not confirmed by eye since", "look at it", look=True)
        position = d.position + int(eye["shift"])
        shows = position * h.up % detents
        return _against(h, position, detents, said,
                        f"confirmed by eye in this tray boot (its encoder counts {d.position}): "
                        f"it shows click {shows}")
    if d.status != 0:
        return DialRead(h, f"the sensor reports a fault (status {d.status})", "check the dial")
    return _against(h, d.position, detents, said, f"position {d.position}",
                    f" = click {h.want}")


def _against(h: DialHistory, position: int, detents: int, said: str, head: str,
             same: str = "") -> DialRead:
    """A dial that reads ``position`` (``head``: how, in words) compared with the click ``said``
    (the rules or the judge) put it at; ``same``: what an agreeing line adds to ``head``."""
    if h.want is None:
        return DialRead(h, f"{head}; {said} set no click yet")
    fix = put_right(h, position, detents)
    if fix is None:
        return DialRead(h, f"{head}{same}, as {said} say", agrees=True)
    return DialRead(h, f"{head}, {said} say click {h.want}", fix, turn=True)


def confirmed(h: DialHistory, boot: int | None) -> dict[str, Any] | None:
    """The latest confirmation by eye of ``h``'s reader made in tray boot ``boot`` (another
    boot's counts started from elsewhere: never used)."""
    if boot is None:
        return None
    eyes = [i for i in h.items if i["what"] == "eye" and i.get("boot") == boot]
    return eyes[-1] if eyes else None


def summary(reads: list[DialRead]) -> str:
    """The verdict's last line."""
    wrong = sum(1 for r in reads if not r.ok and not r.look)
    look = sum(1 for r in reads if r.look)
    if not wrong and not look:
        return "every dial agrees with the store"
    parts = [f"{wrong} dial(s) to put right"] if wrong else []
    if look:
        parts.append(f"{look} dial(s) to look at (encoders not confirmed by eye in this tray "
                     "boot: confirm them at the table)")
    return "; ".join(parts)


def boot_text(boot: int | None) -> str:
    """A tray boot as the report writes it (``tray boot 0000002a``)."""
    return f"{boot:08x}" if isinstance(boot, int) else "?"
