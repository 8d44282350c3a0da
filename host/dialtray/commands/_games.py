"""Moved to ``dialtray.table.games`` (issue 30: one table for every front end); kept so
existing imports go on working."""

from dialtray.table.games import (  # noqa: F401
    ACES_SCENARIO,
    GAMES,
    AcesBrain,
    AirActionBrain,
    Brain,
    Setup,
    new_game,
    setup_of,
)
