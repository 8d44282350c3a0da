"""`play`'s and `serve`'s options for the owner's own files (issue 34): ``--tables DIR --planes
A1=SHEET,B1=SHEET`` for FASA, ``--heroes FILE [FILE ...]`` for Sky Ace. Argument parsing and
refusals only; the loading and checking is ``dialtray.table.ownfiles``."""

from __future__ import annotations

import argparse
from pathlib import Path

from dialtray.commands._common import CommandError
from dialtray.table.ownfiles import OwnFileError, OwnFiles, load_fasa, load_skyace

EXAMPLES = """
your own files (checked first, named in the game's log with their SHA-256):
  dialtray play fasa --dice seeded --tables my-box --planes A1=condor,B1=my-box/sheets/brute.json
  dialtray play skyace --sim --heroes my-heroes/nightjar.json my-heroes/villains.json
"""
SERVE_EXAMPLES = """
your own files (checked first, named in the game's log with their SHA-256):
  dialtray serve --sim --game fasa --tables my-box --planes A1=condor,B1=my-box/sheets/brute.json
  dialtray serve --sim --game skyace --heroes my-heroes/nightjar.json my-heroes/villains.json
"""


def add_arguments(p: argparse.ArgumentParser, command: str = "play") -> None:
    """The options, in their own group of ``play --help`` (``serve --help``: ``command``)."""
    p.epilog = (p.epilog or "") + (SERVE_EXAMPLES if command == "serve" else EXAMPLES)
    games = "serve --game fasa, serve --game skyace" if command == "serve" else \
        "play fasa, play skyace"
    g = p.add_argument_group(f"your own files ({games})")
    g.add_argument("--tables", type=Path, metavar="DIR",
                   help="fasa: your tables directory (template.json, hit_location.json, "
                        "damage_templates.json, layouts.json, weapons.json, arcs.json, "
                        "scatter.json, sheets/, maps/; each file there replaces the shipped "
                        "sample; check it with `dialtray fasa tables check DIR`)")
    g.add_argument("--planes", metavar="A1=SHEET,B1=SHEET",
                   help="fasa: the record sheet each plane flies (A1, A2 ... for P1; B1, B2 "
                        "... for P2), by id or its file in DIR/sheets (default: the samples)")
    g.add_argument("--heroes", type=Path, nargs="+", metavar="FILE",
                   help="skyace: your hero and villain files; every hero in them duels, in "
                        "order (one alone meets Twilight); check one with `dialtray skyace "
                        "hero check FILE`")


def own_files(args: argparse.Namespace, command: str = "play") -> OwnFiles | None:
    """The owner's files for ``args.game`` (None: none given, the shipped samples); a bad
    option or file is a one-line ``CommandError``, exit 2. ``command``: play or serve (the
    words of the refusals; serve has no --map: FASA's sample mapsheet, or the owner's of that
    name)."""
    fasa = {"--tables": args.tables, "--planes": args.planes}
    given = [k for k, v in {**fasa, "--heroes": args.heroes}.items() if v]
    if not given:
        return None
    if getattr(args, "resume", None) is not None:
        raise CommandError(f"argument {given[0]}: not with --resume (the stored game names "
                           "the files it was played with)", 2)
    if getattr(args, "event", None) is not None:
        raise CommandError(f"argument {given[0]}: not with --event (the event's assignment "
                           "sets the game)", 2)
    wrong = [k for k in given if (k == "--heroes") != (args.game == "skyace")
             or (k != "--heroes" and args.game != "fasa")]
    if wrong:
        game = "skyace" if wrong[0] == "--heroes" else "fasa"
        how = f"serve --game {game}" if command == "serve" else f"play {game}"
        raise CommandError(f"argument {wrong[0]}: for `{how}` only", 2)
    try:
        if args.game == "fasa":
            from dialtray.table.games import FASA_MAP

            return load_fasa(args.tables, args.planes, getattr(args, "map", FASA_MAP),
                             args.turns)
        return load_skyace(args.heroes)
    except OwnFileError as exc:
        raise CommandError(str(exc), 2) from None
