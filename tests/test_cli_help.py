"""Every `dialtray … --help`, sub-commands' too, ends with an example line to copy, and its
example lines are whole (a command continued with a backslash keeps it). Before: `judge vp`,
`hardware`, `fasa sheet`… had none of their own, and two examples lost their backslash, run
together with a gap in the middle."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from dialtray import cli

BIN = Path(sys.executable).parent
# commands whose parent lists no example that runs them: said here, not hidden
NO_EXAMPLE_YET: set[str] = set()


def every_parser(p: argparse.ArgumentParser, path: tuple[str, ...] = ()
                 ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield " ".join(path), p
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from every_parser(sub, (*path, name))


def test_every_help_has_an_example_and_whole_example_lines() -> None:
    missing, broken = [], []
    for path, p in every_parser(cli.build_parser()):
        text = p.format_help()
        if "example" not in text.lower() and path not in NO_EXAMPLE_YET:
            missing.append(path)
        broken += [ln for ln in text.splitlines()
                   if ln.strip().startswith("dialtray") and re.search(r"\S {4,}--\w", ln)]
    assert not missing, f"--help with no example: {missing}"
    assert not broken, f"example lines run together: {broken}"


def test_a_sub_commands_help_shows_its_example_as_the_program_prints_it() -> None:
    r = subprocess.run([str(BIN / "dialtray"), "judge", "vp", "--help"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "examples:\n  dialtray judge vp 3 P2 -5 --why 'late' --token TOKEN" in r.stdout
