"""A game's dice are fresh unless the user asks for a seed.

`--seed` defaults to 2026 so the bots play the same game from run to run; handing that default
to the virtual tray made its entropy, and so its committed dice seed, the same in every game
(sha256 b5c28a5d... game after game). A seed the user types still makes a demo repeat.
"""

from __future__ import annotations

from dialrig import config
from dialtray.cli import build_parser
from dialtray.link.fairdice import FairDice
from dialtray.link.session import TraySession
from dialtray.table.seeds import tray_seed
from dialtray.virtual.factory import virtual_tray

SYNC_S = 20.0


def _commitment(argv: list[str]) -> bytes:
    """The commitment of a fair dice session on the virtual tray ``argv`` would start."""
    args = build_parser(argv[0]).parse_args(argv)
    with virtual_tray(config.default_config(1), seed=tray_seed(args.seed)) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(SYNC_S)
        return FairDice(session).begin()


def test_two_games_without_seed_commit_to_different_dice_and_a_typed_seed_repeats() -> None:
    assert _commitment(["play", "--sim"]) != _commitment(["play", "--sim"])
    assert _commitment(["demo", "--seed", "7"]) == _commitment(["demo", "--seed", "7"])
    # serve's --seed (its own option) is read the same way
    assert tray_seed(build_parser("serve").parse_args(["serve", "--sim"]).seed) is None
    assert tray_seed(build_parser("serve").parse_args(["serve", "--seed", "3"]).seed) == 3
