"""Rules engines for the games dialtray serves.

- ``core``       what every rule set shares: dice sources, errors, events and the event-log fold,
                 the game-kind registry used by ``dialtray replay``, catalogue loading, exact odds.
- ``airaction``  Crimson Skies: Air Action (seed 002), game kind ``airaction``.
- ``aces``       Crimson Skies: Aces (seed 000), game kind ``aces``.

A rule-set subpackage plugs into ``dialtray replay`` by defining ``GAME_KIND`` in its
``__init__`` (see ``core/README.md``); nothing here needs editing when a new one appears.
"""
