"""`dialtray capture`'s work once its arguments are checked: a figure's catalogue file and
reference crops made from its crops, one per click of each dial, whether they came from photos
(``capture.crops_from_photos``) or from the rig (``rig.capture_on_rig``).

Which game a base file belongs to, which stats and marks its dials show, the colours the camera
sees, each click confirmed by the person (``capture.confirm_faces``, with the cells read from
the print pre-filled), the file built and checked by the rules engine (``capture.build``) and
written with its reference crops. ``commands.capture`` parses, chooses the source, and turns a
``VisionError``/``CatalogueError`` into one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from dialtray.vision.faces import ACES_COMBAT, AIRACTION_COMBAT, BASE_TYPE
from dialtray.vision.layout import Layout


def figure_game(base: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The game a base file is for, and its dials: an Air Action plane (combat and speed
    dials) or an Aces figure (combat only)."""
    game = "airaction" if ("plane" in base or "combat_dial" in base) else "aces"
    return game, ["combat", "speed"] if game == "airaction" else ["combat"]


def dial_words(game: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The stats and the marks a click of each dial may show, as the person types them."""
    stats = {"combat": list(AIRACTION_COMBAT if game == "airaction" else ACES_COMBAT),
             "speed": ["speed"]}
    marks = {"combat": ["bullet_holes"] if game == "airaction" else [], "speed": ["red_line"]}
    return stats, marks


def confirm_and_build(layout: Layout, base: dict[str, Any], game: str, dials: list[str],
                      crops: dict[str, list[Any]], hint: Mapping[str, Any],
                      ask: Callable[[str], str], say: Callable[[str], None]
                      ) -> tuple[dict[str, Any], Any]:
    """Every click confirmed by the person (the base file's faces, the colours seen and the
    cells read as suggestions), then the catalogue file built and checked by the rules engine:
    (the file's document, the reference crops)."""
    from dialtray.vision.capture import build, confirm_faces, digit_prefill, seen_colours

    base_type = BASE_TYPE[game]
    seen = seen_colours(layout, base_type, crops)
    stats, marks = dial_words(game)
    faces = confirm_faces({d: hint.get(d) for d in dials}, {d: len(crops[d]) for d in dials},
                          seen, stats, marks, ask, say, digit_prefill(layout, base_type, crops))
    doc, refs = build(layout, base, game, crops, faces)
    return doc, refs


def write_figure(out: Path, refs_path: Path, doc: Mapping[str, Any], refs: Any) -> Path:
    """The reference crops (``refs_path/<id>.npz``) and the catalogue file ``out``, each written
    whole or not at all; returns the crops' file."""
    import json

    from dialtray.vision.camera import atomic_write_bytes
    from dialtray.vision.refs import save_refs

    ref_file = refs_path / f"{doc['id']}.npz"
    save_refs(ref_file, refs)
    atomic_write_bytes(out, (json.dumps(doc, indent=1) + "\n").encode())
    return ref_file
