"""What ``dialtray monitor`` prints for each event: a link change, a click or a snapshot in
calibrated clicks, and with a dock file the bound figure's dial values (plain text, no I/O).
``commands.monitor`` connects, reads the events and prints these lines."""

from __future__ import annotations

from dialtray.builder.calibration_view import TrayView
from dialtray.link.messages import Click, DialState, LinkState, Snapshot, TrayEvent
from dialtray.ui.terminal import dialvalues


def link_text(ev: LinkState, port: str, synced: bool) -> str:
    """A link change in words: an open port is not yet a tray that answers."""
    if ev.connected:
        return "link up" if synced else f"port {port} open: waiting for the tray to answer"
    return f"link down: {ev.detail}; waiting for the tray on {port} to come back"


def show(ev: TrayEvent, view: TrayView | None,
         figures: dialvalues.FigureDials | None = None) -> str:
    if view is not None and isinstance(ev, Click):
        return view.click(ev) + figure_text(figures, view, ev.dock, ev.dial, ev.position)
    if view is not None and isinstance(ev, Snapshot):
        rows = [view.dial_row(d) + dial_figure(figures, view, d)
                for d in ev.dials if d.sensor != "none"]
        return f"snapshot ({ev.reason}):" + "".join(f"\n            {r}" for r in rows)
    return str(ev)


def dial_figure(figures: dialvalues.FigureDials | None, view: TrayView, d: DialState) -> str:
    return figure_text(figures, view, d.dock, d.dial, d.position)


def figure_text(figures: dialvalues.FigureDials | None, view: TrayView, dock: int, dial: int,
                position: int) -> str:
    """'\n              A1 combat: …, click 3: max speed 8, …' for a bound dial ('' if not).
    An uncalibrated dial's position is not a click of the figure's dial: say so instead."""
    if figures is None:
        return ""
    window = figures.window(dialvalues.Slot(dock, dial), position)
    if window is None:
        return ""
    if not view.calibrated(dock, dial):
        return f"\n              {window.figure}: values unknown until the dial is calibrated"
    return f"\n              {window.text(position)}"
