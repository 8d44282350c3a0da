"""Aces game logs in the shared notation (``core.notation``), and the ``aces`` game kind that
``dialtray replay`` finds through ``core.registry``.

Header keys of an Aces log::

    Game: aces
    Scenario: kim-vs-tim        # a shipped scenario id (map, teams, placement, victory)
    First: 1                    # first player (1-based); the 2d6 roll-off is not replayed
    Turn-limit: 300             # optional, overrides the scenario's (0 = none)
    Catalogue: my-data          # optional: figures/ maps/ scenarios/ talents.json over the
                                # shipped data, relative to the log (aces.catalogue)
    ---
    move charlie h6
    shoot charlie louis | 2 5 6
    #   charlie ranged attack on louis: [2, 5, 6] vs defense [4]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from dialtray.rules.aces.actions import AcesAction
from dialtray.rules.aces.catalogue import catalogue_for
from dialtray.rules.aces.game import AcesGame
from dialtray.rules.aces.maps import MapError
from dialtray.rules.aces.position import setup_position_lines
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.core.dice import DiceSource, RecordingDice
from dialtray.rules.core.errors import CatalogueError, IllegalActionError
from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import GameLog, format_action_line, format_log

HEADER_KEYS = ("Scenario", "First", "Turn-limit", "Catalogue")
KIND = "aces"
TITLE = "Crimson Skies: Aces"


class AcesKind:
    """The ``aces`` entry of the game-kind registry (``core.registry.GameKind``)."""

    name = KIND
    title = TITLE

    def new_game(self, log: GameLog, dice: DiceSource) -> AcesGame:
        log.check_keys(HEADER_KEYS)
        here = Path(log.name).parent
        data = catalogue_for(None)
        cat_dir = log.one("Catalogue")
        if cat_dir:
            try:
                data = catalogue_for(here / cat_dir)
            except (CatalogueError, MapError, OSError) as exc:
                raise log.error(log.line_of("Catalogue"), f"Catalogue: {exc}") from None
        sc_name = log.one("Scenario")
        if not sc_name:
            raise log.error(log.kind_line, "an Aces log needs 'Scenario: ID'")
        sc_line = log.line_of("Scenario")
        try:  # an id of the catalogue, or a file relative to the log
            sc = load_scenario(here / sc_name if Path(sc_name).suffix else sc_name, data)
        except (OSError, ValueError) as exc:
            raise log.error(sc_line, f"Scenario: {exc}") from None
        first: int | None = None
        if log.values("First"):
            first = log.integer("First", 1, minimum=1, maximum=len(sc.teams)) - 1
        elif sc.first_player is None:
            raise log.error(log.kind_line, "the scenario rolls for first player: give 'First: N'")
        limit = log.integer("Turn-limit", 0) if log.values("Turn-limit") else None
        try:
            return start_scenario(sc, dice, first_player=first, turn_limit=limit, data=data)
        except (IllegalActionError, CatalogueError, MapError, OSError) as exc:
            raise log.error(sc_line, f"Scenario {sc.id}: {exc}") from None


class LogWriter:
    """Applies actions to a game and writes each with its dice faces and event reports."""

    def __init__(
        self,
        game: AcesGame,
        scenario: str,
        first: int | None = None,
        turn_limit: int | None = None,
        catalogue: str | None = None,
    ) -> None:
        """``first`` defaults to the game's first player (rolled at setup, AC-M04);
        ``catalogue`` is the custom data directory the game used, as the log should name it."""
        if first is None:
            first = game.state.first_player
        self.game = game
        self.recorder = RecordingDice(game.dice)
        game.dice = self.recorder
        self.header: list[tuple[str, str]] = [("Scenario", scenario), ("First", str(first + 1))]
        if turn_limit is not None:
            self.header.append(("Turn-limit", str(turn_limit)))
        self.header += setup_position_lines(game)  # a game begun from a position
        if catalogue is not None:
            self.header.insert(0, ("Catalogue", catalogue))
        self.lines: list[str] = []

    def apply(self, action: AcesAction) -> Sequence[Event]:
        self.recorder.take()
        events = self.game.apply(action)
        faces = [f for _, fs in self.recorder.take() for f in fs]
        self.lines.append(format_action_line(action.text(), faces, (e.text() for e in events)))
        return events

    def text(self, comment: str | None = None) -> str:
        return format_log(KIND, self.header, self.lines, comment)


def write_log(
    game: AcesGame,
    scenario: str,
    actions: Iterable[AcesAction],
    first: int | None = None,
    turn_limit: int | None = None,
) -> str:
    """Apply ``actions`` to a fresh ``game`` and return the log text."""
    w = LogWriter(game, scenario, first, turn_limit)
    for a in actions:
        w.apply(a)
    return w.text()
