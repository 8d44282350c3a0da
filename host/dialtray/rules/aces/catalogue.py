"""What an Aces game can use: figures, the talents map, maps and scenarios, built-in and custom.

The shipped data (``data/aces``) is the built-in catalogue. A custom catalogue is a directory with
any of ``figures/*.json``, ``maps/*.map``, ``scenarios/*.json`` and ``talents.json``; it **adds
to or overrides** the built-in one (a figure, map or scenario with the same id/name replaces the
shipped one; ``talents.json`` adds or overrides abilities and colours). An Aces log selects one
with ``Catalogue: DIR`` (relative to the log), as an Air Action log does.

Every bad file is a ``CatalogueError`` (``FILE: figure ID: field F: what is wrong``) or, for a
map, a ``MapError`` (``FILE:LINE:COLUMN: what is wrong``); a colour on a dial that the talents
map does not know is an error (issue 10), never silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from dialtray.rules.aces.figures import (
    DATA_DIR,
    FIGURES_DIR,
    SCHEMA_PATH,
    Figure,
    figure_from_document,
    semantic_check,
)
from dialtray.rules.aces.maps import MAPS_DIR, AcesMap, load_map
from dialtray.rules.aces.talents import TALENTS_PATH, Talents, check_colours, load_talents
from dialtray.rules.core.catalogue import load_documents, load_schema
from dialtray.rules.core.errors import CatalogueError

SCENARIOS_DIR = DATA_DIR / "scenarios"
BUILTIN = "built-in"


@dataclass(frozen=True)
class AcesCatalogue:
    """Figures by id, the talents map, map files by name, scenario files by id; ``origin``
    says where each figure/map/scenario comes from (``built-in`` or the custom directory)."""

    figures: Mapping[str, Figure]
    talents: Talents
    maps: Mapping[str, Path]
    scenarios: Mapping[str, Path]
    origin: Mapping[str, str] = field(default_factory=dict)

    def load_map(self, name: str) -> AcesMap:
        """A map by name (custom first, then shipped); a name with a suffix is a path."""
        if Path(name).suffix:
            return load_map(name)
        if name not in self.maps:
            known = ", ".join(sorted(self.maps))
            raise CatalogueError("maps", name, "map", f"no map {name!r} (known: {known})")
        return load_map(self.maps[name])

    def overlay(self, directory: str | Path) -> AcesCatalogue:
        """This catalogue with a custom directory's files added or overriding."""
        d = Path(directory)
        if not d.is_dir():
            raise CatalogueError(str(d), "-", "(directory)", "no such directory")
        parts = [d / "figures", d / "maps", d / "scenarios", d / "talents.json"]
        if not any(p.exists() for p in parts):
            raise CatalogueError(
                str(d),
                "-",
                "(directory)",
                "holds none of figures/, maps/, scenarios/, talents.json",
            )
        talents = self.talents
        if (d / "talents.json").exists():
            talents = talents.merged(load_talents(d / "talents.json"))
        figures = dict(self.figures)
        origin = dict(self.origin)
        if (d / "figures").is_dir():
            custom = _load_figures(d / "figures")
            figures.update(custom)
            origin.update({fid: str(d) for fid in custom})
        maps = dict(self.maps)
        if (d / "maps").is_dir():
            for p in sorted((d / "maps").glob("*.map")):
                load_map(p)  # a bad map is an error now, not when a game needs it
                maps[p.stem] = p
                origin[f"map:{p.stem}"] = str(d)
        scenarios = dict(self.scenarios)
        if (d / "scenarios").is_dir():
            for p in sorted((d / "scenarios").glob("*.json")):
                scenarios[p.stem] = p
                origin[f"scenario:{p.stem}"] = str(d)
        check_colours(figures.values(), talents)
        return AcesCatalogue(figures, talents, maps, scenarios, origin)


def _load_figures(directory: Path) -> dict[str, Figure]:
    docs = load_documents(directory, load_schema(SCHEMA_PATH), "id", semantic_check)
    return {fid: figure_from_document(doc, str(path)) for fid, (path, doc) in docs.items()}


@lru_cache(maxsize=1)
def builtin() -> AcesCatalogue:
    """The shipped catalogue (every item a sample, marked so in its file)."""
    figures = _load_figures(FIGURES_DIR)
    talents = load_talents(TALENTS_PATH)
    check_colours(figures.values(), talents)
    maps = {p.stem: p for p in sorted(MAPS_DIR.glob("*.map"))}
    scenarios = {p.stem: p for p in sorted(SCENARIOS_DIR.glob("*.json"))}
    origin = {fid: BUILTIN for fid in figures}
    origin.update({f"map:{m}": BUILTIN for m in maps})
    origin.update({f"scenario:{s}": BUILTIN for s in scenarios})
    return AcesCatalogue(figures, talents, maps, scenarios, origin)


def catalogue_for(directory: str | Path | None) -> AcesCatalogue:
    """The built-in catalogue, with ``directory`` laid over it when given."""
    return builtin() if directory is None else builtin().overlay(directory)
