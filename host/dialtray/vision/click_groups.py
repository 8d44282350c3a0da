"""Which clicks of a dial the camera can tell apart, and how (``classify.py``'s bookkeeping).

Clicks that print the same values, colours and marks are one *class*: the camera cannot tell
them apart (the encoder decides). Classes whose prints differ only in a colour block look
alike in grey: they are one grey *group*, read as one look by the correlation and the
synthesis, and told apart afterwards by the colour blocks seen: first by naming each block's
colour (``colours.read_colours``), and when a block cannot be named (too dark, a figure over
part of it) by which click's own reference its chroma is clearly nearest
(``colours.closest_colours``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dialtray.vision.colours import cell_chromas, closest_colours, read_colours
from dialtray.vision.faces import Face
from dialtray.vision.layout import Window
from dialtray.vision.register import Image


class ClickGroups:
    """A dial's classes (clicks alike), grey groups (classes alike in grey) and the colour
    blocks of each click's reference."""

    def __init__(self, faces: Sequence[Face], crops: Sequence[Image],
                 offsets: Sequence[tuple[int, int]], window: Window, hues: dict[str, int]
                 ) -> None:
        self.window = window
        self.ref_colours = [read_colours(c, o, window, hues)
                            for c, o in zip(crops, offsets, strict=True)]
        self.ref_chromas = [cell_chromas(c, o, window)
                            for c, o in zip(crops, offsets, strict=True)]
        keys: dict[tuple[Any, ...], int] = {}
        self.classes: list[tuple[int, ...]] = []  # class -> clicks
        self.class_of: list[int] = []  # click -> class
        for i, f in enumerate(faces):
            k = f.key()
            if k not in keys:
                keys[k] = len(self.classes)
                self.classes.append(())
            self.classes[keys[k]] += (i,)
            self.class_of.append(keys[k])
        gkeys: dict[tuple[Any, ...], int] = {}
        self.group_of: list[int] = []  # class -> grey group
        self.groups: list[tuple[int, ...]] = []  # grey group -> classes
        for members in self.classes:
            f = faces[members[0]]
            gk = (tuple(sorted(f.values.items())), tuple(sorted(f.marks.items())))
            if gk not in gkeys:
                gkeys[gk] = len(self.groups)
                self.groups.append(())
            self.groups[gkeys[gk]] += (len(self.group_of),)
            self.group_of.append(gkeys[gk])

    def clicks(self, group: int) -> tuple[int, ...]:
        return tuple(sorted(i for c in self.groups[group] for i in self.classes[c]))

    def by_colour(self, group: int, seen: Mapping[str, str]) -> tuple[tuple[int, ...], str]:
        """The clicks of a grey group whose colour blocks are the ones seen (several when
        their references look alike), or () and why not."""
        def clash(c: int) -> list[str]:
            want = self.ref_colours[self.classes[c][0]]
            return [k for k, v in seen.items()
                    if v != "unknown" and want.get(k, "unknown") != "unknown" and v != want[k]]
        members = self.groups[group]
        fits = [c for c in members if not clash(c)]
        if not fits:
            c = members[0]
            return (), (f"colour of {', '.join(clash(c))} does not match click "
                        f"{self.classes[c][0]}'s reference")
        if len(fits) == 1:  # one class fits: no cell need tell it from another
            return self.classes[fits[0]], ""
        # the cells whose colour tells the group's clicks apart must have been seen
        tell = {k for c in members for k, v in self.ref_colours[self.classes[c][0]].items()
                if any(self.ref_colours[self.classes[o][0]].get(k) != v for o in members)}
        blind = sorted(k for k in tell if seen.get(k, "unknown") == "unknown")
        if blind:
            return (), f"colour of {', '.join(blind)} not readable: it tells clicks " \
                f"{'/'.join(str(i) for i in self.clicks(group))} apart"
        looks = {tuple(sorted(self.ref_colours[self.classes[c][0]].items())) for c in fits}
        if len(looks) > 1:  # fits differ in a cell seen as unknown... but blind was empty
            return (), "colour blocks ambiguous"
        return tuple(sorted(i for c in fits for i in self.classes[c])), ""

    def by_chroma(self, group: int, crop: Image, offset: tuple[int, int],
                  over: npt.NDArray[np.bool_] | None, seen: Mapping[str, str], why: str
                  ) -> tuple[tuple[int, ...], str]:
        """The clicks of a grey group told apart by colour blocks ``by_colour`` could not
        name: the class whose own reference's blocks the photo's are clearly nearest
        (``closest_colours``), if no colour named in the photo (``seen``) contradicts it;
        else () and why (``why``: ``by_colour``'s reason, with what the chroma showed)."""
        members = self.groups[group]
        if len(members) < 2:
            return (), why
        chroma = cell_chromas(crop, offset, self.window, over)
        best, told = closest_colours(chroma, {self.classes[c][0]: self.ref_chromas[
            self.classes[c][0]] for c in members})
        if best is None:
            return (), f"{why} ({told})"
        want = self.ref_colours[best]
        if any(v != "unknown" and want.get(k, "unknown") not in ("unknown", v)
               for k, v in seen.items()):
            return (), why  # a colour named in the photo is not this click's
        return self.classes[self.class_of[best]], ""
