"""`dialtray coverage`: which rules-inventory ids have no test (and no recorded decision).

An id counts as tested when a test function (``tests/**/test_*.py``) names it in its name
(``test_aa_m20_...``) or its docstring (``AA-M20``). Ranges such as ``AA-M23..M26`` do not count:
each id must be written out. Ambiguity ids (``-Ann``) count as decided when they appear in the
decisions file (docs/rules-decisions.md).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialtray.commands._common import CommandError

REPO = Path(__file__).resolve().parents[3]  # the clone, when dialtray runs from one
# The inventory's ids and titles, built from rules-inventory.md by scripts/build_inventory.py and
# shipped with the package: coverage works in a clone and in an installed copy alike.
PACKAGED_INVENTORY = Path(__file__).resolve().parents[1] / "data" / "rules_inventory.json"
DEFAULT_INVENTORY = PACKAGED_INVENTORY
ID_RE = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2})[-_]([MTA])(\d{2,3})(?!\d)", re.IGNORECASE)

# A list item or table row that starts with the id, bold or not: "- AA-M39 **Rear-arc bonus**:",
# "- **AC-T06: LOF diagram (caption)**", "| AA-M05 | ...".
ITEM = re.compile(
    r"^\s*[-*|]\s*(?P<bold>\*\*)?(?P<id>[A-Z]{2}-[MTA]\d{2,3})\b\**:?\s*(?P<rest>.*)$",
    re.MULTILINE,
)
BOLD = re.compile(r"\*\*(.+?)\*\*")
TITLE_WORDS = 10


@dataclass(frozen=True)
class Entry:
    id: str
    title: str


def _title(rest: str, bold: bool) -> str:
    """The heading: the bold words after the id, else the first words of the sentence."""
    rest = rest.strip().lstrip("|").strip()
    m = BOLD.match(rest)
    text = rest.split("**", 1)[0] if bold and not rest.startswith("**") else ""
    if not text.strip() and m:
        text = m.group(1)
    elif not text.strip():
        text = re.split(r"(?<=[a-z)])[.:]\s|\|", rest, maxsplit=1)[0]
        words = text.split()
        text = " ".join(words[:TITLE_WORDS]) + (" …" if len(words) > TITLE_WORDS else "")
    return " ".join(text.replace("**", "").replace("*", "").split()).rstrip(":.").strip()


def parse_inventory(text: str) -> list[Entry]:
    """Every id rules-inventory.md defines (a list item or table row starting with it), once."""
    out: list[Entry] = []
    seen: set[str] = set()
    for m in ITEM.finditer(text):
        ident = m.group("id")
        if ident not in seen:
            seen.add(ident)
            out.append(Entry(ident, _title(m.group("rest"), bool(m.group("bold")))))
    return out


def load_inventory(path: Path) -> list[Entry]:
    """The packaged JSON (or any rules-inventory.md given on the command line)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return [Entry(str(e["id"]), str(e["title"])) for e in json.loads(text)["ids"]]
    return parse_inventory(text)


def select(entries: Iterable[Entry], prefix: str, kinds: str) -> list[Entry]:
    return [e for e in entries if e.id[:2] == prefix and e.id[3] in kinds]


def inventory_ids(text: str, prefix: str, kinds: str) -> list[str]:
    """Ids of one game and kinds (M, T, A) defined by inventory text, in order."""
    return [e.id for e in select(parse_inventory(text), prefix, kinds)]


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
    entries = load_inventory(inventory)
    ids = [e.id for e in select(entries, prefix, kinds)]
    tested = tested_ids(sorted(tests.rglob("test_*.py")))
    missing = [i for i in ids if i not in tested]
    undecided: list[str] = []
    if decisions is not None:
        amb = [e.id for e in select(entries, prefix, "A")]
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
            "Lists every mechanic (-Mnn) and worked-example (-Tnn) id of a game that no test "
            "function names, and every ambiguity (-Ann) missing from the decisions file. The ids "
            "and titles ship with dialtray (built from rules-inventory.md by "
            "scripts/build_inventory.py); the tests are a dialtray clone's. Exit status 1 when "
            "anything is missing."
        ),
        epilog="examples:\n  dialtray coverage --prefix AA        in a clone\n"
               "  dialtray coverage --list --prefix AC  every Aces id and its title, anywhere\n"
               "  dialtray coverage --tests ~/dialtray/tests --decisions "
               "~/dialtray/docs/rules-decisions.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inventory", nargs="?", type=Path,
                   help="a rules-inventory.md to read instead of the shipped list")
    p.add_argument("--prefix", default="AA", type=game_prefix,
                   help="game prefix: AA (Air Action), AC (Aces)")
    p.add_argument("--tests", type=Path,
                   help="the tests folder to search (default: this clone's tests/)")
    p.add_argument("--decisions", type=Path,
                   help="the decisions file (default: this clone's docs/rules-decisions.md)")
    p.add_argument("--list", action="store_true",
                   help="list the game's ids with their titles; needs no tests")
    p.add_argument("-v", "--verbose", action="store_true", help="also list each tested id")
    p.set_defaults(func=run)


def _in_clone(relative: str) -> Path | None:
    path = REPO / relative
    return path if (REPO / "pyproject.toml").is_file() and path.exists() else None


def run(args: argparse.Namespace) -> int:
    inv: Path = args.inventory or PACKAGED_INVENTORY
    if not inv.is_file():
        raise CommandError(f"argument inventory: no such file {inv}", 2)
    try:
        entries = load_inventory(inv)
    except (OSError, UnicodeDecodeError, ValueError, KeyError) as e:
        raise CommandError(f"cannot read the inventory {inv}: {e}") from e
    prefix = args.prefix
    games = sorted({e.id[:2] for e in entries})
    if prefix not in games:
        raise CommandError(f"argument --prefix: no {prefix} ids in {inv.name} (it has "
                           f"{', '.join(games)})", 2)
    if args.list:
        for entry in select(entries, prefix, "MTA"):
            print(f"{entry.id}  {entry.title}")
        return 0
    tests = args.tests or _in_clone("tests")
    if tests is None or not tests.is_dir():
        where = f"no tests folder at {args.tests}" if args.tests else \
            "this dialtray is installed, not run from a clone: no tests to search"
        raise CommandError(f"{where}; give --tests DIR (a dialtray clone's tests/), or --list "
                           "for the ids alone", 2)
    decisions = args.decisions or _in_clone("docs/rules-decisions.md")
    cov = compute(inv, tests, prefix, "MT", decisions)
    if args.verbose:
        for i, found in cov.tested.items():
            print(f"{i}: {', '.join(found)}")
    print(f"{len(cov.ids) - len(cov.missing)} of {len(cov.ids)} {prefix} ids have a test")
    titles = {entry.id: entry.title for entry in entries}
    for i in cov.missing:
        print(f"no test: {i}  {titles.get(i, '')}")
    for i in cov.undecided:
        print(f"no decision recorded: {i}  {titles.get(i, '')}")
    if decisions is None:
        print("(no decisions file: ambiguities not checked; give --decisions)", file=sys.stderr)
    return 1 if cov.missing or cov.undecided else 0
