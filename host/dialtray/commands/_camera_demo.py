"""`dialtray demo --camera virtual [--no-encoders]`: the camera's options and their checks;
the demo itself is ``ui.terminal.camera_demo``'s.
"""

from __future__ import annotations

import argparse

from dialtray.commands._args import float_range
from dialtray.commands._common import CommandError

PROFILES = ("held-back", "train", "clean")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera", metavar="N|virtual",
                   help="film the tray: 'virtual' (the virtual camera over the virtual tray; "
                        "each settled click is confirmed by a burst of frames)")
    p.add_argument("--no-encoders", action="store_true",
                   help="with --camera virtual: a tray with no electronics, the camera's reads "
                        "are the dial events")
    p.add_argument("--camera-profile", choices=PROFILES, default="held-back",
                   help="the virtual camera's photograph conditions (default %(default)s)")
    p.add_argument("--camera-fps", type=float_range(0.5, 60.0), default=30.0, metavar="FPS",
                   help="with --camera virtual: its frames a second (default %(default)s; a slow "
                        "webcam or a busy laptop's reader: e.g. 2.5)")


def check(args: argparse.Namespace) -> None:
    if args.no_encoders and args.camera is None:
        raise CommandError("argument --no-encoders: needs --camera virtual (with no encoders "
                           "the camera reads the dials)", 2)
    if args.no_encoders and getattr(args, "rp2040", False):
        raise CommandError("argument --no-encoders: not with --rp2040 (a camera-only tray has "
                           "no firmware to emulate)", 2)
    if args.camera not in (None, "virtual"):
        raise CommandError(f"argument --camera {args.camera}: the demo plays on the virtual "
                           "tray, so its camera is the virtual one (--camera virtual); a webcam "
                           "watches a real tray: dialtray play --camera N or serve --camera N)", 2)
