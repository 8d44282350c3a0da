"""The MicroPython test harness itself (tests/mpy/mpytest.py + tests/test_firmware_mpy.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_firmware_mpy as h

pytestmark = pytest.mark.skipif(h.MICROPYTHON is None, reason="no micropython interpreter")

FAKE = '''
import sys
import mpytest

def test_pass():
    print("hello from test_pass")

def test_fail():
    assert 1 + 1 == 3, "arithmetic"

def test_skip():
    raise mpytest.SkipTest("not on unix")

def test_exit():
    sys.exit(7)  # kills the batch process

def test_zz_after_exit():
    pass

def test_alloc_helper():
    assert mpytest.alloc(lambda: None) == 0
    assert mpytest.alloc(lambda: bytearray(8)) > 0

def helper_not_a_test():
    raise RuntimeError
'''


def fake(tmp_path: Path, source: str = FAKE, name: str = "test_fake") -> tuple[str, ...]:
    (tmp_path / f"{name}.py").write_text(source)
    return (str(tmp_path),)


def test_list(tmp_path: Path) -> None:
    extra = fake(tmp_path)
    status, out = h.run_mpy(["--list", "test_fake"], extra_path=extra)
    assert status == 0
    assert out.split("\n")[:2] == ["test_fake test_alloc_helper", "test_fake test_exit"]
    assert "helper_not_a_test" not in out


def test_batch_results_and_crash_rerun(tmp_path: Path) -> None:
    extra = fake(tmp_path)
    names = ["test_pass", "test_fail", "test_skip", "test_exit", "test_zz_after_exit",
             "test_alloc_helper"]
    res = h.run_batch("test_fake", names, extra_path=extra)
    assert res["test_pass"] == ("PASS", "hello from test_pass")
    assert res["test_fail"][0] == "FAIL"
    assert "AssertionError: arithmetic" in res["test_fail"][1]
    assert "test_fake.py" in res["test_fail"][1]  # the traceback
    assert res["test_skip"] == ("SKIP", "not on unix")
    assert res["test_exit"][0] == "CRASH"
    assert "[exit status 7]" in res["test_exit"][1]
    assert res["test_zz_after_exit"][0] == "PASS"  # rerun alone after the crash
    assert res["test_alloc_helper"][0] == "PASS"


def test_exit_status(tmp_path: Path) -> None:
    extra = fake(tmp_path)
    assert h.run_mpy(["test_fake", "test_pass", "test_skip"], extra_path=extra)[0] == 0
    assert h.run_mpy(["test_fake", "test_fail"], extra_path=extra)[0] == 1
    status, out = h.run_mpy(["test_fake", "test_nope"], extra_path=extra)
    assert status == 1 and "FAIL test_nope" in out


def test_import_error(tmp_path: Path) -> None:
    extra = fake(tmp_path, "import no_such_module\n", "test_broken")
    status, out = h.run_mpy(["--list", "test_broken"], extra_path=extra)
    assert status == 2 and out.startswith("ERROR test_broken")
    assert "no_such_module" in out


def test_timeout(tmp_path: Path) -> None:
    extra = fake(tmp_path, "def test_hang():\n    while True:\n        pass\n", "test_hang")
    status, out = h.run_mpy(["test_hang"], timeout=1, extra_path=extra)
    assert status is None and "timed out" in out
