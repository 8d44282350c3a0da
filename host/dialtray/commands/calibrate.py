"""`dialtray calibrate`: measure a tray's dials and write (and send) the calibration.

The builder sees every step live (Rich progress on a terminal, one line per step otherwise):
what the tray answers, each click counted, the direction seen, what to do next; the capture
ends as soon as the dial is back on click 0 (or the given number of clicks is reached).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dialrig import config

from dialtray.builder.calibration import (
    CALIBRATED_KEYS,
    MAX_DETENTS,
    MAX_DOCKS,
    MIN_DETENTS,
    CalibrationError,
    DialCalibration,
    fit_dial,
)
from dialtray.builder.calibration_capture import (
    CaptureStatus,
    CaptureTimeout,
    add_dock,
    capture_revolution,
)
from dialtray.builder.calibration_check import check_on_connect
from dialtray.builder.calibration_view import host_copy
from dialtray.commands._args import int_range, positive_seconds
from dialtray.commands._common import CommandError
from dialtray.link.port import resolve_port
from dialtray.link.session import CommandFailed, TraySession

EPILOG = """\
For each dial: put it on click 0, then click it clockwise one click at a time, pausing a
moment on each, until it is back on click 0. The tray streams raw readings meanwhile; each
settled click is captured (shown live) and one revolution is fitted (clicks per turn,
direction, zero). The result goes to the host's copy of the tray's calibration in the data
directory (see `dialtray --help`), or to --out. See calibration/README.md.

examples:
  dialtray calibrate --dock 2                     both dials of dock 2, the tray on USB
  dialtray calibrate --dock 2 --name "Show-stopper"   and name the dock for `dialtray monitor`
  dialtray calibrate PORT --dock 0 --dial speed --out mytray.json --apply
  dialtray calibrate PORT --dock 1 --clicks 24     an incremental encoder with 24 clicks
  dialtray calibrate --dock 3 --dial combat --channel 9 --apply   non-default wiring
"""

MUX_CHANNELS = len(config.MUX_ADDRS) * 8
SYNC_WAIT_S = 20.0

if TYPE_CHECKING:  # Rich is imported when a capture is shown, not at the CLI's start-up
    from rich.console import Console

Observer = Callable[[CaptureStatus], None]


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
    p.add_argument("--name", type=dock_name,
                   help="what the players call this dock (e.g. the figure on it); "
                        "`dialtray monitor` shows it")
    p.add_argument("--out", type=Path, help="calibration file to write or update (default: the "
                                            "host's copy, calibration/tray-<board uid>.json in "
                                            "the data directory)")
    p.add_argument("--apply", action="store_true",
                   help="also send the values to the tray now (assumes the default wiring of "
                        "dialrig.config: mux channel 2*dock+dial, unless --channel)")
    p.add_argument("--channel", type=int_range(0, MUX_CHANNELS - 1),
                   help="with --apply and one --dial: the AS5600's mux channel, "
                        f"0..{MUX_CHANNELS - 1} across both multiplexers (default 2*dock+dial); "
                        "refused if another dial already reads that channel")
    p.add_argument("--timeout", type=positive_seconds, default=60.0,
                   help="seconds to wait for each click (default %(default)s)")
    p.set_defaults(func=run)


def dock_name(text: str) -> str:
    """What players call a dock: 1..40 characters (the calibration file's limit)."""
    text = " ".join(text.split())
    if not 1 <= len(text) <= 40:
        raise argparse.ArgumentTypeError(f"a dock name is 1..40 characters, got {len(text)}")
    return text


class Display:
    """Live progress on a terminal (Rich), one plain line per step elsewhere (pipes, logs)."""

    def __init__(self, console: Console | None = None) -> None:
        from rich.console import Console

        self.console = console or Console(highlight=False)
        self.live = self.console.is_terminal

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, soft_wrap=True)  # a pipe gets whole lines

    @contextmanager
    def waiting(self, what: str) -> Iterator[None]:
        if self.live:
            with self.console.status(what):
                yield
        else:
            self.say(what)
            yield

    @contextmanager
    def capture(self, where: str, observer: Observer | None) -> Iterator[Observer]:
        """A progress callback for one dial's capture."""
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn

        progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                            TextColumn("{task.fields[detail]}"), console=self.console,
                            transient=False) if self.live else None
        task = progress.add_task(where, total=None, detail="") if progress else None
        last = [-2]

        def update(st: CaptureStatus) -> None:
            if observer is not None:
                observer(st)
            if progress is not None and task is not None:
                total = st.expected or (max(st.clicks + 1, 2) if st.clicks >= 0 else None)
                progress.update(task, completed=max(st.clicks, 0), total=total,
                                detail=str(st))
            elif st.clicks != last[0] or st.done:
                self.say(f"  {where}: {st}")
            last[0] = st.clicks

        if progress is None:
            yield update
        else:
            with progress:
                yield update


def run(args: argparse.Namespace, observer: Observer | None = None,
        display: Display | None = None) -> int:
    names = config.DIAL_NAMES if args.dial == "both" else (args.dial,)
    if getattr(args, "channel", None) is not None and (args.dial == "both" or not args.apply):
        raise CommandError("argument --channel: needs --apply and one --dial (combat or speed)",
                           2)
    show = display or Display()
    port = resolve_port(args.port)
    with TraySession(port, name="calibrate") as session:
        with show.waiting(f"waiting for the tray on {port} to answer (up to "
                          f"{SYNC_WAIT_S:.0f} s) …"):
            try:
                session.wait_synced(SYNC_WAIT_S)
                snap = session.snapshot()
            except TimeoutError as e:
                raise CommandError(f"the tray on {port} did not answer: {e}; is it running the "
                                   "dialtray firmware (`dialtray flash`)?") from e
        hello = session.hello
        assert hello is not None
        docks = f"{hello.docks} dock{'s' if hello.docks != 1 else ''}"
        show.say(f"tray {hello.uid} (firmware {hello.firmware}, {docks}) on {port}")
        show.say(check_on_connect(session, args.out or host_copy(args.data_dir, hello.uid)).line())
        if not 0 <= args.dock < hello.docks:
            raise CommandError(f"argument --dock: the tray has docks 0..{hello.docks - 1}", 2)
        results: dict[str, DialCalibration] = {}
        to_send: list[tuple[int, str, dict[str, Any], DialCalibration]] = []
        for name in names:
            index = config.DIAL_NAMES.index(name)
            state = snap.position(args.dock, index)
            sensor = state.sensor if state else "none"
            where = f"dock {args.dock} {name}"
            if sensor not in (config.SENSOR_AS5600, config.SENSOR_QUADRATURE):
                show.say(f"{where}: no sensor fitted: skipped")
                continue
            settings = wiring(args, index, sensor, hello.docks) if args.apply else {}
            show.say(f"{where} ({sensor}): put it on click 0, then click it clockwise one "
                     "click at a time, pausing on each, until it is back on click 0.")
            try:
                with show.capture(where, observer) as progress:
                    readings = capture_revolution(session, args.dock, index, sensor,
                                                  args.clicks, progress=progress,
                                                  timeout_s=args.timeout)
                cal = fit_dial(readings, sensor, where=where)
            except CalibrationError as e:
                raise CommandError("; ".join(e.problems)) from e
            except (CaptureTimeout, ValueError) as e:
                raise CommandError(str(e)) from e
            show.say(f"  {where}: {cal.detents} clicks per turn, direction {cal.direction:+d}, "
                     f"zero {cal.zero}, pulses {cal.pulses}, residual {cal.residual:.3f} detent")
            results[name] = cal
            to_send.append((index, sensor, settings, cal))
        out = args.out or host_copy(args.data_dir, hello.uid)
        try:
            add_dock(out, hello.uid, hello.firmware, args.dock, results,
                     getattr(args, "name", None))
        except CalibrationError as e:
            raise CommandError("; ".join(e.problems)) from e
        except OSError as e:
            raise CommandError(f"cannot write {out}: {e.strerror or e}") from e
        show.say(f"wrote {out}")
        if args.apply:  # after the file: a refused wiring keeps the measurement
            for index, sensor, settings, cal in to_send:
                send(session, show, args.dock, index, sensor, settings, cal)
    return 0


def wiring(args: argparse.Namespace, index: int, sensor: str, docks: int) -> dict[str, Any]:
    """The dial's settings to send, refused (exit 2) if another dial already reads its sensor.

    Checked against the default wiring of every other dial with dialrig.config.sensor_user, the
    check the firmware makes on SET_DIAL (which refuses, in turn, a clash with a tray wired
    otherwise, by its dialrig.json: `send` reports that refusal).
    """
    settings: dict[str, Any] = config.default_dial(args.dock, index, sensor)
    channel = getattr(args, "channel", None)
    if channel is None:
        return settings
    settings["mux"], settings["channel"] = config.MUX_ADDRS[channel // 8], channel % 8
    user = config.sensor_user(config.default_config(docks), args.dock, index, settings)
    if user >= 0:
        other = f"dock {user // 2} {config.DIAL_NAMES[user % 2]}"
        raise CommandError(f"argument --channel: {channel} (mux 0x{settings['mux']:02x} channel "
                           f"{settings['channel']}) is already read by {other}: two dials on one "
                           "sensor would both report its turns", 2)
    return settings


def send(session: TraySession, show: Display, dock: int, index: int, sensor: str,
         settings: dict[str, Any], cal: DialCalibration) -> None:
    where = f"dock {dock} {config.DIAL_NAMES[index]}"
    settings.update({k: getattr(cal, k) for k in CALIBRATED_KEYS})
    if sensor == config.SENSOR_QUADRATURE:
        show.say(f"  {where}: not sent: an incremental dial's wiring is not the default's to "
                 "guess; put it in dialrig.json")
        return
    try:
        session.set_dial(dock, index, settings)
    except (CommandFailed, TimeoutError) as e:
        raise CommandError(f"{where}: the tray refused the settings: {e} (the measurement is "
                           "saved; send it with the right --channel)") from e
    show.say(f"  {where}: sent to the tray")
