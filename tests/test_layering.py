"""The layout rule, checked from the source: ``commands/`` parses arguments and calls the packages
that own the work, never the other way round. A front end (``ui/``, ``hub/``) or the table
(``table/``) — or any package below them — that imported a command module would tie the game
in progress to the CLI's argument parsing (the error type, the port, the virtual tray, the
store's place each have their own home: ``dialtray.errors``, ``link.port``,
``virtual.factory``, ``table.stored``).

An AST scan of every module, so it sees imports inside functions too (the front ends import
lazily) and costs no import of the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "host" / "dialtray"
FRONT_ENDS_AND_TABLE = ("ui", "hub", "table")  # the rule's reason: never a command's import
ABOVE = ("commands", "cli.py")  # the CLI: the only code that may import a command module


def imported_modules(tree: ast.AST, module: str) -> list[tuple[int, str]]:
    """Every module ``tree`` imports, absolute (``module``: the dotted name of the file, for
    relative imports), with the line of the import."""
    found: list[tuple[int, str]] = []
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def below_commands(root: Path) -> tuple[str, ...]:
    """Every subpackage and top-level module of the package but the CLI's own."""
    return tuple(sorted(p.name for p in root.iterdir()
                        if p.name not in ABOVE and not p.name.startswith((".", "__pycache__"))
                        and (p.is_dir() or p.suffix == ".py")))


def commands_imports(root: Path, subpackages: tuple[str, ...]) -> list[str]:
    """``file:line: module`` for each import of ``dialtray.commands`` in ``subpackages`` (each
    a directory or a module of ``root``)."""
    bad: dict[tuple[str, int], str] = {}  # one line each: the shortest name that is a command
    for sub in subpackages:
        top = root / sub
        for path in sorted(top.rglob("*.py") if top.is_dir() else [top]):
            rel = path.relative_to(root.parent).as_posix()
            module = ".".join(Path(rel).with_suffix("").parts)
            text = path.read_text(encoding="utf-8")
            if "commands" not in text:  # no import of it can be written without the word
                continue
            tree = ast.parse(text, filename=str(path))
            for line, name in imported_modules(tree, module):
                if name == "dialtray.commands" or name.startswith("dialtray.commands."):
                    known = bad.get((rel, line))
                    bad[(rel, line)] = name if known is None or len(name) < len(known) else known
    return [f"{rel}:{line}: {name}" for (rel, line), name in sorted(bad.items())]


def test_nothing_below_the_cli_imports_a_command() -> None:
    """ui/, hub/, table/ (the rule's reason) and every other package but the CLI's own."""
    below = below_commands(PACKAGE)
    assert set(FRONT_ENDS_AND_TABLE) <= set(below) and "errors.py" in below, below
    bad = commands_imports(PACKAGE, below)
    assert not bad, "import dialtray.commands from below it:\n" + "\n".join(bad)


@pytest.mark.parametrize("source", [
    "from dialtray.commands._common import CommandError\n",
    "import os\n\n\ndef run():\n    from dialtray.commands import _store\n",
    "import dialtray.commands.play\n",
    "from dialtray import commands\n",
    "from ...commands import _common\n",
])
def test_the_scan_sees_every_form_of_import(tmp_path: Path, source: str) -> None:
    """The check can fail: each way of writing the import is found (relative ones too, and
    inside a function), at its line."""
    root = tmp_path / "dialtray"
    (root / "ui" / "terminal").mkdir(parents=True)
    (root / "ui" / "terminal" / "front.py").write_text(source, encoding="utf-8")
    line = source[:source.index("commands")].count("\n") + 1
    bad = commands_imports(root, ("ui",))
    assert bad and all(b.startswith(f"dialtray/ui/terminal/front.py:{line}: dialtray.commands")
                       for b in bad), bad


@pytest.mark.parametrize("source", [
    "from dialtray.commandsx import y\n",
    "from dialtray.table.stored import commands\n",
    "from ..link.commands import SetDial\n",
])
def test_the_scan_names_only_the_commands_package(tmp_path: Path, source: str) -> None:
    root = tmp_path / "dialtray"
    (root / "ui" / "terminal").mkdir(parents=True)
    (root / "ui" / "terminal" / "front.py").write_text(source, encoding="utf-8")
    assert commands_imports(root, ("ui",)) == []
