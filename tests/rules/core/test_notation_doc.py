"""docs/notation.md is the contract for people writing logs by hand (issue 10): its examples
replay, every action it lists parses in its game, and the header keys it documents are exactly
the keys each game kind reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dialtray.rules.aces.actions import parse_action as aces_action
from dialtray.rules.aces.notation import HEADER_KEYS as ACES_KEYS
from dialtray.rules.airaction.actions import parse_action as aa_action
from dialtray.rules.airaction.notation import HEADER_KEYS as AA_KEYS
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log

DOC = (Path(__file__).resolve().parents[3] / "docs" / "notation.md").read_text()


def section(title: str) -> str:
    """The text of a '## title' section, up to the next '## '."""
    start = DOC.index(f"## {title}")
    end = DOC.find("\n## ", start + 3)
    return DOC[start : end if end > 0 else None]


def table_first_column(text: str, heading: str) -> list[str]:
    """The first cells of the table that follows ``heading`` inside ``text``."""
    rest = text[text.index(heading) :]
    rows = []
    for line in rest.splitlines()[1:]:
        if line.startswith("|") and not line.startswith("|---"):
            rows.append(line.split(" | ")[0].lstrip("| ").strip())
        elif rows and not line.startswith("|"):
            break
    return rows[1:]  # the header row


def spans(cell: str) -> list[str]:
    """Each code span of a cell as an action text: options in [...] dropped, the first of
    a\\|b alternatives kept."""
    out = []
    for span in re.findall(r"`([^`]+)`", cell):
        span = re.sub(r"\s*\[[^\]]*\]", "", span)
        span = re.sub(r"(\w+)(\\\|[\w-]+)+", r"\1", span)
        out.append(span.strip())
    return out


@pytest.mark.parametrize(
    "title,parse",
    [
        ("Crimson Skies: Air Action (`Game: airaction`)", aa_action),
        ("Crimson Skies: Aces (`Game: aces`)", aces_action),
    ],
)
def test_every_documented_action_parses(title: str, parse: object) -> None:
    cells = table_first_column(section(title), "### Actions")
    texts = [t for cell in cells for t in spans(cell)]
    assert len(texts) >= 15
    for text in texts:
        assert parse(text).text().split()[0] == text.split()[0], text  # type: ignore[operator]


@pytest.mark.parametrize(
    "title,keys",
    [
        ("Crimson Skies: Air Action (`Game: airaction`)", AA_KEYS),
        ("Crimson Skies: Aces (`Game: aces`)", ACES_KEYS),
    ],
)
def test_documented_header_keys_are_the_keys_read(title: str, keys: tuple[str, ...]) -> None:
    cells = table_first_column(section(title), "### Header")
    documented = {c.strip("`").rstrip(":") for c in cells}
    assert documented == set(keys)


def test_aces_example_replays() -> None:
    block = section("Crimson Skies: Aces (`Game: aces`)").split("### Example (Aces)", 1)[1]
    text = block.split("```", 2)[1].strip() + "\n"
    result = replay_log(parse_log(text, "example.log"))
    report = result.game.report()
    assert result.actions == 6
    assert re.search(r"charlie\s+\S+\s+click 1/", report)
    assert re.search(r"genghis\s+\S+\s+click 1/", report)


def test_every_action_of_the_dice_tables_is_an_action() -> None:
    """The dice tables name lines by their action word; each word is one of the game's."""
    aa = table_first_column(section("Crimson Skies: Air Action (`Game: airaction`)"), "#### Air")
    aces = table_first_column(section("Crimson Skies: Aces (`Game: aces`)"), "#### Aces dice")
    assert aa and aces
    words = {"any"}  # 'any line that ends the game'
    aa_words = {s.split()[0] for c in aa for s in spans(c) if s[0].isalpha()} - words
    aces_words = {s.split()[0] for c in aces for s in spans(c) if s[0].isalpha()} - words
    assert aa_words <= {
        "first-player",
        "initiative",
        "throttle",
        "plan",
        "obstacle",
        "overlaps-done",
        "collision-fate",
        "no-collision-fate",
        "feat",
        "shoot",
        "bail-out",
        "dispute",
    }
    assert aces_words <= {"shoot", "close", "capture", "breakaway", "escape"}
