"""`dialtray capture`: a figure's dial, click by click -> reference crops + catalogue file.

OpenCV (the `vision` extra) is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.commands.read import add_vision_paths, require_vision, resolve_paths
from dialtray.link.port import resolve_port

EPILOG = """\
From photographs (no encoders needed): put the figure in dock N, take one photo per click in
click order (the whole tray in view, markers visible) into DIR/combat/ (and DIR/speed/ for an
Air Action plane; an Aces figure's photos may sit in DIR itself). BASE is a JSON file with the
figure's other catalogue fields (id, name, points...; an existing figure file will do: its dial
values are then offered for each click). For each click you see the suggested values and the
colour blocks the camera saw: press Enter to accept, or type corrections as key=value words
(e.g. `piloting=6 colour.piloting=orange bullet_holes=1`; `colour.STAT=-` removes a colour).
From the second click on, values are read from the figure's own print as you confirmed it on
earlier clicks (no OCR: a digit the dial has not shown yet cannot be read); a line under each
click says which values were read and which are guesses (the previous click's, or the base
file's): check the guesses.
The catalogue file is checked by the rules engine and written only when it loads; the
reference crops go to vision/refs/<id>.npz in the data directory (or --refs).

On the rig (--camera N instead of --from-photos): the tray (PORT, or the one on USB) and camera
N (OpenCV's device number) watch dock N. Set the dial to its click 0 and press Enter, then
turn it one click at a time (combat and Aces dials clockwise, an Air Action speed dial
counter-clockwise): each click is photographed when its encoder says it settled. The number
of clicks comes from BASE's dials, or --clicks DIAL=N. Then the same confirmation as above.

examples:
  dialtray capture --dock 0 --from-photos shots/ --base my-plane.json --out my-plane.json
  dialtray capture --dock 2 --from-photos genghis/ --base genghis.json --out figures/genghis.json
  dialtray capture --dock 1 --camera 0 --base genghis.json --out figures/genghis.json
  dialtray capture --dock 3 --camera 0 --port /dev/ttyACM0 --clicks combat=12 --clicks speed=8 \\
      --base new-plane.json --out figures/new-plane.json
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("capture", help="capture a figure's dial (reference crops + catalogue "
                                       "file) from photos or on the rig",
                       description="Capture a figure's dial click by click: a reference crop "
                                   "per click, values confirmed by you, the catalogue file.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dock", type=int_range(0, 63), required=True, help="the figure's dock")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--from-photos", type=Path, metavar="DIR",
                     help="one photo per click (DIR/combat/, DIR/speed/)")
    src.add_argument("--camera", type=int_range(0, 63), metavar="N",
                     help="on the rig: camera N photographs each click as its encoder settles")
    p.add_argument("--port", metavar="PORT", help="the tray's serial port (rig; default: the "
                                                  "one tray on USB)")
    p.add_argument("--clicks", action="append", default=[], metavar="DIAL=N",
                   help="clicks of a dial (rig; default: BASE's dial), e.g. combat=12")
    p.add_argument("--base", type=Path, metavar="BASE", help="the figure's other catalogue "
                   "fields (JSON; an existing figure file will do)")
    p.add_argument("--out", type=Path, metavar="FILE", help="catalogue file to write")
    add_vision_paths(p)
    p.set_defaults(func=run)


def _load_base(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CommandError(f"argument --base: {path}: no such file", 2) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CommandError(f"argument --base: {path}: not a JSON file ({e})", 2) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
        raise CommandError(f"argument --base: {path}: needs at least the figure's \"id\"", 2)
    return doc


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise CommandError("input ended before every click was confirmed: nothing written") \
            from None


def run(args: argparse.Namespace) -> int:
    if args.from_photos is None and args.camera is None:
        raise CommandError("capture needs --from-photos DIR (one photo per click) or, on the "
                           "rig, --camera N (each click photographed as its encoder settles)", 2)
    if args.base is None or args.out is None:
        raise CommandError("capture needs --base BASE.json and --out FILE", 2)
    require_vision()
    from dialtray.rules.core.errors import CatalogueError
    from dialtray.vision.capture import base_faces, crops_from_photos, photo_dirs
    from dialtray.vision.capture_figure import confirm_and_build, figure_game, write_figure
    from dialtray.vision.errors import VisionError
    from dialtray.vision.faces import BASE_TYPE

    base = _load_base(args.base)
    game, dials = figure_game(base)
    try:
        layout, refs_path, _camera = resolve_paths(args)
        hint = base_faces(base) or {}
        if args.from_photos is not None:
            photos = photo_dirs(args.from_photos, dials)
            crops = crops_from_photos(layout, BASE_TYPE[game], args.dock, photos)
            source = ", ".join(f"{len(v)} {k} photos" for k, v in photos.items())
        else:
            crops = _on_rig(args, layout, BASE_TYPE[game], dials, hint)
            source = ", ".join(f"{len(v)} {k} clicks captured on the rig"
                               for k, v in crops.items())
        print(f"{args.base}: {game} figure {base['id']}; {source}")
        doc, refs = confirm_and_build(layout, base, game, dials, crops, hint, _ask,
                                      lambda s: print(s, flush=True))
    except VisionError as e:
        raise CommandError(str(e), 2) from None
    except CatalogueError as e:
        raise CommandError(f"the captured figure does not load in the rules engine: {e}; "
                           "nothing written", 2) from None
    ref_file = write_figure(args.out, refs_path, doc, refs)
    print(f"wrote {args.out} (checked by the {game} rules engine) and {ref_file}",
          file=sys.stdout)
    return 0


def _clicks(args: argparse.Namespace, dials: list[str], hint: dict[str, Any]) -> dict[str, int]:
    """Clicks per dial: --clicks DIAL=N, else the length of BASE's dial."""
    out = {d: len(hint[d]) for d in dials if hint.get(d)}
    for text in args.clicks:
        name, _, n = text.partition("=")
        if name not in dials or not n.isdigit() or not 1 <= int(n) <= 64:
            raise CommandError(f"argument --clicks: {text!r}: expected DIAL=N with DIAL one of "
                               f"{', '.join(dials)} and N 1..64", 2)
        out[name] = int(n)
    missing = [d for d in dials if d not in out]
    if missing:
        raise CommandError(f"argument --clicks: how many clicks has the {missing[0]} dial? "
                           f"(BASE has no {missing[0]} dial: give --clicks {missing[0]}=N)", 2)
    return out


def _on_rig(args: argparse.Namespace, layout: Any, base_type: str, dials: list[str],
            hint: dict[str, Any]) -> dict[str, Any]:
    """The crops, click by click, from the tray's encoders and camera N."""
    import cv2

    from dialtray.link.session import TraySession
    from dialtray.vision.rig import RigDial, capture_on_rig

    counts = _clicks(args, dials, hint)
    from dialtray.vision.datafiles import quiet_opencv

    with quiet_opencv():
        cap = cv2.VideoCapture(args.camera)
    cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # where the driver allows: no stale frames queued
    try:
        if not cap.isOpened() or not cap.read()[0]:
            raise CommandError(f"argument --camera: camera {args.camera} gave no frame (is it "
                               "plugged in and free?)", 2)

        def grab() -> Any:
            cap.grab()  # a frame buffered before the click settled is dropped
            ok, frame = cap.read()
            if not ok or frame is None:
                raise CommandError(f"camera {args.camera} stopped giving frames: nothing "
                                   "written")
            return frame

        port = resolve_port(args.port)
        with TraySession(port, name="capture") as session:
            try:
                session.wait_synced(15.0)
            except (TimeoutError, RuntimeError) as e:
                raise CommandError(f"{port}: {e}; nothing written") from None
            return capture_on_rig(session, grab, layout, base_type, args.dock,
                                  [RigDial(d, counts[d]) for d in dials], _ask,
                                  lambda line: print(line, flush=True))
    finally:
        cap.release()
