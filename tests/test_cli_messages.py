"""What a user reads when something around the tray is wrong: one line that says the fix.

Issue 9: one table, one row per situation — permission denied on the port, no tray found, two
trays found, a missing calibration, the missing sim extra — each run through the real CLI entry
point. Fakes stand only where this machine cannot produce the situation: the USB enumeration
(which Picos are plugged in) and, when the tests run as root (who may open anything), the
operating system's access check.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from dialtray import cli
from dialtray.link import transport
from serial.tools.list_ports_common import ListPortInfo

ROOT = Path(__file__).resolve().parent.parent


def pico(device: str, serial_number: str) -> ListPortInfo:
    p = ListPortInfo(device)
    p.vid, p.pid, p.serial_number, p.product = 0x2E8A, 0x0005, serial_number, "Board in FS mode"
    return p


def usb(*ports: ListPortInfo) -> Callable[[pytest.MonkeyPatch, Path], list[str]]:
    def setup(mp: pytest.MonkeyPatch, tmp: Path) -> list[str]:
        mp.setattr(transport, "comports", lambda: list(ports))
        return []
    return setup


def denied_port(mp: pytest.MonkeyPatch, tmp: Path) -> list[str]:
    port = tmp / "ttyACM0"
    port.write_text("")
    port.chmod(0)
    if os.geteuid() == 0:  # root may open anything: the OS's answer for a normal user, faked
        real = os.access
        mp.setattr(transport.os, "access",
                   lambda p, mode: False if str(p) == str(port) else real(p, mode))
    mp.setattr(transport.sys, "platform", "linux")
    return [str(port)]


def no_sim_extra(mp: pytest.MonkeyPatch, tmp: Path) -> list[str]:
    """A Python without the MicroPython unix port beside it or on PATH."""
    mp.setattr(sys, "executable", str(tmp / "bin" / "python"))
    mp.setenv("PATH", str(tmp / "empty"))
    return []


def uncalibrated(mp: pytest.MonkeyPatch, tmp: Path) -> list[str]:
    return []


CASES = [
    ("permission denied", denied_port, ["monitor"], 1,
     [r"permission denied on .*ttyACM0", r"sudo usermod -aG dialout \$USER",
      r"hardware/99-dialtray\.rules", r"udevadm control --reload"]),
    ("no tray found", usb(), ["monitor"], 1,
     [r"no tray found on USB", r"2E8A:0005", r"dialtray sim"]),
    ("no tray found (flash)", usb(), ["flash"], 1, [r"no tray found on USB"]),
    ("two trays found", usb(pico("/dev/ttyACM0", "E6600001"), pico("/dev/ttyACM1", "E6600002")),
     ["monitor"], 1,
     [r"2 trays found on USB, not guessing", r"/dev/ttyACM0 \(Board in FS mode, serial E6600001\)",
      r"/dev/ttyACM1 .*serial E6600002", r"name the port"]),
    ("two trays found (flash)", usb(pico("/dev/ttyACM0", "A"), pico("/dev/ttyACM1", "B")),
     ["flash"], 1, [r"2 trays found on USB, not guessing", r"name the port"]),
    ("two trays found (calibrate)", usb(pico("/dev/ttyACM0", "A"), pico("/dev/ttyACM1", "B")),
     ["calibrate", "--dock", "0"], 1, [r"2 trays found on USB, not guessing"]),
    ("missing sim extra", no_sim_extra, ["demo"], 1,
     [r"the virtual tray is an optional part of dialtray",
      r"pip install 'dialtray\[sim\]'", r"pip install '\.\[sim\]'"]),
    ("missing sim extra (sim)", no_sim_extra, ["sim"], 1, [r"pip install 'dialtray\[sim\]'"]),
]


@pytest.mark.parametrize(("name", "setup", "argv", "status", "patterns"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_message_says_the_fix(name: str, setup: Callable[[pytest.MonkeyPatch, Path],
                                                              list[str]],
                                  argv: list[str], status: int, patterns: list[str],
                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    extra = setup(monkeypatch, tmp_path)
    got = cli.main(["--data-dir", str(tmp_path / "data"), *argv, *extra])
    out, err = capsys.readouterr()
    assert got == status, (out, err)
    line = err.strip()
    assert "\n" not in line and "Traceback" not in err, err
    assert line.startswith(f"dialtray {argv[0]}: "), line
    for pattern in patterns:
        assert re.search(pattern, line), (pattern, line)


def test_missing_calibration_marks_the_dial_and_says_how(tmp_path: Path) -> None:
    from dialtray.builder.calibration_view import TrayView, host_copy
    from dialtray.link.messages import Click

    view = TrayView.load(host_copy(tmp_path, "5349cd7472617930"))
    assert view.cal is None
    assert view.problem == ("no calibration for this tray at "
                            f"{tmp_path}/calibration/tray-5349cd7472617930.json")
    text = view.click(Click(seq=1, dock=2, dial=1, position=5, delta=-1))
    assert text == ("dock 2 speed: position 5 (-1, counter-clockwise)  [UNCALIBRATED: "
                    "`dialtray calibrate --dock 2 --dial speed`]")


def test_opening_a_port_the_user_may_not_open_is_never_a_bare_permission_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's own open (pyserial) maps EACCES to the same advice."""
    import serial

    def refuse(*a: object, **kw: object) -> None:
        raise serial.SerialException(13, "could not open port /dev/ttyACM0: [Errno 13] "
                                          "Permission denied: '/dev/ttyACM0'")

    monkeypatch.setattr(serial, "Serial", refuse)
    monkeypatch.setattr(transport.sys, "platform", "linux")
    with pytest.raises(transport.PortError) as caught:
        transport.SerialTransport.open("/dev/ttyACM0")
    assert "dialout" in str(caught.value) and "99-dialtray.rules" in str(caught.value)
    assert "Errno" not in str(caught.value)


def test_the_udev_rule_in_the_message_exists_and_matches_the_pico() -> None:
    rule = (ROOT / transport.UDEV_RULE).read_text()
    line = next(x for x in rule.splitlines() if x and not x.startswith("#"))
    assert 'ATTRS{idVendor}=="2e8a"' in line and 'ATTRS{idProduct}=="0005"' in line
    assert 'SUBSYSTEM=="tty"' in line and 'TAG+="uaccess"' in line


def test_a_broken_calibration_file_is_named_with_its_field(tmp_path: Path) -> None:
    from dialtray.builder.calibration_view import TrayView

    bad = tmp_path / "tray.json"
    bad.write_text('{"format": 1, "board_uid": "5349cd7472617930", "date": "2026-11-24", '
                   '"docks": [{"dock": 0, "combat": {"sensor": "as5600", "detents": 99}}]}')
    view = TrayView.load(bad)
    assert view.cal is None and "\n" not in view.problem
    assert f"{bad}: docks[0].combat.detents:" in view.problem, view.problem


def test_flash_says_which_tray_it_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """One Pico listed on USB (its port does not really exist here, so mpremote then fails)."""
    gone = "/dev/ttyDIALTRAYTEST0"
    usb(pico(gone, "E6600042"))(monkeypatch, tmp_path)
    assert cli.main(["--data-dir", str(tmp_path), "flash"]) == 1
    out, err = capsys.readouterr()
    assert f"found the tray on USB: {gone} (Board in FS mode, serial E6600042)" in out, out
    assert err.startswith(f"dialtray flash: mpremote could not copy to {gone}: "), err
    assert err.count("\n") == 1 and "Traceback" not in err
