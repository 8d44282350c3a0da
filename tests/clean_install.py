"""A clean install of the package, as a user makes one outside the clone (issues 9 and 33).

A fresh venv (``python -m venv``, no package from the test venv; the test venv's pip runs the
install, ``pip --python``) gets ``pip install`` of a copy of the checkout's sources, with its
dependencies taken from the project's wheelhouse (``.wheelhouse/``, filled by
``scripts/install_test_tools.sh`` at install time, when the network is there): the tests never
touch the network, and the install is the real pip resolving the real ``pyproject.toml``.
Where the wheelhouse is missing or lacks a dependency the test is skipped, naming the reason
and the command that fills it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WHEELHOUSE = ROOT / ".wheelhouse"
SOURCES = ("pyproject.toml", "README.md", "host", "firmware")
FILL = "bash scripts/install_test_tools.sh"


def copy_checkout(dest: Path) -> Path:
    """The sources a user's ``pip install .`` builds from (no caches, no egg-info)."""
    dest.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info", ".mypy_cache", "node_modules"))
        else:
            shutil.copy2(src, dest / name)
    return dest


def install(tmp: Path, extras: str = "") -> Path:
    """A fresh venv under ``tmp`` with the package (and ``extras``, e.g. ``"[vision]"``)
    installed offline from the wheelhouse; returns its ``bin`` folder. The copy of the
    sources is deleted afterwards: nothing may come from it."""
    if not any(WHEELHOUSE.glob("*.whl")):
        pytest.skip(f"no wheelhouse at {WHEELHOUSE}: `{FILL}` fills it (needs the network)")
    src = copy_checkout(tmp / "src")
    venv = tmp / "venv"
    r = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(  # this venv's pip installs into the fresh one (no ensurepip: faster)
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "-q", "--no-index",
         "--disable-pip-version-check", "--find-links", str(WHEELHOUSE), f"{src}{extras}"],
        capture_output=True, text=True, timeout=900,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp), "PIP_CONFIG_FILE": "/dev/null"})
    if r.returncode != 0 and "No matching distribution" in r.stderr:
        pytest.skip(f"the wheelhouse lacks a dependency (`{FILL}` refills it): "
                    + r.stderr.strip().splitlines()[-1])
    assert r.returncode == 0, f"pip install '.{extras}' failed:\n{r.stderr}"
    shutil.rmtree(src)
    return venv / "bin"
