"""Step-by-step "Hit the Deck!" for a table playing without a scenario (AC-M04..M09).

    >>> from dialtray.rules.core.dice import ManualDice
    >>> s = SetupSession([TeamSpec("Kim", ["sample-genghis"]), TeamSpec("Tim", ["sample-ruffian"])],
    ...                  ManualDice([6, 6, 1, 1]))
    >>> s.roll_first_player()
    0

Order enforced: recruit (AC-M01, AC-M03, checked at once) -> first player rolls (AC-M04) -> the
first player chooses the map (AC-M05) -> the player to the left chooses a starting area (AC-M06;
AC-A14 the rest follow in order, the first player last) -> placement, the first player's whole team
first, then each next player to the left (AC-M09), each character in its own starting area ->
``start()`` returns the game with every Ace on its starting click (AC-M08).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.figures import Figure, default_catalogue
from dialtray.rules.aces.game import H_DECK, AcesGame
from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.maps import AcesMap, Terrain
from dialtray.rules.aces.scenarios import (
    TeamSpec,
    labels_for,
    placement_order,
    roll_first_player,
    validate_team,
)
from dialtray.rules.aces.talents import Talents
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event


class SetupSession:
    def __init__(
        self,
        teams: Sequence[TeamSpec],
        dice: DiceSource,
        catalogue: Mapping[str, Figure] | None = None,
        build_total: int = 100,
    ) -> None:
        self.teams = list(teams)
        self.dice = dice
        self.catalogue = catalogue or default_catalogue()
        self.build_total = build_total
        self.labels = labels_for(self.teams)
        for team, rows in zip(self.teams, self.labels, strict=True):
            validate_team([self.catalogue[f] for _, f in rows], build_total, team.name)
        self.first: int | None = None
        self.rolls: tuple[tuple[int, ...], ...] = ()
        self.map: AcesMap | None = None
        self.areas: dict[int, int] = {}
        self.placed: dict[str, Square] = {}

    @property
    def players(self) -> int:
        return len(self.teams)

    def _refuse(self, what: str, why: str, mechanic: str) -> None:
        raise IllegalActionError(what, why, mechanic, H_DECK)

    def roll_first_player(self) -> int:
        """AC-M04: 2d6 each, highest first, tied players reroll."""
        if self.first is not None:
            self._refuse("roll for first player", "already rolled", "AC-M04")
        self.first, self.rolls = roll_first_player(self.dice, self.players)
        return self.first

    def choose_map(self, player: int, m: AcesMap) -> None:
        """AC-M05: the first player chooses the map."""
        if self.first is None:
            self._refuse(f"P{player + 1} chooses {m.name}", "roll for first player first", "AC-M05")
        if player != self.first:
            self._refuse(
                f"P{player + 1} chooses {m.name}", "the first player chooses the map", "AC-M05"
            )
        if len(m.starting_areas) < self.players:
            self._refuse(
                f"choose {m.name}",
                f"it has {len(m.starting_areas)} starting areas for {self.players} players",
                "AC-M07",
            )
        self.map = m

    def next_chooser(self) -> int | None:
        """AC-M06 / AC-A14: the player left of the first chooses first; the first player last."""
        if self.first is None:
            return None
        order = placement_order(self.first, self.players)
        for p in order[1:] + order[:1]:
            if p not in self.areas:
                return p
        return None

    def choose_area(self, player: int, area: int) -> None:
        if self.map is None:
            self._refuse(
                f"P{player + 1} chooses area {area}", "the map is not chosen yet", "AC-M06"
            )
        assert self.map is not None
        want = self.next_chooser()
        if player != want:
            who = "nobody" if want is None else f"P{want + 1}"
            self._refuse(f"P{player + 1} chooses area {area}", f"it is {who}'s choice", "AC-M06")
        numbers = {a.number for a in self.map.starting_areas}
        if area not in numbers or area in self.areas.values():
            self._refuse(f"P{player + 1} chooses area {area}", "not a free starting area", "AC-M06")
        self.areas[player] = area
        if len(self.areas) == self.players - 1:  # AC-A14: the last one takes what is left
            last = self.next_chooser()
            assert last is not None
            self.areas[last] = min(numbers - set(self.areas.values()))

    def next_to_place(self) -> tuple[int, str] | None:
        """AC-M09: (player, label) to place next: the first player's team, then leftwards."""
        if self.first is None or len(self.areas) < self.players:
            return None
        for p in placement_order(self.first, self.players):
            for label, _ in self.labels[p]:
                if label not in self.placed:
                    return p, label
        return None

    def place(self, label: str, square: Square) -> None:
        nxt = self.next_to_place()
        what = f"place {label} {square.name()}"
        if nxt is None:
            self._refuse(
                what, "choose the map and starting areas first, or all are placed", "AC-M09"
            )
        assert nxt is not None and self.map is not None
        player, _ = nxt
        mine = {lab for lab, _ in self.labels[player]}
        if label not in mine:
            self._refuse(what, f"P{player + 1} places its team now", "AC-M09")
        area = {a.number: a for a in self.map.starting_areas}[self.areas[player]]
        if square not in area:
            self._refuse(what, f"outside P{player + 1}'s starting area {area.number}", "AC-M09")
        if self.map.terrain_at(square) is Terrain.BLOCKING or square in self.placed.values():
            self._refuse(what, "square blocked or taken", "AC-M24")
        self.placed[label] = square

    def start(
        self,
        turn_limit: int = 0,
        captives_count_on_map: bool = False,
        talents: Talents | None = None,
    ) -> AcesGame:
        if self.next_to_place() is not None or self.map is None or self.first is None:
            self._refuse("start", "setup not finished", "AC-M09")
        assert self.map is not None and self.first is not None
        out: list[Event] = [
            ev.GameCreated(
                self.map.name,
                tuple(t.name for t in self.teams),
                self.build_total,
                turn_limit,
                captives_count_on_map,
            ),
            ev.FirstPlayerRolled(self.rolls, self.first),
        ]
        out.extend(ev.StartingAreaChosen(p, a) for p, a in sorted(self.areas.items()))
        for p, rows in enumerate(self.labels):
            out.extend(ev.Recruited(label, fid, p) for label, fid in rows)
        out.extend(ev.Placed(label, sq.name()) for label, sq in self.placed.items())
        out.append(ev.TurnPassed(self.first))
        return AcesGame(self.map, out, self.dice, self.catalogue, talents)
