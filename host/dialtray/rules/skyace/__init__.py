"""Sky Ace v0.8 rules engine: the miniatures card game of superhero battles.

Source of truth: ``/work/shared/seeds/004_6593e8b5f90f4d60.txt`` (Jeff Moore, 2005); mechanic ids
(SA-Mnn), worked examples (SA-Tnn) and ambiguities (SA-Ann) are those of ``rules-inventory.md``
§6, decisions in ``docs/rules-decisions.md`` ("Sky Ace"). Modules, one concern each:

- ``cards``     rank, values, colours, frequencies, power codes (SA-M01..SA-M07)
- ``mat``       the playmat grid, checkerboard, Head/Side/Digit/Clear (SA-M08..SA-M14)
- ``heroes``    hero sheets, attributes, abilities, advancement, tasks (SA-M46..SA-M54, SA-M58);
  ``creation`` the owner's heroes checked against the rules for making one (issue 34)
- ``combat``    successes and damage (SA-M23..SA-M29, SA-M43..SA-M45)
- ``events``, ``state``  events and their fold; ``actions`` the notation of decisions
- ``flow``      draws, reshuffles, turn order, next turn; ``turn`` a turn's decisions
- ``game``      ``SkyAceGame`` (the ``core.game.Game`` protocol); ``missions`` 4.0 as data
- ``notation``  logs and the replay game kind, ``position`` a log starting mid-game; ``bots``;
  ``odds`` exact attack odds;
  ``life`` the LIFE counters as LED-dice data for the tray
"""

from dialtray.rules.core.position import PositionedKind
from dialtray.rules.skyace.actions import SkyAceAction, parse_action
from dialtray.rules.skyace.game import Outcome, SkyAceGame
from dialtray.rules.skyace.notation import SkyAceKind
from dialtray.rules.skyace.position import format_position, position_of
from dialtray.rules.skyace.position import read as read_position
from dialtray.rules.skyace.state import SkyAceState

GAME_KIND = PositionedKind(SkyAceKind(), read_position)

__all__ = ["GAME_KIND", "Outcome", "SkyAceAction", "SkyAceGame", "SkyAceKind", "SkyAceState",
           "format_position", "parse_action", "position_of"]
