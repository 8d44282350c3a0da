"""tests/mpy/ holds MicroPython test modules; CPython must never import them.

A normal pytest run does not descend into this directory (collect_ignore_glob): the tests run
through tests/test_firmware_mpy.py. Naming a file here explicitly
(``pytest tests/mpy/test_dice.py``, ``pytest tests/mpy/test_dice.py::test_clear``) runs its
tests in MicroPython too, each in its own micropython process, instead of importing the module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

collect_ignore_glob = ["*.py"]


def _harness() -> ModuleType:
    tests = str(Path(__file__).resolve().parent.parent)
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import test_firmware_mpy

    return test_firmware_mpy


class MpyFailure(Exception):
    pass


class MpyItem(pytest.Item):
    def runtest(self) -> None:
        h = _harness()
        if h.MICROPYTHON is None:
            pytest.skip("no micropython interpreter")
        verdict, output = h.run_alone(self.path.stem, self.name)
        if verdict == "SKIP":
            pytest.skip(output.strip().splitlines()[-1] if output.strip() else "skipped")
        if verdict != "PASS":
            raise MpyFailure(f"MicroPython test {self.path.stem}::{self.name} {verdict}\n{output}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, MpyFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.path.stem}::{self.name} (MicroPython)"


class MpyModule(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        h = _harness()
        if h.MICROPYTHON is None:
            return
        status, out = h.run_mpy(["--list", self.path.stem])
        if status != 0:
            raise MpyFailure(f"{self.path.name} does not import in MicroPython:\n{out}")
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == self.path.stem:
                yield MpyItem.from_parent(self, name=parts[1])


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> Any:
    if module_path.name.startswith("test_") and module_path.parent == Path(__file__).parent:
        return MpyModule.from_parent(parent, path=module_path)
    return None
