"""Where a camera-only tray thinks each dial rests, against where the virtual world left it: a
dial counts as read right when its read click prints like the true one (clicks that print alike
look the same to any camera)."""

from __future__ import annotations

from typing import Any

from dialtray.vision import testset
from dialtray.vision.faces import dial_faces


def misread(tray: Any, world: Any, docks: dict[int, str], game: str = "airaction"
            ) -> list[tuple[int, str, int, int]]:
    """The dials of ``tray`` (a ``CameraTray``) whose last read click does not print like
    where ``world`` left them: (dock, dial name, read, true). ``docks``: place -> figure id."""
    figures = {**testset.sample_figures(game), **testset.sample_ace_cards()}
    out = []
    for (dock, dial), d in tray.dials.items():
        truth = round(world.positions[d.place][d.name]) % d.clicks
        seen = (tray._pos[(dock, dial)] * d.up) % d.clicks
        printed = dial_faces(figures[docks[d.place]])[d.name]
        if printed[seen].key() != printed[truth].key():
            out.append((dock, d.name, seen, truth))
    return out
