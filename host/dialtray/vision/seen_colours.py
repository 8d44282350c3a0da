"""A window's colour blocks, read only when something asks for them (issue 35).

Reading a window's colour blocks (``colours.read_colours``: a white balance, a colour
conversion, per-cell votes) was a fifth of a full frame's window reads, made for every window
before the grey read had decided anything. Most reads never needed them: the grey read names
a click whose grey group holds one class (the grey alone tells it from every other click),
sure of it, and a mid-turn read names no colours. The colours are read when a decision asks
(``ClickGroups.by_colour`` when the group's classes differ only in colour, or the grey read
is not ``COLOUR_SURE``; a synthesis), or when a caller looks at ``DialRead.colours_seen``:
what it shows is the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from dialtray.vision.colours import read_colours
from dialtray.vision.layout import Window
from dialtray.vision.register import Image

# A grey read at least this sure of a click whose grey group has one class is not checked
# against its reference's colour blocks (the check reads the colours). Below it the colours
# must agree, as before. Why: on the 7 654 reads of bench_vision's accuracy sets and STRESS
# (bench/compare_reads.py) the check stopped no wrong read of a one-class group; its only
# rejection there was of a right read at 0.90-0.91 (docs/vision.md). Set well above
# decision.CONFIDENCE_THRESHOLD (0.3): a less sure read keeps the check.
COLOUR_SURE = 0.9


class SeenColours(Mapping[str, str]):
    """``read_colours`` of an aligned crop, read on first access and kept. The crop is
    copied (a few kB): a caller may reuse its buffer before anyone asks."""

    def __init__(self, crop: Image, offset: tuple[int, int], window: Window,
                 hues: dict[str, int]) -> None:
        self._crop = crop.copy()
        self._offset, self._window, self._hues = offset, window, hues
        self._read: dict[str, str] | None = None

    @property
    def read(self) -> dict[str, str]:
        """The colour blocks (read now if nobody asked before)."""
        if self._read is None:
            self._read = read_colours(self._crop, self._offset, self._window, self._hues)
        return self._read

    @property
    def was_read(self) -> bool:
        """Whether a decision (or a caller) has asked for them yet."""
        return self._read is not None

    def __getitem__(self, key: str) -> str:
        return self.read[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.read)

    def __len__(self) -> int:
        return len(self.read)

    def __repr__(self) -> str:
        return repr(self.read)
