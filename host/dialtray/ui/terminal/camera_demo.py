"""`dialtray demo --camera virtual [--no-encoders]`: the demo's bot game with the virtual
camera filming the virtual tray (``table.camera_game.camera_game``).

With encoders, every click the tray's encoders settle is confirmed by the camera (a burst of
frames of that window) and each answer is narrated and written into the game's log as a
``# camera`` line; with ``--no-encoders`` the tray has no electronics and the camera's reads
are the dial events (every dial filmed: an Ace card or a second figure sharing a dock sits in
the dock's holder, ``vision.layout``). A real
webcam (``--camera N``) needs a real tray under it: ``demo`` is the virtual tray's, so it says
so. Dice are seeded here (the fair LED dice are the tray's: ``demo`` without ``--camera``).
The options and their checks are ``commands._camera_demo``'s.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from dialtray.errors import UserError
from dialtray.table.start import log_path, write_log


def run(args: argparse.Namespace) -> int:
    from dialtray.vision import vision_missing

    why = vision_missing()
    if why is not None:
        raise UserError(why)
    from dialtray.table.camera_game import camera_game
    from dialtray.tracker.runner import Stuck

    started = time.monotonic()
    what = "no encoders: the camera's reads are the dial events" if args.no_encoders else \
        "the encoders report, the camera confirms every settled click"
    where = " (the firmware on an emulated Pico)" if getattr(args, "rp2040", False) else ""
    print(f"dialtray demo: a game of {'Air Action' if args.game == 'airaction' else 'Aces'} on "
          f"the virtual tray{where} filmed by the virtual camera ({args.camera_profile} "
          f"photographs); {what}", flush=True)
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
                        fps=args.camera_fps, on_change=narrate,
                        rp2040=bool(getattr(args, "rp2040", False)))
    except Stuck as e:
        raise UserError(f"the demo got stuck: {e}") from e
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
