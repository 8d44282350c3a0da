"""The host runs where pyserial does: no POSIX-only import at start-up; the virtual tray is extra.

Issue 9 (installs anywhere). Each check runs in a fresh interpreter in which `fcntl`, `termios`
and `pty` cannot be imported (as on Windows): `sys.modules[name] = None` makes every later
`import name` fail. pyserial, whose POSIX backend needs termios and fcntl, is imported only when
a port is listed or opened (dialtray.link.transport), so it is not loaded at start-up either.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BLOCK = """
import sys
for name in ("fcntl", "termios", "pty", "tty"):
    sys.modules[name] = None  # `import name` now raises ImportError
"""


def run_blocked(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_every_command_module_imports_without_posix_modules() -> None:
    r = run_blocked("""
import importlib, json, pkgutil
from dialtray import commands, cli
names = [m.name for m in pkgutil.iter_modules(commands.__path__)]
for name in names:
    importlib.import_module(f"dialtray.commands.{name}")
parser = cli.build_parser()
print(json.dumps(names))
""")
    assert r.returncode == 0, r.stderr
    names = json.loads(r.stdout)
    assert {"demo", "sim", "monitor", "flash", "calibrate", "odds", "replay", "coverage"} <= set(
        names)


def test_start_up_imports_no_posix_only_module() -> None:
    """Even where they exist, building the CLI loads neither the virtual tray nor pyserial, nor
    termios/pty/tty (fcntl may load: the standard library's subprocess tries it, optionally)."""
    r = subprocess.run([sys.executable, "-c", """
import sys
from dialtray import cli
cli.build_parser()
print(sorted(m for m in sys.modules if m.startswith(("dialtray.virtual", "serial"))
             or m in ("termios", "pty", "tty")))
"""], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout


def test_play_of_another_game_loads_no_fasa_rule() -> None:
    """`dialtray play airaction …` starts without loading FASA's rules (~0.1 s of CPU at each
    start, and the tests start `play` dozens of times); `play fasa` still finds them."""
    r = subprocess.run([sys.executable, "-c", """
import sys
from dialtray import cli
from dialtray.commands import play
cli.build_parser("play").parse_args(["play", "airaction", "--sim"])
print(sorted(m for m in sys.modules if m.startswith("dialtray.rules.fasa")))
from dialtray.rules.fasa.notation import KIND
print(KIND == play.FASA)
"""], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]", "True"], r.stdout


@pytest.mark.parametrize("argv", [["--help"], ["odds", "--dice", "3", "--target", "4"],
                                  ["sim", "--help"], ["coverage", "--prefix", "AA"]])
def test_commands_run_without_posix_modules(argv: list[str]) -> None:
    r = run_blocked(f"from dialtray import cli\nraise SystemExit(cli.main({argv!r}))\n")
    assert r.returncode in (0, 1), r.stderr  # coverage exits 1 when ids lack a test
    assert "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("command", ["demo", "sim"])
def test_demo_and_sim_say_the_virtual_tray_cannot_run_here(command: str) -> None:
    r = run_blocked(f"from dialtray import cli\nraise SystemExit(cli.main([{command!r}]))\n")
    assert r.returncode == 1, r
    assert r.stderr.strip() == (f"dialtray {command}: the virtual tray needs Linux or macOS (it "
                                "runs the firmware in MicroPython on a pseudo-terminal); on this "
                                "computer, use a real tray"), r.stderr
