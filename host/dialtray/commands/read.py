"""`dialtray read IMAGE|--camera N`: every docked figure's dials from one photograph, as JSON.

OpenCV (the `vision` extra) is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError

EPILOG = """\
Each docked figure is read against its own reference crops (made by `dialtray capture`), so
say which figure sits in which dock. Output: per dock and dial the status (click, between,
unknown), the click(s), the values and colours of that click, and the confidence. A dial
the camera cannot read surely is "unknown", never a guess.

examples:
  dialtray read tray.jpg --figure 0=sample-militia-fighter --figure 3=sample-genghis
  dialtray read --camera 0 --figure 0=sample-loyle-crawford
  dialtray read tray.jpg --figure 2=my-plane --refs ./refs --layout my_tray.json
"""


def dock_figure(text: str) -> tuple[int, str]:
    dock, sep, fig = text.partition("=")
    if not sep or not dock.strip().isdigit() or not fig.strip():
        raise argparse.ArgumentTypeError(f"expected DOCK=FIGURE (e.g. 0=sample-genghis), got "
                                         f"{text!r}")
    return int(dock), fig.strip()


def add_vision_paths(p: argparse.ArgumentParser) -> None:
    p.add_argument("--layout", type=Path, metavar="FILE",
                   help="tray layout (default: calibration/tray_layout.json in the data "
                        "directory, else the sample layout shipped with dialtray)")
    p.add_argument("--refs", type=Path, metavar="DIR",
                   help="reference crops (default: vision/refs in the data directory; the "
                        "sample figures' references ship with dialtray)")
    p.add_argument("--camera-model", type=Path, metavar="FILE",
                   help="camera calibration (default: calibration/camera.json in the data "
                        "directory, if there is one)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("read", help="read every docked figure's dials from a photograph (JSON)",
                       description="Read the dials of the docked figures from one photograph "
                                   "of the tray (or one camera frame) and print JSON.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("image", nargs="?", type=Path, help="photograph of the tray")
    src.add_argument("--camera", type=int_range(0, 63), metavar="N",
                     help="grab one frame from camera N (OpenCV's device number)")
    p.add_argument("--figure", type=dock_figure, action="append", required=True,
                   metavar="DOCK=FIGURE", help="which figure is in which dock (repeat; a "
                   "dock's holder is 100 + the dock: a one-dial piece sharing it)")
    add_vision_paths(p)
    p.set_defaults(func=run)


def require_vision() -> None:
    from dialtray.vision import vision_missing

    why = vision_missing()
    if why is not None:
        raise CommandError(why)


def resolve_paths(args: argparse.Namespace) -> tuple[Any, Path, Any]:
    """Layout, reference directory and camera model (or None) from ``--layout``, ``--refs``,
    ``--camera-model`` and the data directory (``vision.datafiles.tray_files``)."""
    from dialtray.vision.datafiles import tray_files

    return tray_files(args.data_dir, args.layout, args.refs, args.camera_model)


def run(args: argparse.Namespace) -> int:
    require_vision()
    from dialtray.vision.capture import read_image
    from dialtray.vision.datafiles import grab_frame
    from dialtray.vision.errors import VisionError
    from dialtray.vision.reader import TrayReader
    from dialtray.vision.refs import find_refs, load_refs

    try:
        layout, refs_path, camera = resolve_paths(args)
        docks: dict[int, str] = {}
        for dock, fig in args.figure:
            if dock in docks:
                raise CommandError(f"argument --figure: dock {dock} named twice", 2)
            docks[dock] = fig
        refs = {}
        for fig in sorted(set(docks.values())):
            path = find_refs(refs_path, fig)
            if not path.exists():
                raise CommandError(f"unknown figure {fig!r}: no reference crops {path} "
                                   "(capture it first: dialtray capture --help)", 2)
            refs[fig] = load_refs(path)
        what = str(args.image) if args.image else f"camera {args.camera}"
        image = read_image(args.image) if args.image else grab_frame(args.camera)
        reader = TrayReader(layout, refs, camera)
        reads = reader.read(image, docks, what=what)
    except VisionError as e:
        raise CommandError(str(e), 2) from None
    out = {"image": what, "docks": [
        {"dock": d, "figure": docks[d], "dials": {k: r.to_dict() for k, r in rr.items()}}
        for d, rr in sorted(reads.items())]}
    print(json.dumps(out, indent=1))
    return 0
