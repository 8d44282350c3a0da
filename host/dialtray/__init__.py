"""dialtray: the host side of the smart tray for Crimson Skies clix games.

The flow runs one way: sensor (firmware) → link → tracker → rules engine → store / UI.
"""

__version__ = "0.1.0"
