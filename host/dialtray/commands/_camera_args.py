"""`play`/`serve --camera N|virtual [--no-encoders]`: the camera's options (issue 33). What
they do at the table (the checks, the camera attached to the table, a typed turn filmed) is
``ui.camera``'s.
"""

from __future__ import annotations

import argparse

from dialtray.commands._args import float_range

PROFILES = ("held-back", "train", "clean")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera", metavar="N|virtual",
                   help="a camera confirms every settled click: a webcam's number (0, 1, ...) "
                        "or 'virtual' (with --sim: the virtual camera filming the virtual "
                        "tray)")
    p.add_argument("--no-encoders", action="store_true",
                   help="with --sim --camera virtual: a tray with no electronics, the "
                        "camera's reads are the dial events (seeded dice: no LED dice)")
    p.add_argument("--camera-profile", choices=PROFILES, default="held-back",
                   help="with --camera virtual: its photograph conditions (default "
                        "%(default)s)")
    p.add_argument("--camera-fps", type=float_range(0.5, 60.0), default=30.0, metavar="FPS",
                   help="with --camera virtual: its frames a second (default %(default)s; a slow "
                        "webcam or a busy laptop's reader: e.g. 2.5)")
