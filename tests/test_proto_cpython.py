"""Runs tests/mpy/test_proto.py under CPython; tests/test_firmware_mpy.py runs the same file under
MicroPython. One codec, proven on both interpreters that use it."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

_PATH = Path(__file__).parent / "mpy" / "test_proto.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mpy_test_proto", _PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MODULE = _load()
_TESTS: list[tuple[str, Callable[[], None]]] = [
    (name, getattr(_MODULE, name)) for name in sorted(dir(_MODULE)) if name.startswith("test_")
]


@pytest.mark.parametrize(("name", "fn"), _TESTS, ids=[n for n, _ in _TESTS])
def test_codec_under_cpython(name: str, fn: Callable[[], None]) -> None:
    fn()
