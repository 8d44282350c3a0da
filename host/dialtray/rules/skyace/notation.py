"""Sky Ace logs (docs/notation.md, "Sky Ace"): the header and the replay game kind.

    Game: skyace
    Mode: duel                 # duel (1.0 basic) | mission (2.0 advanced)
    Heroes: sky-ace-1.3 twilight
    Mission: mugging           # missions only
    Deck: dice                 # dice (drawn through the dice source) | physical (typed in)
    Turn-limit: 60
    Digit-corners: ul-lr       # SA-A04: ul-lr (default) | ur-ll, the corners showing the index
    Regenerative-cap: start    # SA-A11: start (the hero's starting LIFE) | 5 (the text)
    Preferred-card: discard    # SA-A10: discard | top (left face up, drawn next)
    Hero-file: my-heroes.json  # the owner's heroes (repeatable; ``dialtray skyace hero check``)
    Layout: P1=0,0 T1=4,6      # missions: the GM's start cell per pawn (SA-M37)
    File-sha256: my-heroes.json 41be...  # each Hero-file's content (core/filehash.py):
                               # replay refuses a file changed since the game
    ---
    deal | 3 1 6 ...
    layout 1,0
    move 1,1 QH
    attack P2 JS - | 2 4 4     # the faces of the redraws
"""

from __future__ import annotations

import weakref

from dialtray.rules.core import filehash
from dialtray.rules.core.dice import DiceSource, RecordingDice
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.core.notation import GameLog, format_action_line, format_log
from dialtray.rules.skyace.actions import SkyAceAction, parse_action
from dialtray.rules.skyace.creation import load_heroes
from dialtray.rules.skyace.game import DEFAULT_TURN_LIMIT, SkyAceGame
from dialtray.rules.skyace.heroes import Hero, catalogue
from dialtray.rules.skyace.mat import DIGIT_LAYOUTS

KEYS = ("Mode", "Heroes", "Mission", "Deck", "Turn-limit", "Digit-corners", "Regenerative-cap",
        "Preferred-card", "Hero-file", "Layout", filehash.KEY)
MAX_TURNS = 1000
MAX_HEROES = 12  # the tray shows 12 LIFE dice


class SkyAceKind:
    name = "skyace"
    title = "Sky Ace v0.8"

    def new_game(self, log: GameLog, dice: DiceSource) -> SkyAceGame:
        log.check_keys(KEYS)
        mode = log.choice("Mode", ("duel", "mission"), "duel")
        physical = log.choice("Deck", ("dice", "physical"), "dice") == "physical"
        limit = log.integer("Turn-limit", DEFAULT_TURN_LIMIT, 1, MAX_TURNS)
        opts = {"digits": log.choice("Digit-corners", DIGIT_LAYOUTS, DIGIT_LAYOUTS[0]),
                "regen_cap": log.choice("Regenerative-cap", ("start", "5"), "start"),
                "reveal": log.choice("Preferred-card", ("discard", "top"), "discard")}
        filehash.check_files(log)  # the owner's files as the game was played with them
        own: list[Hero] = []
        files: list[str] = []
        for line in log.values("Hero-file"):  # the owner's heroes (``creation``)
            path = filehash.locate(log, line.value)  # or beside the log, copied with it
            try:
                own += load_heroes(path)
            except CatalogueError as exc:
                raise log.error(line.line, f"Hero-file: {exc}") from None
            files.append(path)
        known = {*catalogue(), *(h.id for h in own)}
        heroes_text = log.one("Heroes")
        heroes = heroes_text.split() if heroes_text else None
        for h in heroes or ():
            if h not in known:
                raise log.error(log.line_of("Heroes"), f"Heroes: unknown hero {h!r} "
                                f"(known: {', '.join(sorted(known))})")
        if mode == "duel":
            if log.one("Layout") is not None:
                raise log.error(log.line_of("Layout"), "Layout: the GM lays out missions only "
                                "(SA-M37); a duel's first player lays the cards (SA-M17)")
            if log.one("Mission") is not None:
                raise log.error(log.line_of("Mission"), "Mission: only with Mode: mission")
            if heroes is not None and not 2 <= len(heroes) <= MAX_HEROES:
                raise log.error(log.line_of("Heroes"), f"Heroes: a duel has 2..{MAX_HEROES} "
                                "heroes (SA-A19)")
            return SkyAceGame.duel(dice, heroes or ("sky-ace-1.3", "twilight"), physical, limit,
                                   opts["digits"], opts["regen_cap"], opts["reveal"], own, files)
        name = log.one("Mission") or "mugging"
        try:
            layout = _layout(log)
            return SkyAceGame.mission(dice, name, heroes, physical, limit, opts["digits"],
                                      opts["regen_cap"], opts["reveal"], own, files, layout)
        except KeyError as exc:
            raise log.error(log.line_of("Mission"), f"Mission: {exc.args[0]}") from None
        except ValueError as exc:
            raise log.error(log.line_of("Layout"), f"Layout: {exc}") from None


def _layout(log: GameLog) -> list[tuple[str, tuple[int, int]]]:
    """``Layout: P1=0,0 P2=3,0 T1=0,5``: SA-M37, the GM's start cell for each pawn."""
    out: list[tuple[str, tuple[int, int]]] = []
    for tok in (log.one("Layout") or "").split():
        pid, eq, cell = tok.partition("=")
        x, comma, y = cell.partition(",")
        if not eq or not comma or not x.lstrip("-").isdigit() or not y.lstrip("-").isdigit():
            raise ValueError(f"{tok!r} is not PAWN=X,Y")
        out.append((pid.upper(), (int(x), int(y))))
    return out


_HASHED: weakref.WeakKeyDictionary[SkyAceGame, list[tuple[str, str]]] = \
    weakref.WeakKeyDictionary()


def header_of(g: SkyAceGame) -> list[tuple[str, str]]:
    st = g.state
    heroes = " ".join(p.hero for p in st.pawns.values() if p.seat != "GM")
    out = [("Mode", st.mode), ("Heroes", heroes)]
    if st.mission:
        out.append(("Mission", st.mission))
    out += [("Deck", "physical" if st.physical else "dice"), ("Turn-limit", str(st.turn_limit))]
    if st.digits != DIGIT_LAYOUTS[0]:
        out.append(("Digit-corners", st.digits))
    if st.regen_cap != "start":
        out.append(("Regenerative-cap", st.regen_cap))
    if st.reveal != "discard":
        out.append(("Preferred-card", st.reveal))
    out += [("Hero-file", f) for f in st.hero_files]
    if st.hero_files:
        got = _HASHED.get(g)
        if got is None:  # hashed once per game: its stored setup says what it was played with
            got = _HASHED[g] = filehash.hash_lines(dict.fromkeys(st.hero_files))
        out += got
    if st.layout:
        out.append(("Layout", " ".join(f"{k}={x},{y}" for k, (x, y) in st.layout.items())))
    return out


class LogWriter:
    """Plays a game and writes its log: wrap the game's dice (``SkyAceGame(..., LogWriter.dice
    (inner))``) or use ``LogWriter.start``; ``apply`` records each line with the faces it used."""

    def __init__(self, game: SkyAceGame) -> None:
        if not isinstance(game.dice, RecordingDice):
            game.dice = RecordingDice(game.dice)
        self.game = game
        self.lines: list[str] = []

    def apply(self, action: SkyAceAction | str, comments: bool = False) -> None:
        a = parse_action(action) if isinstance(action, str) else action
        rec = self.game.dice
        assert isinstance(rec, RecordingDice)
        rec.take()
        events = self.game.apply(a)
        faces = [f for _, fs in rec.take() for f in fs]
        reports = [e.text() for e in events] if comments else []
        self.lines.append(format_action_line(a.text(), faces, reports))

    def text(self) -> str:
        return format_log("skyace", header_of(self.game), self.lines)
