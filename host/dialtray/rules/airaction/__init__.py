"""Crimson Skies: Air Action rules engine (seed 002; ids AA-Mnn of rules-inventory.md §4).

- ``catalogue``  figure files, Ace figures, colour map, navigation cards (data/airaction)
- ``actions``    actions as value objects with their notation (``parse_action``)
- ``events``     everything that happens, as data
- ``state``      the state and the pure fold of events into it
- ``game``       ``AirActionGame``: legal_actions / apply / undo / outcome, the turn flow
- ``rulebook``   the rules' numbers (tables) and seed headings
- ``base``       shared queries, dice, pilot checks, damage / VP / XP
- ``turn``, ``movement``, ``collisions``, ``feats``, ``combat``, ``ending``: rule handlers
- ``dials``      the dials in the core vocabulary: settings, clicks caused, verification
- ``position``   the ``Position:`` header of a log that starts mid-game (a turn start)
- ``notation``   log header and writer; ``GAME_KIND`` for ``dialtray replay``
- ``odds``       exact shot odds (hits, clicks, fate)
- ``table``      approximate digital 2D table (markers, card paths) producing geometry facts
- ``bots``       bot players
- ``campaign``   pilots across games (levels, XP, advancement), campaign file
"""

from dialtray.rules.airaction.actions import AAAction, parse_action
from dialtray.rules.airaction.base import Outcome, SquadronPlane
from dialtray.rules.airaction.game import AirActionGame
from dialtray.rules.airaction.notation import AirActionKind
from dialtray.rules.airaction.position import position_of, read_position
from dialtray.rules.airaction.state import State
from dialtray.rules.core.position import PositionedKind

GAME_KIND = PositionedKind(AirActionKind(), read_position)

__all__ = [
    "GAME_KIND",
    "AAAction",
    "AirActionGame",
    "AirActionKind",
    "Outcome",
    "SquadronPlane",
    "State",
    "parse_action",
    "position_of",
]
