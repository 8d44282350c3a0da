"""Small builders shared by the Aces tests."""

from __future__ import annotations

from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.maps import AcesMap, parse_map


def sq(name: str) -> Square:
    return Square.parse(name)


def grid_map(rows: list[str], name: str = "test", starts: tuple[str, ...] = ()) -> AcesMap:
    """A map from grid lines only (square rows and edge rows alternating)."""
    width = (max(len(r) for r in rows[::2]) + 1) // 2
    height = (len(rows) + 1) // 2
    head = [f"name: {name}", "sample: true", f"size: {width}x{height}"]
    head += [f"start: {s}" for s in starts]
    return parse_map("\n".join([*head, "grid:", *rows]) + "\n", f"<{name}>")


def open_map(width: int, height: int) -> AcesMap:
    row = " ".join("." * width)
    rows: list[str] = []
    for y in range(height):
        rows.append(row)
        if y < height - 1:
            rows.append("")
    return grid_map(rows, starts=("1 a1 a1", "2 b1 b1"))


# -- engine fixtures ---------------------------------------------------------------------------

from collections.abc import Mapping, Sequence  # noqa: E402
from dataclasses import replace  # noqa: E402

from dialtray.rules.aces.figures import Figure, default_catalogue  # noqa: E402
from dialtray.rules.aces.game import AcesGame  # noqa: E402
from dialtray.rules.aces.scenarios import TeamSpec, new_game  # noqa: E402
from dialtray.rules.core.dice import DiceSource, ManualDice  # noqa: E402

FIG = {
    "charlie": "sample-charlie-steele",
    "louis": "sample-louis-thibodeaux",
    "show-stopper": "sample-show-stopper",
    "genghis": "sample-genghis",
    "vigilante": "sample-vigilante",
    "sergeant": "sample-sergeant",
    "tail-gunner": "sample-tail-gunner",
    "soldier": "sample-soldier",
    "trusty-sidekick": "sample-trusty-sidekick",
    "ruffian": "sample-ruffian",
}


def catalogue_with(**changes: Mapping[str, object]) -> dict[str, Figure]:
    """The sample catalogue with some figures' fields replaced, e.g. charlie={"pistols": 2}."""
    cat = dict(default_catalogue())
    for short, fields in changes.items():
        fid = FIG[short.replace("_", "-")]
        cat[fid] = replace(cat[fid], **fields)  # type: ignore[arg-type]
    return cat


def make_game(
    team1: Mapping[str, str],
    team2: Mapping[str, str],
    rows: Sequence[str] | None = None,
    dice: DiceSource | None = None,
    catalogue: Mapping[str, Figure] | None = None,
    first: int = 0,
    **options: object,
) -> AcesGame:
    """A game on a small test map; ``teamN`` maps a character label (a key of FIG, optionally
    suffixed '-2') to its square. Both starting areas cover the whole map."""
    if rows is None:
        rows = []
        for y in range(10):
            rows.append(" ".join("." * 10))
            if y < 9:
                rows.append("")
    width = (max(len(r) for r in rows[::2]) + 1) // 2
    height = (len(rows) + 1) // 2
    last = Square(width - 1, height - 1).name()
    m = grid_map(list(rows), starts=(f"1 a1 {last}", f"2 a1 {last}"))

    def spec(name: str, team: Mapping[str, str], area: int) -> TeamSpec:
        figs = [f"{lab}={FIG[lab.rsplit('-', 1)[0] if lab not in FIG else lab]}" for lab in team]
        return TeamSpec(name, figs, area, dict(team))

    return new_game(
        m,
        [spec("P1", team1, 1), spec("P2", team2, 2)],
        dice or ManualDice(),
        catalogue,
        first_player=first,
        build_total=options.pop("build_total", 1000),  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )


def feed(game: AcesGame, *faces: int) -> None:
    """Queue die faces on a game built with ManualDice."""
    assert isinstance(game.dice, ManualDice)
    game.dice.feed(faces)


def texts(game: AcesGame) -> set[str]:
    return {a.text() for a in game.legal_actions()}
