"""The `dialtray` command line: discovers one module per subcommand in dialtray.commands.

main() is the one place a user-facing failure is turned into words: a bad argument is one line
and exit status 2 (commands._args.Parser), a UserError (dialtray.errors: a command's, the
table's) is its message, a closed pipe (`dialtray monitor | head`) is a quiet exit, and anything
unexpected is one line with a hint to rerun with -v — never a traceback, unless -v asks for one
(it then goes to the log).
Start-up imports no POSIX-only module (fcntl, termios, pty): the virtual tray is loaded only by
the commands that run it, so the CLI works wherever pyserial does.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

from dialtray import __version__, commands
from dialtray.commands._args import Parser, lend_examples
from dialtray.commands._common import default_data_dir
from dialtray.commands.calibrate_camera import camera_alias
from dialtray.errors import UserError

log = logging.getLogger("dialtray")
_handlers: list[logging.Handler] = []  # what setup_logging added to the root logger
# The commands whose module is named otherwise (build_parser checks the module registers it).
_MODULE_OF = {"camera": "calibrate_camera", "import": "import_log"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand registers itself; the order of --help is alphabetical.

    ``only``: the command word the user typed. When a command module of that name (``-`` read
    as ``_``) registers that command, only it is imported: importing every command loads every
    rules engine, the store and jsonschema (most of a second of CPU), and the tests start
    `dialtray` hundreds of times. Anything else (no command, --help, an unknown or misspelt
    word) builds the full parser, so its messages list every command as before."""
    parser = Parser(
        prog="dialtray",
        description=(
            "dialtray: a smart tray for Crimson Skies clix games. A Raspberry Pi Pico reads every "
            "dial click; this program runs the rules, tracks every click and tells players what "
            "to turn. No hardware? `dialtray demo` plays a scene on the virtual tray."
        ),
        epilog=("Run `dialtray COMMAND --help` for each command's options and examples.\n"
                "examples:\n  dialtray demo\n  dialtray -v monitor /dev/ttyACM0\n"
                "  dialtray --data-dir ~/trays calibrate --dock 0"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"dialtray {__version__}")
    parser.add_argument("-v", "--verbose", dest="cli_log_level", action="count", default=0,
                        help="log what happens and an unexpected error's details (-vv: all)")
    # dests of the top-level options are prefixed: a subcommand's own `log`, `verbose`… share
    # the namespace and must not switch these on.
    parser.add_argument("--log", dest="cli_log", action="store_true",
                        help="also write the log (every detail) to logs/dialtray.log in the data "
                             "directory")
    parser.add_argument("--log-file", dest="cli_log_file", type=Path, metavar="FILE",
                        help="also write the log (every detail) to FILE")
    parser.add_argument("--data-dir", dest="cli_data_dir", type=Path, metavar="DIR",
                        help="where dialtray keeps calibration copies and logs (default: "
                             f"{default_data_dir()}; or set DIALTRAY_DATA_DIR)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__)
                   if not info.name.startswith("_"))  # _name: shared helpers, not commands
    wanted = _MODULE_OF.get(only, only.replace("-", "_")) if only else None
    if wanted in names:
        importlib.import_module(f"{commands.__name__}.{wanted}").register(sub)
        if only in sub.choices:
            lend_examples(parser)
            return parser
        return build_parser()  # that module registers another name: every command, as usual
    for name in names:
        importlib.import_module(f"{commands.__name__}.{name}").register(sub)
    lend_examples(parser)
    return parser


def command_word(argv: Sequence[str]) -> str | None:
    """The subcommand in ``argv`` (after the top-level options), or None."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in ("--data-dir", "--log-file") else 1
    return argv[i] if i < len(argv) else None


def setup_logging(level: int, log_file: Path | None) -> None:
    """-v: INFO, -vv: DEBUG on stderr; --log-file: DEBUG to the file, whatever -v says."""
    root = logging.getLogger()
    for h in _handlers:  # ours from an earlier main() in this process; others' stay
        root.removeHandler(h)
        h.close()
    _handlers.clear()
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.WARNING if level == 0 else logging.INFO if level == 1
                     else logging.DEBUG)
    console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root.addHandler(console)
    _handlers.append(console)
    if log_file is not None:
        log_file.expanduser().parent.mkdir(parents=True, exist_ok=True)
        fh = logging.FileHandler(log_file.expanduser(), encoding="utf-8")
        fh.setLevel(logging.DEBUG)
        fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(fh)
        _handlers.append(fh)
    root.setLevel(logging.DEBUG if level >= 2 or log_file is not None
                  else logging.INFO if level == 1 else logging.WARNING)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        return _quiet_pipe_exit()


def _main(argv: Sequence[str] | None) -> int:
    words = camera_alias(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_word(words))
    try:
        args = parser.parse_args(words)
    except SystemExit as e:  # --help, --version, or a one-line argument error
        return e.code if isinstance(e.code, int) else 0 if e.code is None else 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    prog = f"dialtray {args.command}"
    args.data_dir = (args.cli_data_dir or Path(os.environ.get("DIALTRAY_DATA_DIR", "")
                                               or default_data_dir())).expanduser()
    log_file = args.cli_log_file or (args.data_dir / "logs" / "dialtray.log" if args.cli_log
                                     else None)
    try:
        setup_logging(args.cli_log_level, log_file)
    except OSError as e:
        print(f"dialtray: cannot write the log file {log_file}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    log.info("dialtray %s: %s (data directory %s)", __version__, " ".join(sys.argv[1:])
             if argv is None else " ".join(argv), args.data_dir)
    from dialtray.store import keys  # (here: the store is not loaded for --help)

    try:
        with keys.using(args.data_dir / "keys"):  # the store's key and judge tokens (issue 31)
            return int(args.func(args) or 0)
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM where ui.terminate turned it into one
        from dialtray.ui.terminate import exit_status

        print("\ninterrupted", file=sys.stderr)
        return exit_status(e)
    except BrokenPipeError:
        raise
    except UserError as e:  # a command's, the table's, a front end's: one line
        log.debug("%s failed", prog, exc_info=True)
        print(f"{prog}: {e}", file=sys.stderr)
        return e.status
    except Exception as e:  # the last line of defence: one line, never a traceback
        log.info("unexpected error in %s", prog, exc_info=True)  # shown by -v, kept by --log-file
        what = str(e) or type(e).__name__
        hint = "" if args.cli_log_level >= 1 else \
            f" (a bug: rerun with -v, `dialtray -v {args.command} …`, for the details)"
        print(f"{prog}: unexpected error: {what}{hint}", file=sys.stderr)
        return 1


def _quiet_pipe_exit() -> int:
    """The reader went away (`| head`): stop quietly, and keep Python from complaining at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a real file (e.g. captured in a test)
    return 0


if __name__ == "__main__":
    sys.exit(main())
