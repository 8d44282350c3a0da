"""What the camera made of one settled click (``Witnessed``) and its states: the answers
``witness.CameraWitness`` gives (its module docstring says what each state means), kept apart
so that what reads them (the table's log, the tray view, the benches) need not know how they
are made."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from dialtray.vision.layout import place_text

CONFIRM, DISAGREE, MIDTURN, UNSURE, CAMERA_ONLY = (
    "confirmed", "disagree", "mid-turn", "unsure", "camera-only")


@dataclass(frozen=True)
class Witnessed:
    """What the camera made of one settled click (``witness.py``'s module docstring). ``dock`` is
    the place the dial is seen at: a dock, or a dock's holder (``layout.HOLDER + dock``)."""

    dock: int
    dial: str
    figure: str
    encoder: int | None
    state: str
    camera: tuple[int, ...]
    click: int | None
    frames: int
    bursts: int
    reason: str = ""
    todo: str = ""
    at: float = 0.0
    asked: float = 0.0  # when the encoder's settle asked for the read (settle -> answer:
    # at - asked, the wait for the camera thread to take the request included)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "camera": list(self.camera), "at": round(self.at, 3),
                "asked": round(self.asked, 3)}

    def line(self) -> str:
        """One line for the tray view and the game's log."""
        who = f"{place_text(self.dock)} {self.dial}"
        if self.state == CONFIRM:
            return f"{who}: click {self.click} confirmed by the camera ({self.frames} frames)"
        if self.state == CAMERA_ONLY:
            what = f"click {self.click}" if self.click is not None else \
                f"click {' or '.join(map(str, self.camera))} (they print alike)"
            return f"{who}: the camera reads {what} ({self.frames} frames)"
        text = f"{who}: {self.state}: {self.reason}"
        return f"{text} — {self.todo}" if self.todo else text
