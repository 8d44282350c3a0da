"""Moved to ``dialtray.table.games`` (issue 30: one table for every front end); kept so
existing imports go on working."""

from dialtray.table.games import ACES_SCENARIO as ACES_SCENARIO
from dialtray.table.games import GAMES as GAMES
from dialtray.table.games import AcesBrain as AcesBrain
from dialtray.table.games import AirActionBrain as AirActionBrain
from dialtray.table.games import Brain as Brain
from dialtray.table.games import Setup as Setup
from dialtray.table.games import new_game as new_game
from dialtray.table.games import setup_of as setup_of
