"""Crimson Skies: Aces rules engine on square-grid maps.

Source of truth: ``/work/shared/seeds/000_df7e16f59b6aff48.txt`` ("CRIMSON SKIES ACES COMPLETE
RULES"); mechanic ids (AC-Mnn), worked examples (AC-Tnn) and ambiguities (AC-Ann) are those of
``rules-inventory.md`` §3. Modules, one concern each:

- ``grid``      squares, names ("c5"), Chebyshev distance (AC-M20, AC-A06)
- ``maps``      the text map format, terrain, walls on edges, starting areas (AC-M05..M07, M57..M65)
- ``lof``       line of fire centre to centre, hindering modifier, range (AC-M30..M32, M60..M64)
- ``movement``  legal destinations and paths (AC-M21..M27, M43, M58, M59, M63, M64)
- ``figures``   figure catalogue (schema-validated JSON, samples marked) (AC-M02, M08, M11, M12)
- ``talents``   colours -> abilities through data, unknown colours reported (AC-M13, M74)
- ``combat``    attack / capture / escape / fate arithmetic (AC-M36, M39, M47, M53..M56)
- ``game``      ``AcesGame``: the ``core.game.Game`` protocol (legal_actions / apply / undo /
                outcome / state_dict / dials), event-sourced; ``base`` its shared queries
- ``turn``, ``move``, ``attacks``, ``ranged``, ``close``, ``capture``, ``ending``: rule handlers
- ``state``     the state and its fold; ``dial`` the combat dials (``core.dials``)
- ``legal``     the legal actions as a lazy sequence (moves made only when looked at)
- ``position``  the ``Position:`` header of a log that starts mid-game
- ``victory``   VP and tie-breaks (AC-M66..M72); ``scenarios`` setup and scenarios as data
- ``odds``      exact odds; ``bots`` bot players; ``notation`` logs and the replay game kind
"""

from dialtray.rules.aces.actions import AcesAction, parse_action
from dialtray.rules.aces.game import AcesGame
from dialtray.rules.aces.notation import AcesKind
from dialtray.rules.aces.position import position_of, read_position
from dialtray.rules.aces.state import AcesState
from dialtray.rules.aces.victory import Outcome
from dialtray.rules.core.position import PositionedKind

GAME_KIND = PositionedKind(AcesKind(), read_position)

__all__ = [
    "GAME_KIND",
    "AcesAction",
    "AcesGame",
    "AcesKind",
    "AcesState",
    "Outcome",
    "parse_action",
    "position_of",
]
