"""The bots' seed by default, and the virtual tray's dice only when the user gave ``--seed``.

``--seed`` has a default (2026) so the bots play the same game from run to run, but a game's dice
must be fresh: a virtual tray handed the default would draw its "hardware entropy" from it and
commit to the same dice seed in every game (sha256 b5c28a5d..., seen game after game), so its
unfair rolls repeat and its committed seed is known before the game. The default is therefore a
marked int: :func:`tray_seed` hands a virtual tray only a seed the user typed (a reproducible
demo, bench or test), and ``None`` otherwise, which makes the tray draw from the OS's entropy.
"""

from __future__ import annotations


class DefaultSeed(int):
    """An int equal to the default seed, told apart from the same number typed by the user."""


DEFAULT_SEED = DefaultSeed(2026)


def tray_seed(seed: int | None) -> int | None:
    """The seed a virtual tray's entropy gets: the user's ``--seed``, or None (fresh dice)."""
    if seed is None or isinstance(seed, DefaultSeed):
        return None
    return int(seed)
