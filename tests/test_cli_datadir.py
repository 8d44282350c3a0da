"""Files dialtray writes go to the user's data directory, never the current one unless asked.

Issue 9: calibration copies, logs, printable targets land in platformdirs' user data directory
for "dialtray", overridable with --data-dir (or DIALTRAY_DATA_DIR); -v and --log/--log-file use
the standard logging module.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest
from dialtray import cli
from dialtray.commands._common import default_data_dir

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def test_the_default_is_the_platforms_user_data_directory() -> None:
    assert default_data_dir() == Path(platformdirs.user_data_dir("dialtray", appauthor=False))
    assert "--data-dir DIR" in cli.build_parser().format_help()


def run_in(cwd: Path, *argv: str, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def test_commands_leave_the_current_directory_alone(tmp_path: Path) -> None:
    cwd, data = tmp_path / "cwd", tmp_path / "data"
    cwd.mkdir()
    home = {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "home" / "share")}
    runs = [
        run_in(cwd, "--data-dir", str(data), "hardware", "target", "--detents", "16"),
        run_in(cwd, "--data-dir", str(data), "--log", "odds", "--dice", "3", "--target", "4"),
        run_in(cwd, "hardware", "target", env=home),  # the platform default, under HOME
        run_in(cwd, "coverage", "--list"),
        run_in(cwd, "monitor", "--seconds", "1"),
    ]
    for r in runs:
        assert "Traceback" not in r.stderr, r.stderr
    assert list(cwd.iterdir()) == [], "something was written to the current directory"
    assert (data / "targets" / "target_16.svg").is_file()
    assert "--log odds --dice 3 --target 4" in (data / "logs" / "dialtray.log").read_text()
    assert list((tmp_path / "home").rglob("target_12.svg")), runs[2].stdout


def test_the_environment_variable_chooses_the_data_directory(tmp_path: Path) -> None:
    r = run_in(tmp_path, "hardware", "target", "--detents", "10",
               env={"DIALTRAY_DATA_DIR": str(tmp_path / "d")})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "d" / "targets" / "target_10.svg").is_file()
    assert str(tmp_path / "d") in r.stdout


def test_verbose_logs_through_logging(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    try:
        assert cli.main(["-v", "--data-dir", str(tmp_path), "odds", "--dice", "2",
                         "--target", "3"]) == 0
        err = capsys.readouterr().err
        assert "INFO dialtray: dialtray 0.1.0: -v --data-dir" in err, err
        assert [h.level for h in cli._handlers] == [logging.INFO]
    finally:
        cli.setup_logging(0, None)


def test_an_unwritable_log_file_is_one_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cli.main(["--log-file", str(blocker / "x.log"), "odds", "--dice", "1",
                     "--target", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the log file" in err


def test_hardware_docs_outside_a_clone_needs_out(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from dialtray.commands import hardware

    monkeypatch.setattr(hardware, "clone_hardware_dir", lambda: None)
    assert cli.main(["hardware", "docs"]) == 2
    assert "give --out DIR" in capsys.readouterr().err


def test_hardware_docs_in_a_clone_with_a_copy_installed_says_to_install_editable(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """README's "Try it" installs a copy (pip install '.[sim]'); a builder who then edits the
    pin map in the clone and runs `dialtray hardware docs` there is told why it refuses."""
    from dialtray.commands import hardware

    (tmp_path / "firmware" / "dialrig").mkdir(parents=True)
    (tmp_path / "firmware" / "dialrig" / "config.py").write_text("")
    (tmp_path / "hardware").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(hardware, "clone_hardware_dir", lambda: None)
    assert cli.main(["--data-dir", str(tmp_path / "data"), "hardware", "docs"]) == 2
    err = capsys.readouterr().err
    assert "not this clone's firmware/dialrig/config.py; install it editable (pip install -e .)" \
        in err, err
    assert not any((tmp_path / "hardware").iterdir())


def test_a_commands_own_log_argument_does_not_turn_on_the_log(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    """`dialtray import LOG` has a positional named log; the top-level --log is another dest."""
    assert cli.main(["--data-dir", str(tmp_path), "import", str(tmp_path / "none.log")]) == 2
    capsys.readouterr()
    assert not (tmp_path / "logs").exists()
