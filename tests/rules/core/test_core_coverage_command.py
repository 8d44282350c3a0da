"""`dialtray coverage` on a small synthetic inventory."""

from __future__ import annotations

from pathlib import Path

from dialtray.cli import main
from dialtray.rules.inventory import compute, inventory_ids

INVENTORY = """
### Mechanics
- ZZ-M01 **One**: text mentioning ZZ-M09 in passing
- ZZ-M02 **Two**
- **ZZ-M03** bold
### Examples
- **ZZ-T01: example**
### Ambiguities
- **ZZ-A01: ...**
- **ZZ-A02: ...**
| ZZ-M04 | table row |
"""


def write(tmp: Path) -> tuple[Path, Path, Path]:
    inv = tmp / "inv.md"
    inv.write_text(INVENTORY)
    tests = tmp / "tests"
    tests.mkdir()
    (tests / "test_zz.py").write_text(
        'def test_zz_m01_one():\n    """ZZ-T01 too."""\n\n'
        'def helper_zz_m02():\n    """ZZ-M02 is not a test."""\n\n'
        'def test_range():\n    """ZZ-M03..M04 ranges do not count."""\n'
    )
    dec = tmp / "decisions.md"
    dec.write_text("- **ZZ-A01** decided\n")
    return inv, tests, dec


def test_inventory_ids_only_defining_lines() -> None:
    assert inventory_ids(INVENTORY, "ZZ", "MT") == [
        "ZZ-M01",
        "ZZ-M02",
        "ZZ-M03",
        "ZZ-T01",
        "ZZ-M04",
    ]


def test_compute_missing_and_undecided(tmp_path: Path) -> None:
    inv, tests, dec = write(tmp_path)
    cov = compute(inv, tests, "ZZ", "MT", dec)
    assert cov.missing == ["ZZ-M02", "ZZ-M04"]  # the range names only its first id in full
    assert set(cov.tested) == {"ZZ-M01", "ZZ-M03", "ZZ-T01"}
    assert cov.undecided == ["ZZ-A02"]


def test_command_exit_status(tmp_path: Path, capsys: object) -> None:
    inv, tests, dec = write(tmp_path)
    args = [str(inv), "--prefix", "ZZ", "--tests", str(tests), "--decisions", str(dec)]
    assert main(["coverage", *args]) == 1
    (tests / "test_more.py").write_text('def test_rest():\n    """ZZ-M02 ZZ-M03 ZZ-M04"""\n')
    dec.write_text("ZZ-A01 ZZ-A02\n")
    assert main(["coverage", *args]) == 0
