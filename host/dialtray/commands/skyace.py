"""`dialtray skyace hero new|check FILE`: make and check the owner's Sky Ace heroes (argument
parsing only; the rules are ``dialtray.rules.skyace.creation``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dialtray.commands._ownfile import (
    files_command,
    ident_of,
    new_or_check,
    readable,
    write_new,
)


def register(sub: Any) -> None:
    what = files_command(
        sub, "skyace", "make and check your own Sky Ace heroes",
        "Making your own hero is the heart of Sky Ace. 'hero new' writes a starting hero "
        "(advanced game: every attribute at Level 1, one special ability) to fill in; "
        "'hero check' names each rule a hero file breaks: SA-M07 a power and frequency "
        "per attack type, SA-A03 the frequencies E O R A once each, SA-M46 levels start at "
        "1, SA-M48 floor(sum of the levels / 4) special abilities. A file holds one hero "
        "or {\"heroes\": [...]}. A game uses it with the log header 'Hero-file: FILE'.",
        ["dialtray skyace hero new my-heroes/nightjar.json --name Nightjar",
         "dialtray skyace hero check my-heroes/nightjar.json"])
    hero = new_or_check(what, "hero", "a hero (or villain) file", "the hero's name")
    hero.set_defaults(func=run_hero)


def run_hero(args: argparse.Namespace) -> int:
    from dialtray.rules.skyace.creation import check_file, new_hero, read_documents, spare_abilities

    path: Path = args.file
    if args.action == "new":
        ident = ident_of(path)
        write_new(path, new_hero(ident, args.name or ident.title()))
        print(f"{path}: a new hero '{ident}'; name the powers and choose the frequencies, "
              f"then `dialtray skyace hero check {path}`")
        return 0
    readable(path)
    found = check_file(path)
    for f in found:
        print(f"{path}: {f.text()}")
    if found:
        return 1
    for doc in read_documents(path):
        spare = spare_abilities(doc)
        more = f"; may choose {spare} more special abilit{'y' if spare == 1 else 'ies'} " \
               "(SA-M48)" if spare else ""
        print(f"{path}: hero {doc['id']}: good{more}")
    return 0
