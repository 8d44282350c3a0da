"""The rules inventory's ids (AA-M01…), and which of them a test names.

An id counts as tested when a test function (``tests/**/test_*.py``) names it in its name
(``test_aa_m20_...``) or its docstring (``AA-M20``). Ranges such as ``AA-M23..M26`` do not count:
each id must be written out. Ambiguity ids (``-Ann``) count as decided when they appear in the
decisions file (docs/rules-decisions.md). ``dialtray coverage`` (``commands.coverage``) prints
what :func:`compute` finds.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

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
