"""Capture on the rig: the person turns the dial, the encoder says when each click settled, the
camera photographs it then — one reference crop per click, no photo-taking by hand.

The tray link (``TraySession``) reports a ``Click`` once a dial has settled on a detent (the
firmware's settle time); the frame grabbed after that shows the dial still. Click order is the
catalogue's: clockwise from click 0 for a combat dial (damage turns it clockwise), counter-
clockwise for an Air Action speed dial (its clicks are in throttle-up order, and throttling
down is clockwise; see ``link.messages.Click``). The person may turn back and forth: each
click is photographed the first time the dial settles on it, until every click has its crop.

The camera is passed in as ``grab`` (a callable returning a BGR frame): a webcam
(``cv2.VideoCapture``) for the command, a rendered tray in the tests — the one fake, at the
hardware boundary.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dialtray.vision.errors import VisionError
from dialtray.vision.layout import Layout
from dialtray.vision.register import Image, MarkerFinder, register

DIAL_INDEX = {"combat": 0, "speed": 1}  # the link's dial numbers (dialrig.config.DIAL_NAMES)
DIRECTION = {"combat": 1, "speed": -1}  # catalogue click order: +1 clockwise


@dataclass(frozen=True)
class RigDial:
    """One dial to capture: its name, how many clicks the figure's dial has."""

    name: str
    clicks: int


def capture_on_rig(session: Any, grab: Callable[[], Image], layout: Layout, base_type: str,
                   dock: int, dials: list[RigDial], ask: Callable[[str], str],
                   say: Callable[[str], None], click_timeout: float = 120.0
                   ) -> dict[str, list[Image]]:
    """Every click's crop of every dial in ``dials`` (``session``: a synced ``TraySession``).
    Raises ``VisionError`` (nothing captured is kept) when no click comes in time, the
    markers are not in view, or the tray has no such dock."""
    from dialtray.link.messages import Click  # the link, not OpenCV: imported when used

    if dock not in layout.docks:
        raise VisionError(f"dock {dock} is not in the layout {layout.file}")
    bt = layout.base_type(base_type)
    finder = MarkerFinder(layout)

    def crop(dial: str) -> Image:
        frame = grab()
        reg = register(frame, finder, None, "camera frame")
        return reg.crop(frame, layout.docks[dock], bt.windows[dial], bt.name)

    out: dict[str, list[Image]] = {}
    for d in dials:
        index = DIAL_INDEX[d.name]
        clicks: queue.Queue[Click] = queue.Queue()

        def listen(ev: object, index: int = index, clicks: queue.Queue[Click] = clicks) -> None:
            if isinstance(ev, Click) and (ev.dock, ev.dial) == (dock, index):
                clicks.put(ev)

        ask(f"Set dock {dock}'s {d.name} dial to its click 0 (the figure's starting click) "
            "and press Enter: ")
        session.subscribe(listen)
        try:
            state = session.snapshot().position(dock, index)
            if state is None:
                raise VisionError(f"the tray reports no {d.name} dial on dock {dock}")
            start, detents = int(state.position), max(int(state.detents), d.clicks)
            crops: list[Image | None] = [None] * d.clicks
            crops[0] = crop(d.name)
            say(f"{d.name} click 0 captured (1/{d.clicks}); now turn the dial one click at a "
                f"time {'clockwise' if DIRECTION[d.name] > 0 else 'counter-clockwise'}")
            while any(c is None for c in crops):
                try:
                    ev = clicks.get(timeout=click_timeout)
                except queue.Empty:
                    missing = ", ".join(str(i) for i, c in enumerate(crops) if c is None)
                    raise VisionError(f"no click from dock {dock}'s {d.name} dial in "
                                      f"{click_timeout:.0f} s (clicks {missing} not captured)"
                                      ) from None
                k = ((ev.position - start) * DIRECTION[d.name]) % detents
                if k >= d.clicks:
                    say(f"{d.name} at position {k}: past the figure's {d.clicks} clicks, "
                        "turn back")
                elif crops[k] is None:
                    crops[k] = crop(d.name)
                    done = sum(c is not None for c in crops)
                    say(f"{d.name} click {k} captured ({done}/{d.clicks})")
        finally:
            session.unsubscribe(listen)
        out[d.name] = [c for c in crops if c is not None]
    return out
