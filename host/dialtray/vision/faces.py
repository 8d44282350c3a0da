"""What a dial shows at each click, taken from (and written back into) a catalogue document.

A *face* is one click as the camera sees it through a window: the printed values, their colour
blocks and marks (Air Action's bullet holes under the combat values, the red line on the speed
dial, an Ace card's KO bar). Click order is the catalogue file's order (Air Action:
``combat_dial`` clockwise from click 0, ``speed_dial`` in throttle-up order; Aces: ``dial``
from the starting end; an Air Action Ace card: its ``dial``, whose window is ``ace``).

No OpenCV here: the renderer, the classifier's references and ``dialtray capture`` share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

AIRACTION_COMBAT = ("max_speed", "front_gunnery", "rear_gunnery", "piloting")
ACES_COMBAT = ("speed", "attack", "defense", "fate")
ACE_CARD = ("attack", "fate")  # an Air Action Ace card's dial (AA-M63/M64: attack, fate, KO)
GAMES = ("airaction", "aces")
BASE_TYPE = {"airaction": "airaction-plane", "aces": "aces-figure"}
ACE_BASE_TYPE = "airaction-ace"  # an Ace card: a card, its one window ``ace``


@dataclass(frozen=True)
class Face:
    """One click of one dial: printed values, colour names (catalogue names) and marks."""

    values: Mapping[str, int]
    colours: Mapping[str, str] = field(default_factory=dict)
    marks: Mapping[str, int] = field(default_factory=dict)

    def key(self) -> tuple[Any, ...]:
        """Equal keys look the same through the window (the camera cannot tell them apart)."""
        return (tuple(sorted(self.values.items())), tuple(sorted(self.colours.items())),
                tuple(sorted(self.marks.items())))

    def to_dict(self) -> dict[str, Any]:
        return {"values": dict(self.values), "colours": dict(self.colours),
                "marks": dict(self.marks)}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> Face:
        return Face(dict(d["values"]), dict(d.get("colours", {})), dict(d.get("marks", {})))


def game_of(doc: Mapping[str, Any]) -> str:
    """``airaction`` for a plane file (combat_dial + speed_dial) or an Ace card, ``aces`` for
    a figure's ``dial``."""
    if "combat_dial" in doc or is_ace_card(doc):
        return "airaction"
    if "dial" in doc:
        return "aces"
    raise ValueError("neither combat_dial (Air Action) nor dial (Aces): not a figure file")


def is_ace_card(doc: Mapping[str, Any]) -> bool:
    """An Air Action Ace card's document (``data/airaction/aces``): a ``dial`` of attack and
    fate (an Aces figure's dial prints speed too)."""
    dial: Any = doc.get("dial")
    return bool(dial) and "speed" not in dial[0] and "attack" in dial[0]


def base_type_of(doc: Mapping[str, Any]) -> str:
    """The layout's base type a figure's (or Ace card's) document is read through."""
    return ACE_BASE_TYPE if is_ace_card(doc) else BASE_TYPE[game_of(doc)]


def dial_faces(doc: Mapping[str, Any]) -> dict[str, list[Face]]:
    """Faces per dial kind (``combat``, and ``speed`` for an Air Action plane; ``ace`` for an
    Ace card)."""
    if is_ace_card(doc):
        return {"ace": [Face({k: int(c[k]) for k in ACE_CARD}, {},
                             {"ko": int(bool(c.get("ko")))}) for c in doc["dial"]]}
    if game_of(doc) == "airaction":
        combat = [
            Face({k: int(c[k]) for k in AIRACTION_COMBAT},
                 {k: str(v) for k, v in c.get("colours", {}).items()},
                 {"bullet_holes": int(c["bullet_holes"])})
            for c in doc["combat_dial"]
        ]
        speed = [Face({"speed": int(p["speed"])}, {},
                      {"red_line": 1} if p.get("red_line") else {})
                 for p in doc["speed_dial"]]
        return {"combat": combat, "speed": speed}
    return {"combat": [Face({k: int(c[k]) for k in ACES_COMBAT},
                            {k: str(v) for k, v in c.get("colours", {}).items()})
                       for c in doc["dial"]]}


def faces_to_document(base: Mapping[str, Any], faces: Mapping[str, list[Face]],
                      extra: Mapping[str, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """A catalogue document: ``base`` (the figure's non-dial fields) with the dials from
    ``faces``. ``extra`` adds per-click fields the window does not show (Air Action's
    ``bail_out``, ``structural_limit``, a speed position's ``effect``), click by click."""
    doc = {k: v for k, v in base.items() if k not in ("combat_dial", "speed_dial", "dial")}
    extra = extra or {}
    if "ace" in faces:  # an Air Action Ace card
        doc["dial"] = [{**{k: f.values[k] for k in ACE_CARD},
                        **({"ko": True} if f.marks.get("ko") else {})} for f in faces["ace"]]
        return doc
    if "speed" in faces:  # an Air Action plane: two dials
        combat = []
        for i, f in enumerate(faces["combat"]):
            c: dict[str, Any] = {k: f.values[k] for k in AIRACTION_COMBAT}
            if f.colours:
                c["colours"] = dict(f.colours)
            c["bullet_holes"] = int(f.marks.get("bullet_holes", 0))
            c.update(_extra(extra, "combat", i))
            combat.append(c)
        speed = []
        for i, f in enumerate(faces["speed"]):
            p: dict[str, Any] = {"speed": f.values["speed"]}
            if f.marks.get("red_line"):
                p["red_line"] = True
            p.update(_extra(extra, "speed", i))
            speed.append(p)
        doc["combat_dial"], doc["speed_dial"] = combat, speed
    else:
        dial = []
        for f in faces["combat"]:
            d: dict[str, Any] = {k: f.values[k] for k in ACES_COMBAT}
            if f.colours:
                d["colours"] = dict(f.colours)
            dial.append(d)
        doc["dial"] = dial
    return doc


def _extra(extra: Mapping[str, list[dict[str, Any]]], kind: str, i: int) -> dict[str, Any]:
    rows = extra.get(kind, [])
    return dict(rows[i]) if i < len(rows) else {}
