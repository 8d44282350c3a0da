"""The rig as a person uses it: the CLI commands, mpremote against the running firmware."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from dialrig import config
from dialtray.link.messages import Click
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray

BIN = Path(sys.executable).parent


def dialtray(*args: str, stdin: str | None = None, timeout: float = 120
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def mpremote_exec(port: str, code: str) -> subprocess.CompletedProcess[str]:
    # `resume`: no soft reset (the unix port exits on Ctrl-D where a Pico would soft-reboot).
    return subprocess.run([str(BIN / "mpremote"), "connect", port, "resume", "exec", code],
                          capture_output=True, text=True, timeout=60)


def quick_watchdog() -> dict[str, object]:
    cfg = config.default_config(2)
    cfg["watchdog_ms"] = 800
    return cfg


def test_help_teaches_every_command() -> None:
    out = dialtray("--help").stdout
    for name in ("demo", "sim", "monitor", "flash", "hardware"):
        assert name in out
    sim_help = dialtray("sim", "--help").stdout
    assert "turn DOCK" in sim_help and "examples:" in sim_help


@pytest.mark.slow(cost=6)
def test_demo_plays_a_game_on_the_virtual_tray(tmp_path: Path) -> None:
    # the demo is a whole tracked bot game now: tests/test_demo.py checks it in detail
    r = dialtray("--data-dir", str(tmp_path), "demo", "--fast")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "every one put right" in r.stdout and "winner" in r.stdout


def test_sim_runs_piped_commands_and_names_the_bad_line(tmp_path: Path) -> None:
    r = dialtray("sim", "--docks", "2", "--exit", "--workdir", str(tmp_path),
                 stdin="turn 0 combat 2\nstatus\nturn 9 combat 1\nfly away\n")
    assert r.returncode == 0, r.stderr
    assert "virtual tray running: 2 docks" in r.stdout
    assert "turned dock 0 combat by 2" in r.stdout
    assert "0c=2" in r.stdout  # status shows the physical dial
    assert "<stdin>:3: no dial 'combat' on dock 9" in r.stderr
    assert "<stdin>:4: unknown command 'fly'" in r.stderr


def test_sim_help_at_the_prompt_is_plain_text(tmp_path: Path) -> None:
    """`help` at the sim> prompt: the commands as plain text, no reST markup (``, ::) from
    the docstring it is made of, no line past 80 columns; one dock is "1 dock"."""
    r = dialtray("sim", "--docks", "1", "--exit", "--workdir", str(tmp_path), stdin="help\n")
    assert r.returncode == 0, r.stderr
    assert "virtual tray running: 1 dock, port" in r.stdout
    assert "turn 2 combat 1" in r.stdout and "gap 2 combat ok" in r.stdout
    assert "``" not in r.stdout and "::" not in r.stdout, r.stdout
    shown = r.stdout[r.stdout.index("A small command language"):]
    assert max(len(ln) for ln in shown.splitlines()) <= 80, shown


def test_sim_script_error_names_file_and_line(tmp_path: Path) -> None:
    script = tmp_path / "turns.txt"
    script.write_text("# warm-up\nturn 0 speed -1\nturn 0 speed\n")
    r = dialtray("sim", "--docks", "1", "--exit", "--script", str(script))
    assert r.returncode == 1
    assert f"{script}:3:" in r.stderr and "usage: turn DOCK" in r.stderr


def test_monitor_shows_clicks_from_a_tray(tmp_path: Path) -> None:
    with VirtualTray(config.default_config(2), seed=1) as tray:
        # Acts on what monitor shows, not on a clock; a hung monitor is killed (EOF) so the
        # assertions below say what was missing.
        proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "monitor",
                                 tray.port, "--stats", "0.5"], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        guard = threading.Timer(120, proc.kill)
        guard.start()
        lines = []
        for line in proc.stdout:  # the tray answers: monitor read its connect snapshot
            lines.append(line)
            if "snapshot (connect)" in line:
                break
        tray.turn(1, "speed", -2)
        for line in proc.stdout:
            lines.append(line)
            if "dock 1 speed: position" in line:
                break
        for line in proc.stdout:
            lines.append(line)
            if "device: frames ok" in line:
                break
        proc.terminate()
        rest, _ = proc.communicate(timeout=30)
        guard.cancel()
        out = "".join(lines) + rest
    # No calibration in the (empty) data directory: the raw position, marked (issue 9).
    assert "dock 1 speed: position " in out and "(-2, counter-clockwise)" in out
    assert "UNCALIBRATED" in out
    assert "device: frames ok" in out


def test_monitor_without_a_tray_says_what_to_do() -> None:
    r = dialtray("monitor", "--seconds", "1")
    assert r.returncode == 1
    assert "no tray found on USB" in r.stderr and "dialtray sim" in r.stderr


def test_flash_dry_run_compiles_every_module_for_armv6m() -> None:
    r = dialtray("flash", "--dry-run")
    assert r.returncode == 0, r.stderr
    modules = sorted(p.stem for p in (Path(config.__file__).parent).glob("*.py"))
    for m in modules:  # the simulator's modules stay on the host (issue 9)
        assert (f"{m}.mpy" not in r.stdout) if m in ("hw_sim", "sim_i2c") else \
            (f"{m}.mpy" in r.stdout), m


def test_mpremote_interrupts_the_running_firmware_and_the_repl_stays() -> None:
    with VirtualTray(quick_watchdog(), seed=1) as tray:
        time.sleep(1.0)
        r = mpremote_exec(tray.port, "print('at the REPL', 6 * 7)")
        assert r.returncode == 0, r.stderr
        assert "at the REPL 42" in r.stdout
        time.sleep(1.5)  # longer than the watchdog: it must have been disabled
        assert tray.running and tray.resets == []
        assert b"dialrig stopped: REPL" in bytes(tray.bridge.device_tail)


def test_mpremote_works_right_after_a_host_leaves() -> None:
    """Within the host timeout the firmware judges Ctrl-C itself: mpremote's CR, Ctrl-C."""
    with VirtualTray(quick_watchdog(), seed=1) as tray:
        with TraySession(tray.port) as session:
            session.wait_synced(15)
            tray.turn(0, "combat", 1)
            deadline = time.monotonic() + 5
            while not any(isinstance(e, Click) for e in list(session.events.queue)):
                assert time.monotonic() < deadline
                time.sleep(0.05)
        r = mpremote_exec(tray.port, "print('judged', 1 + 1)")
        assert r.returncode == 0, r.stderr
        assert "judged 2" in r.stdout
        assert tray.resets == []


@pytest.mark.parametrize("settle_s", [0.0, 1.0])
def test_a_wedged_firmware_is_reset_by_the_watchdog(settle_s: float) -> None:
    """Right after boot (during the self-test) and later in normal running."""
    with VirtualTray(quick_watchdog(), seed=1) as tray, TraySession(tray.port) as session:
        session.wait_synced(15)
        first_boot = session.boot_id
        time.sleep(settle_s)
        tray.hang(3000)
        deadline = time.monotonic() + 10
        while "watchdog" not in tray.resets:
            assert time.monotonic() < deadline, "the watchdog never bit"
            time.sleep(0.05)
        deadline = time.monotonic() + 15  # and the host resynchronises with the new boot
        while not (session.synced.is_set() and session.boot_id != first_boot):
            assert time.monotonic() < deadline, "the host never resynchronised"
            time.sleep(0.05)
        assert tray.boots == 2
