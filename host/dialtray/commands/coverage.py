"""`dialtray coverage`: which rules-inventory ids have no test (and no recorded decision).

An id counts as tested when a test function (``tests/**/test_*.py``) names it in its name
(``test_aa_m20_...``) or its docstring (``AA-M20``). Ranges such as ``AA-M23..M26`` do not count:
each id must be written out. Ambiguity ids (``-Ann``) count as decided when they appear in the
decisions file (docs/rules-decisions.md).
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
DEFAULT_INVENTORY = REPO.parent / "shared" / "rules-inventory.md"
ID_RE = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2})[-_]([MTA])(\d{2})(?!\d)", re.IGNORECASE)


def inventory_ids(text: str, prefix: str, kinds: str) -> list[str]:
    """Ids defined by the inventory: a list item or table row that starts with the id."""
    out: list[str] = []
    pat = re.compile(rf"^\s*[-*|]\s*\**({prefix})-([{kinds}])(\d{{2}})\b", re.MULTILINE)
    for m in pat.finditer(text):
        ident = f"{m.group(1)}-{m.group(2)}{m.group(3)}"
        if ident not in out:
            out.append(ident)
    return out


def ids_in(text: str) -> set[str]:
    return {f"{a.upper()}-{b.upper()}{c}" for a, b, c in ID_RE.findall(text)}


def tested_ids(test_files: Iterable[Path]) -> dict[str, list[str]]:
    """id -> test functions naming it (name or docstring)."""
    found: dict[str, list[str]] = {}
    for path in test_files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            ):
                text = node.name + " " + (ast.get_docstring(node) or "")
                for ident in ids_in(text):
                    found.setdefault(ident, []).append(f"{path.name}::{node.name}")
    return found


@dataclass
class Coverage:
    ids: list[str]
    tested: dict[str, list[str]]
    missing: list[str]
    undecided: list[str]


def compute(
    inventory: Path,
    tests: Path,
    prefix: str = "AA",
    kinds: str = "MT",
    decisions: Path | None = None,
) -> Coverage:
    text = inventory.read_text(encoding="utf-8")
    ids = inventory_ids(text, prefix, kinds)
    tested = tested_ids(sorted(tests.rglob("test_*.py")))
    missing = [i for i in ids if i not in tested]
    undecided: list[str] = []
    if decisions is not None:
        amb = inventory_ids(text, prefix, "A")
        dec = ids_in(decisions.read_text(encoding="utf-8")) if decisions.exists() else set()
        undecided = [i for i in amb if i not in dec]
    return Coverage(ids, {i: tested[i] for i in ids if i in tested}, missing, undecided)


def game_prefix(text: str) -> str:
    """Two letters, as the inventory's ids start (AA-M01): AA, AC."""
    if not re.fullmatch(r"[A-Za-z]{2}", text):
        raise argparse.ArgumentTypeError(f"a game prefix is two letters (AA, AC), got {text!r}")
    return text.upper()


def register(sub: Any) -> None:
    p = sub.add_parser(
        "coverage",
        help="list rules-inventory ids that no test names",
        description=(
            "Reads the rules inventory and lists every mechanic (-Mnn) and worked-example (-Tnn) "
            "id of a game that no test function names, and every ambiguity (-Ann) missing from "
            "the decisions file. Exit status 1 when anything is missing."
        ),
        epilog="example: dialtray coverage --prefix AA",
    )
    p.add_argument("inventory", nargs="?", default=str(DEFAULT_INVENTORY))
    p.add_argument("--prefix", default="AA", type=game_prefix,
                   help="game prefix: AA (Air Action), AC (Aces)")
    p.add_argument("--tests", default=str(REPO / "tests"))
    p.add_argument("--decisions", default=str(REPO / "docs" / "rules-decisions.md"))
    p.add_argument("-v", "--verbose", action="store_true", help="also list each tested id")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inv = Path(args.inventory)
    if not inv.exists():
        print(f"error: no inventory at {inv}")
        return 2
    cov = compute(inv, Path(args.tests), args.prefix.upper(), "MT", Path(args.decisions))
    if args.verbose:
        for i, where in cov.tested.items():
            print(f"{i}: {', '.join(where)}")
    print(
        f"{len(cov.ids) - len(cov.missing)} of {len(cov.ids)} {args.prefix.upper()} ids have a test"
    )
    if cov.missing:
        print("no test: " + " ".join(cov.missing))
    if cov.undecided:
        print("no decision recorded: " + " ".join(cov.undecided))
    return 1 if cov.missing or cov.undecided else 0
