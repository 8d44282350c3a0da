"""docs/notation.md's FASA section is the contract for hand-written FASA logs: its example
replays, every action it lists parses, its header keys are the keys the game kind reads."""

from __future__ import annotations

from pathlib import Path

from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa.actions import parse_action
from dialtray.rules.fasa.notation import KEYS

DOC = (Path(__file__).resolve().parents[3] / "docs" / "notation.md").read_text()
START = DOC.index("## Crimson Skies, FASA 1998")
SECTION = DOC[START:DOC.index("\n## ", START + 3)]


def _first_cells(heading: str) -> list[str]:
    rows: list[str] = []
    for line in SECTION[SECTION.index(heading):].splitlines()[1:]:
        if line.startswith("|") and not line.startswith("|---"):
            rows.append(line.split(" | ")[0].lstrip("| ").strip())
        elif rows and not line.startswith("|"):
            break
    return rows[1:]


def test_fasa_example_replays() -> None:
    text = SECTION.split("### Example (FASA)", 1)[1].split("```")[1]
    result = replay_log(parse_log(text, "example.log"))
    assert result.actions == 9 and result.game.report().startswith("FASA")


def test_every_documented_fasa_action_parses() -> None:
    for cell in _first_cells("### Actions"):
        for text in cell.strip("`").split("` / `"):
            assert parse_action(text.replace("<64 hex digits>", "0" * 64)).text() == text.replace(
                "<64 hex digits>", "0" * 64)


def test_documented_fasa_header_keys_are_the_keys_read() -> None:
    assert [c.strip("`").rstrip(":") for c in _first_cells("### Header")] == list(KEYS)
