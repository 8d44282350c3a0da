"""The shared rules core: what every dialtray rule set builds on. See README.md here."""

from dialtray.rules.core.dice import (
    DiceSource,
    ManualDice,
    PromptDice,
    RecordingDice,
    SeededDice,
    TrayDice,
    TrayDiceLink,
    choose_uniform,
    roll_sum,
)
from dialtray.rules.core.errors import (
    CatalogueError,
    DiceError,
    IllegalActionError,
    InvalidActionError,
    NotationError,
    RuleRef,
)
from dialtray.rules.core.events import Action, Entry, Event, EventSourcedGame

__all__ = [
    "Action",
    "CatalogueError",
    "DiceError",
    "DiceSource",
    "Entry",
    "Event",
    "EventSourcedGame",
    "IllegalActionError",
    "InvalidActionError",
    "ManualDice",
    "NotationError",
    "PromptDice",
    "RecordingDice",
    "RuleRef",
    "SeededDice",
    "TrayDice",
    "TrayDiceLink",
    "choose_uniform",
    "roll_sum",
]
