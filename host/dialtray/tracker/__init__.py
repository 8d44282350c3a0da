"""The click tracker: joins what the tray senses (``dialtray.link``) to what the rules say
(``dialtray.rules.core``'s ``Game`` and dial vocabulary). See ``tracker.py``.

Depends on nothing else: no virtual tray, no command, no particular engine.
"""

from dialtray.tracker.binding import Binding, BindingError, Slot, auto_bind, parse_binding
from dialtray.tracker.dice import Roll, TableDice
from dialtray.tracker.marks import Confirmation, Expectation, Flag
from dialtray.tracker.tracker import OVER, PLAY, START, Result, Timing, Tracker
from dialtray.tracker.view import DockView, View

__all__ = ["OVER", "PLAY", "START", "Binding", "BindingError", "Confirmation", "DockView",
           "Expectation", "Flag", "Result", "Roll", "Slot", "TableDice", "Timing", "Tracker",
           "View", "auto_bind", "parse_binding"]
