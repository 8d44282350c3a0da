"""`dialtray camera render`: a test photograph of a chosen tray, from the renderer the camera's
tests read (``vision/render.py``): the sample layout's markers and docks, the chosen figures
at the chosen clicks, under a photograph profile. With ``--each-click`` one photo per click of
one figure, laid out as ``dialtray capture --from-photos`` wants them. This module parses and
checks the figures, docks and clicks; ``vision.render_files`` renders and writes.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.commands.read import dock_figure, require_vision

PROFILES = ("capture", "train", "held-back", "clean")

EPILOG = """\
The figures are the catalogue's (the shipped samples and Air Action Ace cards, or --figures
DIR of your own files); each dial shows the click you set with --set (a fraction: caught
mid-turn), else click 0. A dock's holder is place 100 + the dock (a one-dial piece sharing
the dock: a second Aces figure, an Ace card).
Prints the truth (figure and click of every dial) as JSON; --seed draws the same photo again.

examples:
  dialtray camera render --figure 0=sample-militia-fighter --figure 3=sample-genghis \\
      --set 0.combat=4 --set 3.combat=2.5 --out tray.png
  dialtray read tray.png --figure 0=sample-militia-fighter --figure 3=sample-genghis
  dialtray camera render --profile held-back --seed 7 --figure 1=sample-loyle-crawford
  dialtray camera render --figure 0=sample-genghis --figure 100=sample-louis-thibodeaux \\
      --figure 1=sample-ace-charlie-steele --set 1.ace=5 --out shared.png
  dialtray camera render --each-click --figure 0=sample-genghis --out shots/
  dialtray capture --dock 0 --from-photos shots/ --base genghis.json --out genghis.json
"""


def dial_setting(text: str) -> tuple[int, str, float]:
    left, sep, value = text.partition("=")
    dock, dot, dial = left.partition(".")
    try:
        if not sep or not dot or not dial:
            raise ValueError
        return int(dock), dial.strip(), float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected DOCK.DIAL=CLICK (e.g. 0.combat=4 or "
                                         f"0.speed=2.5), got {text!r}") from None


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser("render", help="make a test photograph of a chosen tray",
                       description="Render a photograph of the tray with chosen figures at "
                                   "chosen clicks (the camera's test data).",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("--figure", type=dock_figure, action="append", metavar="DOCK=FIGURE",
                   help="a figure in a dock (repeat; default 0=sample-militia-fighter)")
    r.add_argument("--set", type=dial_setting, action="append", default=[],
                   metavar="DOCK.DIAL=CLICK", help="a dial's click (repeat; default 0)")
    r.add_argument("--profile", choices=PROFILES, default="train",
                   help="photograph conditions: capture (even light, no figures), train, "
                        "held-back (the hardest), clean (none) (default %(default)s)")
    r.add_argument("--seed", type=int_range(0, 2**31 - 1), default=1,
                   help="the photo's random draws (default %(default)s)")
    r.add_argument("--size", default="1280x720", help="WxH pixels (default %(default)s)")
    r.add_argument("--each-click", action="store_true",
                   help="one photo per click of one figure: OUT/combat/NN.png, OUT/speed/NN.png")
    r.add_argument("--figures", type=Path, metavar="DIR",
                   help="figure files to draw from (default: the shipped samples)")
    r.add_argument("--out", type=Path, default=Path("tray.png"),
                   help="the photo (PNG or JPEG), or the directory with --each-click "
                        "(default tray.png)")
    r.set_defaults(func=run)


def _figures(directory: Path | None) -> dict[str, dict[str, Any]]:
    from dialtray.vision import testset

    if directory is None:
        return {**testset.all_sample_figures(), **testset.sample_ace_cards()}
    out = {}
    for p in sorted(directory.glob("*.json")):
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
            out[str(doc["id"])] = doc
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise CommandError(f"{p}: not a figure file ({type(e).__name__}: {e})", 2) from None
    if not out:
        raise CommandError(f"--figures {directory}: no figure files (*.json) there", 2)
    return out


def run(args: argparse.Namespace) -> int:
    require_vision()
    import numpy as np

    from dialtray.vision import render_profiles as rp
    from dialtray.vision.datafiles import own_layout
    from dialtray.vision.faces import base_type_of, dial_faces
    from dialtray.vision.layout import HOLDER, LayoutError, load_layout
    from dialtray.vision.render import DockSpec
    from dialtray.vision.render_files import photo_truth, write_each_click, write_photo

    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
        if not (320 <= w <= 4096 and 240 <= h <= 4096):
            raise ValueError
    except ValueError:
        raise CommandError(f"argument --size: expected WxH, 320x240 to 4096x4096, got "
                           f"{args.size!r}", 2) from None
    try:
        layout = load_layout(own_layout(args.data_dir))
    except LayoutError as e:
        raise CommandError(str(e), 2) from None
    figures = _figures(args.figures)
    chosen = dict(args.figure or [(0, "sample-militia-fighter")])
    docks: dict[int, DockSpec] = {}
    for dock, fid in chosen.items():
        if dock not in layout.places:
            holders = f", holders {HOLDER + min(layout.holders)}-{HOLDER + max(layout.holders)}" \
                " (100 + the dock)" if layout.holders else ""
            raise CommandError(f"argument --figure: the tray has docks {min(layout.docks)}-"
                               f"{max(layout.docks)}{holders}, not {dock}", 2)
        if fid not in figures:
            raise CommandError(f"argument --figure: no figure {fid!r} (known: "
                               f"{', '.join(sorted(figures))})", 2)
        faces = dial_faces(figures[fid])
        docks[dock] = DockSpec(fid, base_type_of(figures[fid]), faces,
                               dict.fromkeys(faces, 0.0))
    for dock, dial, click in args.set:
        spec = docks.get(dock)
        if spec is None or dial not in spec.faces:
            have = "no figure" if spec is None else f"dials {', '.join(spec.faces)}"
            raise CommandError(f"argument --set {dock}.{dial}: dock {dock} has {have}", 2)
        n = len(spec.faces[dial])
        if not 0 <= click < n:
            raise CommandError(f"argument --set {dock}.{dial}={click:g}: that dial has clicks "
                               f"0-{n - 1}", 2)
        spec.positions[dial] = click  # type: ignore[index]
    rng = np.random.default_rng(args.seed)
    params = (rp.Params() if args.profile == "clean" else
              {"capture": rp.capture, "train": rp.train, "held-back": rp.held_back}[
                  args.profile](rng))

    size = (w, h)
    if args.each_click:
        if len(docks) != 1:
            raise CommandError("--each-click photographs one figure: give one --figure", 2)
        (dock, spec), = docks.items()
        done = write_each_click(args.out, layout, dock, spec, params, args.seed, size)
        print(json.dumps(done, indent=1))
        return 0
    write_photo(args.out, layout, docks, params, args.seed, size)
    print(json.dumps(photo_truth(args.out, args.profile, args.seed, docks), indent=1))
    return 0
