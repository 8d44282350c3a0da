"""`dialtray calibrate`: measure a tray's dials and write (and send) the calibration."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from dialrig import config

from dialtray.calibration import (
    CALIBRATED_KEYS,
    MAX_DETENTS,
    MAX_DOCKS,
    MIN_DETENTS,
    CalibrationError,
    CalibrationFile,
    DialCalibration,
    fit_dial,
    load_calibration,
    save_calibration,
)
from dialtray.calibration_capture import CaptureTimeout, capture_revolution
from dialtray.calibration_view import host_copy
from dialtray.commands._args import int_range, positive_seconds
from dialtray.link.session import TraySession

EPILOG = """\
For each dial: put it on click 0, then click it clockwise one click at a time, pausing a
moment on each, until it is back on click 0. The tray streams raw readings meanwhile; each
settled click is captured and one revolution is fitted (clicks per turn, direction, zero).
See calibration/README.md.

examples:
  dialtray calibrate --dock 2                     both dials of dock 2, the tray on USB
  dialtray calibrate PORT --dock 0 --dial speed --out calibration/mytray.json --apply
  dialtray calibrate PORT --dock 1 --clicks 24     an incremental encoder with 24 clicks
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("calibrate", help="measure a tray's dials (clicks per turn, zero)",
                       description="Capture one revolution of a dial from the tray's raw "
                                   "readings and fit its calibration.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", nargs="?", help="serial port (default: the tray on USB)")
    p.add_argument("--dock", type=int_range(0, MAX_DOCKS - 1), required=True,
                   help="dock number, from 0")
    p.add_argument("--dial", choices=(*config.DIAL_NAMES, "both"), default="both")
    p.add_argument("--clicks", type=int_range(MIN_DETENTS, MAX_DETENTS),
                   help="clicks per revolution; needed for incremental encoders (default: "
                        "absolute dials stop by themselves when back on click 0)")
    p.add_argument("--out", type=Path, help="calibration file to write or update (default: the "
                                            "host's copy, calibration/tray-<board uid>.json in "
                                            "the data directory)")
    p.add_argument("--apply", action="store_true",
                   help="also send the values to the tray now (assumes the default wiring of "
                        "dialrig.config: mux channel 2*dock+dial)")
    p.add_argument("--timeout", type=positive_seconds, default=60.0,
                   help="seconds to wait for each click (default %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    names = config.DIAL_NAMES if args.dial == "both" else (args.dial,)
    with TraySession(args.port, name="calibrate") as session:
        try:
            session.wait_synced(15)
            snap = session.snapshot()
        except TimeoutError as e:
            print(f"dialtray calibrate: {e}", file=sys.stderr)
            return 1
        hello = session.hello
        assert hello is not None
        if not 0 <= args.dock < hello.docks:
            print(f"dialtray calibrate: the tray has docks 0..{hello.docks - 1}", file=sys.stderr)
            return 2
        results: dict[str, DialCalibration] = {}
        for name in names:
            index = config.DIAL_NAMES.index(name)
            state = snap.position(args.dock, index)
            sensor = state.sensor if state else "none"
            where = f"dock {args.dock} {name}"
            if sensor not in (config.SENSOR_AS5600, config.SENSOR_QUADRATURE):
                print(f"{where}: no sensor fitted: skipped")
                continue
            print(f"{where} ({sensor}): put it on click 0, then click it clockwise one click "
                  "at a time, pausing on each, until it is back on click 0.", flush=True)
            try:
                readings = capture_revolution(
                    session, args.dock, index, sensor, args.clicks,
                    progress=lambda text: print(f"  {text}", flush=True),
                    timeout_s=args.timeout)
                cal = fit_dial(readings, sensor, where=where)
            except (CalibrationError, CaptureTimeout, ValueError) as e:
                print(f"dialtray calibrate: {e}", file=sys.stderr)
                return 1
            print(f"  {where}: {cal.detents} clicks per turn, direction {cal.direction:+d}, "
                  f"zero {cal.zero}, pulses {cal.pulses}, residual {cal.residual:.3f} detent",
                  flush=True)
            results[name] = cal
            if args.apply:
                settings = config.default_dial(args.dock, index, sensor)
                settings.update({k: getattr(cal, k) for k in CALIBRATED_KEYS})
                if sensor == config.SENSOR_QUADRATURE:
                    print(f"  {where}: not sent: an incremental dial's wiring is not the "
                          "default's to guess; put it in dialrig.json", file=sys.stderr)
                else:
                    session.set_dial(args.dock, index, settings)
                    print(f"  {where}: sent to the tray")
        out = args.out or host_copy(args.data_dir, hello.uid)
        try:
            save(out, hello.uid, hello.firmware, args.dock, results)
        except CalibrationError as e:
            print(f"dialtray calibrate: {e}", file=sys.stderr)
            return 1
        print(f"wrote {out}")
    return 0


def save(out: Path, uid: str, firmware: str, dock: int,
         results: dict[str, DialCalibration]) -> None:
    """Add this dock's dials to the tray's calibration file (created if new)."""
    if out.exists():
        cal = load_calibration(out)
        if cal.board_uid != uid:
            raise CalibrationError([f"{out}: belongs to tray {cal.board_uid}, not {uid}"])
    else:
        cal = CalibrationFile(board_uid=uid, date="", firmware=firmware)
    cal.date = datetime.date.today().isoformat()
    cal.docks.setdefault(dock, {}).update(results)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_calibration(out, cal)
