"""Run the MicroPython firmware tests (tests/mpy/test_*.py) in the real MicroPython interpreter.

Each test_* function of each tests/mpy/test_*.py module becomes one pytest test, named
``test_mpy[<module>::<test>]``. The tests are listed at collection time (``mpytest.py --list``)
and run one micropython process per module (the first of a module's tests to run runs all of
that module's selected tests and the others pick up their results), which keeps the whole suite
fast; a test whose process died before reporting is rerun alone, so a crash or a hang is pinned
on the test that caused it. ``MPYTEST_ISOLATE=1`` runs every test in its own process.
``MPYTEST_TIMEOUT`` (seconds, default 120) limits one process.

The interpreter is the ``micropython`` next to sys.executable (the venv's), else the one on
PATH; without one these tests are skipped. MICROPYPATH puts firmware/ and tests/mpy/ on the
MicroPython path (plus ``.frozen``, where the unix port keeps its frozen modules: asyncio...).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MPY_DIR = ROOT / "tests" / "mpy"
RUNNER = MPY_DIR / "mpytest.py"
TIMEOUT = float(os.environ.get("MPYTEST_TIMEOUT", "120"))
ISOLATE = os.environ.get("MPYTEST_ISOLATE", "") not in ("", "0")
COLLECT_ERROR = "<import>"

_RESULT = re.compile(r"^(PASS|FAIL|SKIP) (\w+)(?::\s?(.*))?$")


def find_micropython() -> str | None:
    local = Path(sys.executable).parent / "micropython"
    if local.exists():
        return str(local)
    return shutil.which("micropython")


MICROPYTHON = find_micropython()


def mpy_env(extra_path: tuple[str, ...] = ()) -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join(
        [*extra_path, str(ROOT / "firmware"), str(MPY_DIR), ".frozen"]
    )
    return env


def run_mpy(
    args: list[str], timeout: float = TIMEOUT, extra_path: tuple[str, ...] = ()
) -> tuple[int | None, str]:
    """Run mpytest.py with args; (exit status or None on timeout, stdout + stderr)."""
    assert MICROPYTHON is not None
    try:
        proc = subprocess.run(
            [MICROPYTHON, str(RUNNER), *args],
            cwd=ROOT,
            env=mpy_env(extra_path),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        text = out.decode(errors="replace") if isinstance(out, bytes) else out
        return None, text + f"\n[timed out after {timeout:g}s]"
    return proc.returncode, proc.stdout + proc.stderr


def parse_runs(output: str) -> dict[str, tuple[str, str]]:
    """{test name: (PASS | FAIL | SKIP, the output of that test)} from a runner's output."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    results: dict[str, str] = {}
    for line in output.splitlines():
        if line.startswith("RUN "):
            current = blocks.setdefault(line[4:].strip(), [])
            continue
        if line.startswith("== ") and " passed, " in line:
            current = None
            continue
        m = _RESULT.match(line)
        if m and m.group(2) in blocks:
            results[m.group(2)] = m.group(1)
            if m.group(1) == "SKIP":
                blocks[m.group(2)].append(m.group(3) or "")
            continue
        if current is not None:
            current.append(line)
    return {
        name: (results.get(name, "CRASH"), "\n".join(lines)) for name, lines in blocks.items()
    }


def list_tests() -> list[tuple[str, str]]:
    modules = sorted(p.stem for p in MPY_DIR.glob("test_*.py"))
    if MICROPYTHON is None or not modules:
        return []
    status, out = run_mpy(["--list", *modules])
    if status is None or (status != 0 and "ERROR " not in out):
        # The listing process itself died: list module by module so one bad module is named.
        found: list[tuple[str, str]] = []
        for mod in modules:
            st, o = run_mpy(["--list", mod])
            names = [ln.split()[1] for ln in o.splitlines() if ln.startswith(mod + " ")]
            found.extend((mod, n) for n in names)
            if st != 0:
                found.append((mod, COLLECT_ERROR))
        return found
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in modules:
            found.append((parts[0], parts[1]))
        elif len(parts) == 2 and parts[0] == "ERROR":
            found.append((parts[1], COLLECT_ERROR))
    return found


TESTS = list_tests()
_cache: dict[str, dict[str, tuple[str, str]]] = {}


def _selected(session: pytest.Session, module: str) -> list[str]:
    names = []
    for item in session.items:
        cs = getattr(item, "callspec", None)
        if cs is not None and item.originalname == "test_mpy" and cs.params.get("module") == module:
            names.append(cs.params["name"])
    return [n for n in names if n != COLLECT_ERROR]


def run_alone(module: str, name: str, extra_path: tuple[str, ...] = ()) -> tuple[str, str]:
    """Run one test in its own process: (PASS | FAIL | SKIP | CRASH, its output)."""
    status, out = run_mpy([module, name], extra_path=extra_path)
    res = parse_runs(out).get(name)
    if res is None or res[0] == "CRASH":
        return "CRASH", out + f"\n[exit status {status}]"
    return res


def run_batch(
    module: str, names: list[str], extra_path: tuple[str, ...] = ()
) -> dict[str, tuple[str, str]]:
    """Run names of module in one process; rerun alone any test the process died in."""
    _, out = run_mpy([module, *names], extra_path=extra_path)
    results = parse_runs(out)
    for n in names:
        if results.get(n, ("CRASH", ""))[0] == "CRASH":
            results[n] = run_alone(module, n, extra_path)
    return results


def _run_module(session: pytest.Session, module: str, name: str) -> tuple[str, str]:
    if ISOLATE:
        return run_alone(module, name)
    if module not in _cache:
        _cache[module] = run_batch(module, _selected(session, module) or [name])
    if name not in _cache[module]:  # selected after the batch ran (should not happen)
        _cache[module][name] = run_alone(module, name)
    return _cache[module][name]


@pytest.mark.skipif(MICROPYTHON is None, reason="no micropython interpreter")
@pytest.mark.parametrize(
    ("module", "name"),
    [pytest.param(m, n, id=f"{m}::{n}") for m, n in TESTS]
    or [pytest.param("", "", marks=pytest.mark.skip(reason="no MicroPython tests found"))],
)
def test_mpy(request: pytest.FixtureRequest, module: str, name: str) -> None:
    if name == COLLECT_ERROR:
        _, out = run_mpy(["--list", module])
        pytest.fail(f"tests/mpy/{module}.py does not import in MicroPython:\n{out}", pytrace=False)
    verdict, output = _run_module(request.session, module, name)
    if verdict == "PASS":
        if output.strip():
            print(output)
        return
    if verdict == "SKIP":
        pytest.skip(output.strip().splitlines()[-1] if output.strip() else "skipped")
    pytest.fail(f"MicroPython test {module}::{name} {verdict}\n{output}", pytrace=False)


def test_micropython_found() -> None:
    """The firmware tests must not silently vanish: the venv ships the interpreter."""
    assert MICROPYTHON is not None, f"no micropython next to {sys.executable} nor on PATH"
