"""`dialtray demo --camera virtual [--no-encoders]`: the demo's bot game with the virtual
camera filming the virtual tray (``_camera_sim.camera_game``).

With encoders, every click the tray's encoders settle is confirmed by the camera (a burst of
frames of that window) and each answer is narrated and written into the game's log as a
``# camera`` line; with ``--no-encoders`` the tray has no electronics and the camera's reads
are the dial events (every dial filmed: an Ace card or a second figure sharing a dock sits in
the dock's holder, ``vision.layout``). A real
webcam (``--camera N``) needs a real tray under it: ``demo`` is the virtual tray's, so it says
so. Dice are seeded here (the fair LED dice are the tray's: ``demo`` without ``--camera``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from dialtray.commands._args import float_range
from dialtray.commands._common import CommandError
from dialtray.table.start import log_path, write_log

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
    if args.camera not in (None, "virtual"):
        raise CommandError(f"argument --camera {args.camera}: the demo plays on the virtual "
                           "tray, so its camera is the virtual one (--camera virtual); a webcam "
                           "watches a real tray: dialtray play --camera N or serve --camera N)", 2)


def run(args: argparse.Namespace) -> int:
    from dialtray.vision import vision_missing

    why = vision_missing()
    if why is not None:
        raise CommandError(why)
    from dialtray.commands._camera_sim import camera_game
    from dialtray.tracker.runner import Stuck

    started = time.monotonic()
    what = "no encoders: the camera's reads are the dial events" if args.no_encoders else \
        "the encoders report, the camera confirms every settled click"
    print(f"dialtray demo: a game of {'Air Action' if args.game == 'airaction' else 'Aces'} on "
          f"the virtual tray filmed by the virtual camera ({args.camera_profile} photographs); "
          f"{what}", flush=True)
    shown = [0]

    def narrate(t: Any) -> None:
        while shown[0] < len(t.lines):
            text = str(t.lines[shown[0]])
            shown[0] += 1
            if text.startswith("# camera") or text.startswith("# flag") or \
                    text.startswith("# put right") or not text.startswith("#"):
                print(f"  {text.splitlines()[0]}", flush=True)

    try:
        g = camera_game(args.game, args.seed, args.turns, encoders=not args.no_encoders,
                        profile=args.camera_profile, mistakes=not args.no_encoders,
                        fps=args.camera_fps, on_change=narrate)
    except Stuck as e:
        raise CommandError(f"the demo got stuck: {e}") from e
    t = g.table.tracker
    narrate(t)
    print()
    print(t.game.report())
    res = g.witness.results
    settled = [w for w in res if w.encoder is not None]
    confirmed = sum(w.state == "confirmed" for w in settled)
    if args.no_encoders and g.camera_tray is not None:
        print(f"\nthe camera read {len(g.camera_tray.events)} dial changes "
              f"({len(g.camera_tray.assumed)} between clicks that print alike, taken as the "
              f"rules want), {len(g.reseats)} re-seat(s) asked for")
    else:
        print(f"\nthe camera confirmed {confirmed} of {len(settled)} settled clicks; "
              f"{len(settled) - confirmed} left unsure (the encoder's click stands); "
              f"{len(t.flags)} mistakes flagged")
    path = write_log(log_path(args, t.game.kind, "demo"), t.log_text(
        f"dialtray demo --game {args.game} --seed {args.seed} --camera virtual"
        + (" --no-encoders" if args.no_encoders else "")))
    print(f"game log: {path}  (re-run it: dialtray replay {path})")
    print(f"(the demo took {time.monotonic() - started:.0f} s)")
    return 0
