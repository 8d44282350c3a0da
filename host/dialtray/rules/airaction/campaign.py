"""Campaign play across games (seed 002 "Playing a Crimson Skies: Air Action Campaign",
"Gaining Experience", "Bailing Out"; AA-M71..M80, AA-A09).

A campaign file (JSON) records every pilot: figure, experience level, accumulated XP and whether
the pilot is still alive. ``apply_game`` folds one finished campaign game into it; the in-game
part (XP awards, bail-out rolls, heroic acts, overflow clicks) is in ``game.py``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from dialtray.rules.airaction.catalogue import LEVELS, Catalogue, Figure
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane

XP_PER_MULTIPLIER = 100  # AA-M73
START_LEVEL = "rookie"  # AA-M71


def xp_to_advance(fig: Figure, level: str) -> int | None:
    """AA-M73: 100 x the experience multiplier; None when there is no next level (AA-A09:
    Legend, whose multiplier is not given, is terminal)."""
    mult = fig.levels[level].multiplier
    if mult is None or next_level(fig, level) is None:
        return None
    return XP_PER_MULTIPLIER * mult


def next_level(fig: Figure, level: str) -> str | None:
    i = LEVELS.index(level)
    for nxt in LEVELS[i + 1 :]:
        if nxt in fig.levels:
            return nxt
    return None


@dataclass
class PilotRecord:
    pilot: str
    figure: str
    level: str = START_LEVEL
    xp: int = 0
    alive: bool = True
    history: list[str] = field(default_factory=list)


@dataclass
class Campaign:
    pilots: dict[str, PilotRecord] = field(default_factory=dict)

    def add_pilot(self, pilot: str, figure: str) -> PilotRecord:
        """AA-M71: every pilot starts at Rookie."""
        if pilot in self.pilots:
            raise ValueError(f"pilot {pilot!r} already in the campaign")
        rec = PilotRecord(pilot, figure)
        self.pilots[pilot] = rec
        return rec

    def squadron_plane(self, pilot: str, plane_id: str, ace: str | None = None) -> SquadronPlane:
        rec = self.pilots[pilot]
        if not rec.alive:
            raise ValueError(f"{pilot} perished in a burning wreck and cannot fly (AA-M78)")
        return SquadronPlane(plane_id, rec.figure, rec.level, ace)

    @classmethod
    def load(cls, path: str | Path) -> Campaign:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls({k: PilotRecord(**v) for k, v in doc.get("pilots", {}).items()})

    def save(self, path: str | Path) -> None:
        doc = {"pilots": {k: asdict(v) for k, v in self.pilots.items()}}
        Path(path).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def advance(rec: PilotRecord, cat: Catalogue) -> list[str]:
    """AA-M73 with AA-A09: advance while XP reaches the threshold; excess carries over."""
    fig = cat.figures[rec.figure]
    steps: list[str] = []
    while rec.alive:
        need = xp_to_advance(fig, rec.level)
        nxt = next_level(fig, rec.level)
        if need is None or nxt is None or rec.xp < need:
            break
        rec.xp -= need
        rec.level = nxt
        steps.append(nxt)
    return steps


def apply_game(campaign: Campaign, game: AirActionGame, pilots: Mapping[str, str]) -> list[str]:
    """Add a finished campaign game's XP and deaths to the campaign (``pilots`` maps plane ids
    of the game to campaign pilot names). Returns a report, one line per change."""
    if not game.state.campaign:
        raise ValueError("not a campaign game")
    if game.outcome() is None:
        raise ValueError("the game is not over")
    report: list[str] = []
    for plane_id, name in pilots.items():
        rec = campaign.pilots[name]
        if not rec.alive:
            continue
        gained = game.state.xp.get(plane_id, 0)
        if plane_id in game.state.dead:
            rec.alive = False
            report.append(f"{name} perished; no more experience (AA-M78)")
            continue
        rec.xp += gained
        if gained:
            report.append(f"{name} +{gained} XP")
        for lv in advance(rec, game.cat):
            report.append(f"{name} advances to {lv}")
    return report
