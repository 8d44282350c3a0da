"""What the camera says of one dial (``DialRead``), apart from how it is worked out
(``classify.py``): the reader, the capture, the tests and ``dialtray read`` all pass it on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CLICK, BETWEEN, UNKNOWN = "click", "between", "unknown"


@dataclass(frozen=True)
class DialRead:
    """One dial's reading: ``status`` click / between / unknown; ``clicks`` the click(s) it
    shows (several when they look identical; for ``between`` the likeliest two it sits
    between — a hint, not a confirmed read: only "mid-turn" is);
    ``values``/``colours`` the catalogue values of that click; ``colours_seen`` the colour
    blocks as seen; ``confidence`` 0..1 (0 when unknown); ``reason`` why unknown."""

    dial: str
    status: str
    clicks: tuple[int, ...] = ()
    values: Mapping[str, int] = field(default_factory=dict)
    colours: Mapping[str, str] = field(default_factory=dict)
    colours_seen: Mapping[str, str] = field(default_factory=dict)
    confidence: float = 0.0
    score: float = 0.0
    reason: str = ""

    @property
    def click(self) -> int | None:
        """The click, when the camera alone can name exactly one."""
        return self.clicks[0] if self.status == CLICK and len(self.clicks) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"dial": self.dial, "status": self.status, "click": self.click,
                             "clicks": list(self.clicks), "confidence": round(self.confidence, 3),
                             "score": round(self.score, 3)}
        if self.status == CLICK:
            d["values"], d["colours"] = dict(self.values), dict(self.colours)
        d["colours_seen"] = dict(self.colours_seen)
        if self.reason:
            d["reason"] = self.reason
        return d
