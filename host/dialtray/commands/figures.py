"""`dialtray figures`: what a game log can use — figures (and Aces maps and scenarios), each
marked *sample* (invented or partly invented values, as every shipped file is) or *captured*
(values read off a real figure), and where it comes from (built-in, or a custom catalogue that
adds to or overrides it)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

from dialtray.rules.aces.catalogue import BUILTIN, AcesCatalogue
from dialtray.rules.aces.catalogue import catalogue_for as aces_catalogue
from dialtray.rules.aces.maps import MapError, load_map
from dialtray.rules.aces.scenarios import load_scenario
from dialtray.rules.airaction.catalogue import DATA_DIR as AA_DATA_DIR
from dialtray.rules.airaction.catalogue import Catalogue, builtin
from dialtray.rules.core.errors import CatalogueError

GAMES = ("airaction", "aces")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "figures",
        help="list the figures (and Aces maps/scenarios) a game log can use",
        description=textwrap.fill(
            "Lists the figures each game can use, marked 'sample' (values invented or partly "
            "invented: every shipped file is one) or 'captured' (values read off a real "
            "figure), and where each comes from: 'built-in' or the custom catalogue given "
            "with --catalogue, which adds to or overrides the built-in one exactly as a log's "
            "'Catalogue: DIR' header line does. A bad file in the catalogue is reported as "
            "FILE: figure ID: field F: what is wrong (exit status 2).",
            width=78,
        ),
        epilog=(
            "examples:\n"
            "  dialtray figures                       everything built in, both games\n"
            "  dialtray figures --game aces           Aces figures, maps and scenarios\n"
            "  dialtray figures --game airaction --catalogue my-planes\n"
            "                                         built-in planes plus my-planes/figures/*.json"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", choices=GAMES, help="only this game (default: both)")
    p.add_argument(
        "--catalogue",
        metavar="DIR",
        type=Path,
        help="a custom catalogue directory laid over the built-in data (needs --game)",
    )
    p.set_defaults(func=run)


def _status(sample: bool) -> str:
    return "sample" if sample else "captured"


def _aa_origin(file: str, custom: Path | None) -> str:
    if not file or Path(file).resolve().is_relative_to(AA_DATA_DIR):
        return BUILTIN
    return str(custom) if custom is not None else file


def _print_airaction(cat: Catalogue, custom: Path | None) -> None:
    print("Crimson Skies: Air Action (Game: airaction)")
    print(f"  planes ({len(cat.figures)}):")
    for fid, f in sorted(cat.figures.items()):
        ace = f", Ace {f.ace}" if f.ace else ""
        print(
            f"    {fid:<28} {_status(f.sample):<9} {_aa_origin(f.file, custom):<10} "
            f"{f.pilot} ({f.plane}{ace})"
        )
    print(f"  Ace figures as pilots ({len(cat.aces)}):")
    for aid, a in sorted(cat.aces.items()):
        print(
            f"    {aid:<28} {_status(a.sample):<9} {_aa_origin(a.file, custom):<10} "
            f"{a.name}, {a.points} points"
        )
    colours = "sample colours" if cat.colours_sample else "captured colours"
    cards = "approximate" if cat.cards_approximate else "measured"
    print(f"  skills & equipment: {len(cat.colours)} {colours}; navigation cards: {cards}")


def _print_aces(data: AcesCatalogue) -> None:
    print("Crimson Skies: Aces (Game: aces)")
    print(f"  figures ({len(data.figures)}):")
    for fid, f in sorted(data.figures.items()):
        origin = data.origin.get(fid, BUILTIN)
        print(
            f"    {fid:<28} {_status(f.sample):<9} {origin:<10} "
            f"{f.name} ({f.kind}, {f.points} points)"
        )
    print(f"  maps ({len(data.maps)}):")
    for name, path in sorted(data.maps.items()):
        m = load_map(path)
        origin = data.origin.get(f"map:{name}", BUILTIN)
        print(f"    {name:<28} {_status(m.sample):<9} {origin:<10} {m.name}, {m.width}x{m.height}")
    print(f"  scenarios ({len(data.scenarios)}):")
    for sid in sorted(data.scenarios):
        sc = load_scenario(sid, data)
        origin = data.origin.get(f"scenario:{sid}", BUILTIN)
        print(f"    {sid:<28} {_status(sc.sample):<9} {origin:<10} {sc.name} (map {sc.map})")
    talents = "sample" if data.talents.sample else "captured"
    print(f"  talents map: {talents}, {len(data.talents.abilities)} abilities")


def run(args: argparse.Namespace) -> int:
    games = [args.game] if args.game else list(GAMES)
    custom: Path | None = args.catalogue
    if custom is not None and args.game is None:
        print(
            "error: --catalogue needs --game (a catalogue directory belongs to one game: "
            "airaction reads figures/ aces/ skills_equipment.json navigation_cards.json, "
            "aces reads figures/ maps/ scenarios/ talents.json)",
            file=sys.stderr,
        )
        return 2
    try:
        for k, game in enumerate(games):
            if k:
                print()
            if game == "airaction":
                cat = builtin() if custom is None else builtin().overlay(custom)
                _print_airaction(cat, custom)
            else:
                _print_aces(aces_catalogue(custom))
    except (CatalogueError, MapError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # `dialtray figures | head -1`: the reader went away; cli.main ends quietly
    except OSError as exc:
        print(f"error: {exc.filename or custom}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
