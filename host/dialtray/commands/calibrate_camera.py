"""`dialtray camera calibrate|sheets|render`: the camera's intrinsics from ChArUco photos; the
sheets; a test photograph (``_camera_render.py``).

`dialtray calibrate` is the dials' calibration (another command); the camera's lives here as
`dialtray camera calibrate`, also spelt `dialtray calibrate camera` (``camera_alias``), so
neither command's arguments get in the other's way. OpenCV
(the `vision` extra) is imported only when a subcommand runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from dialtray.commands import _camera_render
from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.commands.read import require_vision

EPILOG = """\
Print calibration/charuco_board.png at 100 % (check the 50 mm bar), stick it to something
flat, and photograph it 10-20 times with the tray's camera at the resolution you will use:
near and far, tilted every way, the whole board in view. Then:

examples:
  dialtray camera sheets --out calibration/         the ChArUco board and the tray markers
  dialtray camera calibrate shots/*.jpg              writes calibration/camera.json in the
                                                     data directory
  dialtray camera calibrate --camera 0 --frames 15   grab frames (press Enter for each)
  dialtray camera calibrate shots/*.png --out cam.json
  dialtray calibrate camera shots/*.png              the same command
  dialtray camera render --figure 0=sample-genghis   a test photograph (see render --help)
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("camera", help="calibrate the tray's camera (ChArUco) and print sheets",
                       description="The camera's intrinsics and lens distortion from ChArUco "
                                   "photos, and the printable sheets.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    s = p.add_subparsers(dest="camera_command", metavar="SUBCOMMAND", required=True)
    c = s.add_parser("calibrate", help="fit intrinsics and distortion from ChArUco photos",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("images", nargs="*", type=Path, help="photos of the ChArUco board")
    c.add_argument("--camera", type=int_range(0, 63), metavar="N",
                   help="grab the photos from camera N instead (press Enter for each)")
    c.add_argument("--frames", type=int_range(5, 200), default=15,
                   help="frames to grab with --camera (default 15)")
    c.add_argument("--out", type=Path, metavar="FILE",
                   help="where to write (default: calibration/camera.json in the data "
                        "directory)")
    c.set_defaults(func=run_calibrate)
    sh = s.add_parser("sheets", help="write the printable ChArUco board and tray markers")
    sh.add_argument("--out", type=Path, required=True, metavar="DIR")
    sh.add_argument("--layout", type=Path, metavar="FILE",
                    help="tray layout whose markers to print (default: "
                         "calibration/tray_layout.json in the data directory, else the sample "
                         "layout shipped with dialtray)")
    sh.set_defaults(func=run_sheets)
    _camera_render.add(s)


def camera_alias(argv: Sequence[str]) -> list[str]:
    """``dialtray [opts] calibrate camera ...`` is ``dialtray [opts] camera calibrate ...``:
    one command under both names (``calibrate`` alone is the dials')."""
    out, i = list(argv), 0
    while i < len(out) and out[i].startswith("-"):
        i += 2 if out[i] in ("--data-dir", "--log-file") else 1
    if out[i:i + 2] == ["calibrate", "camera"]:
        out[i:i + 2] = ["camera", "calibrate"]
    return out


def run_sheets(args: argparse.Namespace) -> int:
    require_vision()
    import cv2

    from dialtray.vision.camcal import sheet_images
    from dialtray.vision.camera import atomic_write_bytes
    from dialtray.vision.datafiles import own_layout
    from dialtray.vision.layout import LayoutError, load_layout

    try:
        layout = load_layout(args.layout or own_layout(args.data_dir))
    except LayoutError as e:
        raise CommandError(str(e), 2) from None
    for name, img in sheet_images(layout).items():
        ok, buf = cv2.imencode(".png", img)
        if not ok:
            raise CommandError(f"could not encode {name}")
        atomic_write_bytes(args.out / name, buf.tobytes())
        print(f"wrote {args.out / name} ({img.shape[1]}x{img.shape[0]} px, 254 dpi: print at "
              "100 %)")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    require_vision()
    from dialtray.vision.camcal import calibrate
    from dialtray.vision.camera import save_camera
    from dialtray.vision.capture import read_image
    from dialtray.vision.datafiles import grab_frame
    from dialtray.vision.errors import VisionError

    if bool(args.images) == (args.camera is not None):
        raise CommandError("give either photos or --camera N (see --help)", 2)
    try:
        if args.camera is not None:
            grab_frame(args.camera)  # a camera that is not there said before any frame asked
            shots = []
            for i in range(args.frames):
                input(f"frame {i + 1}/{args.frames}: hold the board still, press Enter ")
                shots.append((f"frame {i + 1}", grab_frame(args.camera)))
        else:
            shots = [(str(p), read_image(p)) for p in args.images]
        cam = calibrate(shots)
    except VisionError as e:
        raise CommandError(str(e), 2) from None
    except EOFError:
        raise CommandError("input ended: nothing written") from None
    out = args.out or args.data_dir / "calibration" / "camera.json"
    save_camera(out, cam)
    k = cam.matrix
    print(f"{cam.views} views, reprojection error {cam.rms_px:.3f} px; fx {k[0, 0]:.1f} fy "
          f"{k[1, 1]:.1f} cx {k[0, 2]:.1f} cy {k[1, 2]:.1f}; distortion "
          + " ".join(f"{v:.4f}" for v in cam.dist[:5]))
    print(f"wrote {out}")
    return 0
