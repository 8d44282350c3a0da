"""The host installs anywhere pyserial does and works outside the clone (issue 9, acceptance).

`pip install` of the host WITHOUT the sim extra into a clean venv (`tests/clean_install.py`:
pip, from a copy of this checkout, offline from the project's wheelhouse), then `dialtray
--help`, `odds`, `replay` (the example log of docs/notation.md), `coverage` and `flash
--dry-run` run from a directory outside the clone, and `demo` says how to get the virtual
tray. Skipped, saying why, only when the wheelhouse is missing.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from clean_install import install

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow(cost=20)  # a fresh venv, pip from the wheelhouse, then the commands
def test_the_host_installs_without_the_sim_extra_and_runs_outside_the_clone(
        tmp_path: Path) -> None:
    bindir = install(tmp_path)
    assert not (bindir / "micropython").exists(), "the sim extra was installed"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": f"{bindir}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(tmp_path),
           "LANG": "C.UTF-8"}

    def dialtray(*argv: str) -> subprocess.CompletedProcess[str]:
        r = subprocess.run([str(bindir / "dialtray"), *argv], cwd=elsewhere, env=env,
                           capture_output=True, text=True, timeout=300)
        assert "Traceback" not in r.stderr, r.stderr
        return r

    r = dialtray("--help")
    assert r.returncode == 0 and "replay" in r.stdout and "coverage" in r.stdout, r.stderr

    r = dialtray("odds", "--gunnery", "3", "--fate", "3", "--silhouette", "5")
    assert r.returncode == 0 and "6 dice, hit on 5+" in r.stdout, r.stderr

    example = re.search(r"```\n(Game: airaction\n.*?)```",
                        (ROOT / "docs" / "notation.md").read_text(encoding="utf-8"), re.DOTALL)
    assert example, "docs/notation.md lost its Air Action example"
    (elsewhere / "game.log").write_text(example.group(1), encoding="utf-8")
    r = dialtray("replay", "game.log")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "game.log: " in r.stdout and " actions, " in r.stdout

    r = dialtray("coverage", "--list", "--prefix", "AA")
    assert r.returncode == 0 and "AA-M45  Hit" in r.stdout, r.stdout + r.stderr
    r = dialtray("coverage", "--prefix", "AA")
    assert r.returncode == 2 and "give --tests DIR" in r.stderr, r.stderr
    r = dialtray("coverage", "--prefix", "AA", "--tests", str(ROOT / "tests"))
    assert r.returncode in (0, 1) and "of 92 AA ids have a test" in r.stdout, r.stderr

    r = dialtray("flash", "--dry-run")
    assert r.returncode == 0 and "/lib/dialrig/app.mpy" in r.stdout, r.stderr

    r = dialtray("demo")
    assert r.returncode == 1 and "pip install 'dialtray[sim]'" in r.stderr, r.stderr
    assert list(elsewhere.iterdir()) == [elsewhere / "game.log"], "wrote into the CWD"
