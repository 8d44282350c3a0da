"""The owner's own FASA box and Sky Ace heroes, written as an owner would (issue 34): shared by
the table's journeys (tests/table) and ``serve``'s (tests/ui)."""

from __future__ import annotations

import json
from pathlib import Path

from dialtray import cli

DATA = Path(cli.__file__).parent / "data"


def owner_box(root: Path, bursts: int | None = None) -> Path:
    """The owner's FASA box: every shot hits the tail table; an own sheet 'my-hawk' (its guns
    with ``bursts`` bursts each when given)."""
    box = root / "box"
    (box / "sheets").mkdir(parents=True)
    hit = json.loads((DATA / "fasa/tables/hit_location.json").read_text(encoding="utf-8"))
    hit.update(id="my-hit-location", sample=False, same_hex="tail")
    hit["sides"] = {side: [{"up_to": 10, "table": "tail"}] for side in hit["sides"]}
    (box / "hit_location.json").write_text(json.dumps(hit), encoding="utf-8")
    sheet = json.loads((DATA / "fasa/sheets/sample-hawk.json").read_text(encoding="utf-8"))
    sheet.update(id="my-hawk", name="Owner's Hawk", sample=False)
    if bursts is not None:
        for gun in sheet["guns"]:
            gun["bursts"] = bursts
    (box / "sheets" / "my-hawk.json").write_text(json.dumps(sheet), encoding="utf-8")
    return box


def owner_heroes(root: Path) -> list[Path]:
    """A hero made with ``skyace hero new`` and a file of one villain."""
    root.mkdir(parents=True, exist_ok=True)
    assert cli.main(["skyace", "hero", "new", str(root / "nightjar.json"),
                     "--name", "Nightjar"]) == 0
    villain = root / "villains.json"
    villain.write_text(json.dumps({"heroes": [{
        "id": "gloom", "name": "Doctor Gloom", "villain": True,
        "powers": ["Fog (HE)", "Chill (SO)", "Ray (DR)", "Hover (CA)"], "abilities": []}]}),
        encoding="utf-8")
    return [root / "nightjar.json", villain]


def greedy_hero(root: Path) -> Path:
    """A hero with one ability too many for its levels (SA-M48): a file to be refused."""
    hero = root / "greedy.json"
    assert cli.main(["skyace", "hero", "new", str(hero)]) == 0
    doc = json.loads(hero.read_text(encoding="utf-8"))
    doc["abilities"] = ["unbreakable", "lucky"]  # levels 1+1+1+1 allow one (SA-M48)
    hero.write_text(json.dumps(doc), encoding="utf-8")
    return hero
