"""`play --camera N|virtual`: the camera watching the table's tray (issue 33).

Every click the encoders settle is confirmed by a burst of camera frames
(``vision.witness``); each answer is shown on the screen (a disagreement with what to do)
and written into the game: a ``# camera`` line of its log, a disagreement or a dial left
unsure also a note for the judge, stored with the game's records (``table.camera.record``).
``virtual`` is the virtual camera filming the virtual tray (``--sim``); a number opens that
webcam with OpenCV. ``--sim --camera virtual --no-encoders`` is a camera-only tray (no
electronics: the camera's reads are the dial events, ``table.camera_only``); every dial a
figure or card can have on a dock is filmed (Air Action flies with its Ace cards, Aces' shared
dock puts the second figure in the dock's holder); a dial the camera has no window for (a
tray layout of your own without holders) is refused before the game starts. The options
themselves are ``commands._camera_args``'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dialtray.errors import UserError
from dialtray.tracker.binding import Slot


def fps_of(args: argparse.Namespace) -> float:
    """The virtual camera's frame rate (``--camera-fps``; 30 where a caller built its own
    arguments without it)."""
    return float(getattr(args, "camera_fps", 30.0))


def check(args: argparse.Namespace) -> None:
    """Refuse what is not possible before anything starts."""
    check_camera_only(args)
    if args.camera is None:
        return
    if args.camera == "virtual" and not args.sim:
        raise UserError("argument --camera virtual: only with --sim (the virtual camera "
                           "films the virtual tray); a real tray needs a webcam: --camera 0",
                           2)
    if args.camera != "virtual" and not args.camera.isdigit():
        raise UserError(f"argument --camera: {args.camera!r} is not a webcam's number (0, "
                           "1, ...) or 'virtual'", 2)
    if args.camera != "virtual" and args.sim:
        raise UserError("argument --camera: with --sim the camera is the virtual one "
                           "(--camera virtual); a webcam films a real tray", 2)
    if args.game not in ("airaction", "aces"):
        raise UserError(f"argument --camera: the camera reads Air Action and Aces dials, "
                           f"not {args.game}", 2)
    from dialtray.vision import vision_missing

    why = vision_missing()
    if why is not None:
        raise UserError(f"argument --camera: {why}", 2)
    if args.camera != "virtual":  # a webcam that is not there is said before the tray starts
        webcam_there(args.camera)


def check_camera_only(args: argparse.Namespace) -> None:
    """``--no-encoders``: only on the virtual tray with the virtual camera, a new game."""
    if not getattr(args, "no_encoders", False):
        return
    if args.camera != "virtual" or not args.sim:
        raise UserError("argument --no-encoders: a camera-only tray is built on the "
                           "virtual tray only: --sim --camera virtual --no-encoders (a "
                           "webcam over a tray with no electronics is not built yet)", 2)
    for flag, given in (("--resume", getattr(args, "resume", None) is not None),
                        ("--event", bool(getattr(args, "event", None))),
                        ("--rp2040", bool(getattr(args, "rp2040", False)))):
        if given:
            raise UserError(f"argument --no-encoders: not with {flag} (a camera-only "
                               "tray has no firmware, no tray log to resume from)", 2)


def webcam_there(spec: str) -> None:
    """Open the webcam once and let it go: a UserError naming it if OpenCV cannot (with
    OpenCV's own warning about the device kept off the screen)."""
    import cv2

    from dialtray.vision.errors import VisionError
    from dialtray.vision.virtual_camera import open_camera

    quiet = getattr(getattr(cv2, "utils", None), "logging", None)
    before = quiet.getLogLevel() if quiet is not None else None
    if quiet is not None:
        quiet.setLogLevel(quiet.LOG_LEVEL_SILENT)
    try:
        open_camera(spec).release()
    except VisionError as e:
        raise UserError(f"argument --camera: {e}", 2) from e
    finally:
        if quiet is not None and before is not None:
            quiet.setLogLevel(before)


Hand = Callable[[Slot, int], None]


def attach(args: argparse.Namespace, tracker: Any, session: Any,
           hand: Hand | None) -> tuple[Any, Hand | None]:
    """The camera on this table, started: (its ``TableCamera``, the hand that turns both
    the virtual tray and the virtual camera's dials). None when no --camera."""
    if args.camera is None:
        return None, hand
    if getattr(args, "no_encoders", False):  # the camera-only tray is the link: its camera
        return session.camera, session.hand  # (a table.camera_only.CameraLink)
    from dialtray.table.camera import TableCamera
    from dialtray.table.camera_game import (
        filmed_hand,
        follow_tray,
        unreported,
        virtual_witness,
        webcam_witness,
    )
    from dialtray.tracker.binding import READERS
    from dialtray.vision.errors import VisionError

    if args.camera == "virtual":
        witness, world, dials = virtual_witness(args.game, tracker, args.seed,
                                                args.camera_profile, fps_of(args))
        vtray = getattr(getattr(hand, "__self__", None), "tray", None)  # (VirtualHands')
        if vtray is not None and hasattr(vtray, "seen"):
            # the camera films the virtual tray's own dials: bots' and typed turns alike
            follow_tray(world, dials, set(witness.docks), vtray)
            cam = TableCamera(witness, session, dials)
            # a disagreeing read waits for a report the firmware has on its way (under load)
            witness.unreported = unreported(vtray, cam.listener, dials)
            return cam.start(), hand
        if hand is not None:
            hand = filmed_hand(world, dials, set(witness.docks), hand)
        def film(dock: int, name: str, n: int) -> None:  # a person's typed turn, filmed too
            reader = READERS.index(name) if name in READERS else -1  # (a reader's name)
            d = dials.get((dock, reader))
            if d is not None and d.place in witness.docks:
                world.turn(d.place, d.name, n * d.up, 0.006 * max(1, abs(n)))
        return TableCamera(witness, session, dials, film).start(), hand
    else:
        try:
            witness, dials = webcam_witness(args.camera, args.game, tracker)
        except VisionError as e:
            raise UserError(f"argument --camera: {e}", 2) from e
    return TableCamera(witness, session, dials).start(), hand


def film_typed(cam: Any, words: list[str]) -> None:
    """``turn DOCK DIAL CLICKS`` typed at ``--sim``: the virtual camera sees the same hand
    turn the same dial (a malformed line is left to the virtual tray to refuse)."""
    if cam is None or cam.film is None or len(words) < 4 or words[0] != "turn":
        return
    try:
        cam.film(int(words[1]), words[2], int(words[3]))
    except ValueError:
        return


def typed_turn(cam: Any, words: list[str]) -> str | None:
    """``turn DOCK DIAL CLICKS`` typed at a camera-only virtual tray (no virtual tray to
    turn): the filmed dial turns; what to say, or None when the line is not such a turn."""
    if cam is None or cam.film is None or not words or words[0] != "turn":
        return None
    from dialtray.table.camera_only import CameraOnlyError

    try:
        dock, dial, clicks = int(words[1]), words[2], int(words[3])
        cam.film(dock, dial, clicks)
    except (ValueError, IndexError):
        return "turn DOCK DIAL CLICKS (dock 0 speed -2: two clicks counter-clockwise)"
    except CameraOnlyError as e:
        return str(e)
    return f"turned dock {dock} {dial} {clicks:+d} (the camera reads it once it is still)"


def shown(w: Any) -> str:
    """One camera answer as the screen says it."""
    return f"camera: {w.line()}"


def camera_only(args: argparse.Namespace) -> Callable[[Any], Any]:
    """(tracker) -> the camera-only virtual tray of its figures (``serve``'s session); a dial
    the camera cannot read is refused here, before the game starts."""
    def make(tracker: Any) -> Any:
        from dialtray.table.camera_only import CameraOnlyError, virtual_camera_tray

        try:
            return virtual_camera_tray(args.game, tracker, args.seed, args.camera_profile,
                                       fps_of(args))
        except CameraOnlyError as e:
            raise UserError(f"argument --no-encoders: {e}", 2) from e
    return make
