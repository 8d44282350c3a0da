"""FASA logs (docs/notation.md, "FASA"): the header and the replay game kind.

    Game: fasa
    Map: sample-town               # data/fasa/maps (SAMPLE sheets)
    Side: P1 A1=sample-hawk A2=sample-pusher
    Side: P2 B1=sample-brute B2=sample-gunship
    Turn-limit: 12
    Plots: open                    # open (plot A1 3L2F) | sealed (seal/reveal, FS-M33)
    Quick-draw: whole              # whole | fractional (FS-M19, optional rule)
    Collisions: destroy            # destroy (FS-M57) | damage (FS-M58, optional rule)
    Start-speed: 2
    Speeds: A1=3 B2=4              # FS-M07: a plane's own start speed (the others: Start-speed)
    Tables: /home/me/crimson-box   # the owner's tables, sheets and maps (rules/fasa/tables.py)
    Rescue: A1=memento B1=cargo    # FS table 9: what a pilot saves at a combat bailout
    Home-field: P2=field           # FS table 10: P2 lands at home in a field (+2), not a runway
    File-sha256: hit_location.json 9f2c...  # each of the owner's files the game used, under
                                   # Tables: (core/filehash.py): replay refuses a changed one
    ---
    plot A1 3SA
    plot B1 2L2A | d10: 7          # every die a d10: faces after the d10: marker
"""

from __future__ import annotations

import weakref
from pathlib import Path

from dialtray.rules.core import filehash
from dialtray.rules.core.dice import DiceSource, RecordingDice
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.core.notation import GameLog, format_action_line, format_log
from dialtray.rules.fasa.actions import FasaAction, parse_action
from dialtray.rules.fasa.game import SEATS, FasaGame, start_events
from dialtray.rules.fasa.sheets import sheet
from dialtray.rules.fasa.tables import active, load_tables, using

KIND = "fasa"  # the log's ``Game:`` line and the store's game kind
KEYS = ("Map", "Side", "Turn-limit", "Plots", "Quick-draw", "Collisions", "Start-speed", "Speeds",
        "Tables", "Rescue", "Home-field", filehash.KEY)
MAX_PAIRS = 3  # FS-M08: "more pairs are allowed"; three a side fit every sample map
DEFAULT_SIDES = (("P1", "A1", "sample-hawk"), ("P1", "A2", "sample-pusher"),
                 ("P2", "B1", "sample-brute"), ("P2", "B2", "sample-gunship"))


class FasaKind:
    name = KIND
    title = "Crimson Skies (FASA 1998 board game)"

    def new_game(self, log: GameLog, dice: DiceSource) -> FasaGame:
        log.check_keys(KEYS)
        map_name = log.one("Map") or "sample-blank"
        source = filehash.locate(log, log.one("Tables") or "") if log.one("Tables") else ""
        if log.values(filehash.KEY) and not source:
            raise log.error(log.line_of(filehash.KEY), f"{filehash.KEY}: only with Tables: (the "
                            "owner's files are named relative to it)")
        filehash.check_files(log, source or None)  # before reading: a file may be gone
        try:
            tables = load_tables(source or None)
        except CatalogueError as exc:
            raise log.error(log.line_of("Tables"), f"Tables: {exc}") from None
        with using(tables):
            return self._new_game(log, dice, map_name, source)

    def _new_game(self, log: GameLog, dice: DiceSource, map_name: str,
                  source: str) -> FasaGame:
        try:
            active().map(map_name)
        except CatalogueError as exc:
            raise log.error(log.line_of("Map"), f"Map: {exc.message}") from None
        planes: list[tuple[str, str, str]] = []
        for h in log.values("Side"):
            seat, *rest = h.value.split()
            if seat not in SEATS or not 1 <= len(rest) <= 2 * MAX_PAIRS:
                raise log.error(h.line, "Side: SEAT PLANE=SHEET [PLANE=SHEET ...] with SEAT P1 "
                                f"or P2 and up to {MAX_PAIRS} pairs (FS-M08: pilot and wingman "
                                "pairs, in pair order)")
            for tok in rest:
                pid, eq, sid = tok.partition("=")
                if not eq or not pid.isalnum() or pid in {p for _, p, _ in planes}:
                    raise log.error(h.line, f"Side: {tok!r} is not a new PLANE=SHEET")
                try:
                    sheet(sid)
                except CatalogueError as exc:
                    raise log.error(h.line, f"Side: {exc}") from None
                planes.append((seat, pid.upper(), sid))
        if not planes:
            planes = list(DEFAULT_SIDES)
        if {s for s, _, _ in planes} != set(SEATS):
            raise log.error(log.line_of("Side"), "Side: both P1 and P2 need planes")
        limit = log.integer("Turn-limit", 12, 1, 200)
        speed = log.integer("Start-speed", 2, 0, 5)
        sealed = log.choice("Plots", ("open", "sealed"), "open") == "sealed"
        frac = log.choice("Quick-draw", ("whole", "fractional"), "whole") == "fractional"
        dmg = log.choice("Collisions", ("destroy", "damage"), "destroy") == "damage"
        speeds: dict[str, int] = {}
        for tok in (log.one("Speeds") or "").split():
            pid, eq, v = tok.partition("=")
            if not eq or not v.isdigit() or pid.upper() not in {p for _, p, _ in planes}:
                raise log.error(log.line_of("Speeds"), f"Speeds: {tok!r} is not PLANE=SPEED "
                                "for a plane of the Side lines")
            speeds[pid.upper()] = int(v)
        rescue: dict[str, str] = {}
        for tok in (log.one("Rescue") or "").split():  # FS table 9 / FS-A22
            pid, eq, what = tok.partition("=")
            if not eq or what not in ("memento", "cargo") \
                    or pid.upper() not in {p for _, p, _ in planes}:
                raise log.error(log.line_of("Rescue"), f"Rescue: {tok!r} is not PLANE=memento "
                                "or PLANE=cargo for a plane of the Side lines (FS-M65)")
            rescue[pid.upper()] = what
        fields: list[str] = []
        for tok in (log.one("Home-field") or "").split():  # FS table 10 (D-FS-40)
            seat, eq, what = tok.partition("=")
            if not eq or seat not in SEATS or what not in ("runway", "field"):
                raise log.error(log.line_of("Home-field"), f"Home-field: {tok!r} is not "
                                "SEAT=runway or SEAT=field (FS-M66)")
            if what == "field":
                fields.append(seat)
        try:
            setup = start_events(map_name, planes, limit, sealed, frac, dmg, speed, source, speeds,
                                 rescue, fields)
        except ValueError as exc:
            raise log.error(log.line_of("Speeds"), f"Speeds: {exc}") from None
        return FasaGame(dice, setup)


def header_of(g: FasaGame) -> list[tuple[str, str]]:
    st = g.state
    out = [("Map", st.map)]
    for seat in st.seats:
        body = " ".join(f"{p.id}={p.sheet}" for p in st.planes.values() if p.seat == seat)
        out.append(("Side", f"{seat} {body}"))
    out += [("Turn-limit", str(st.turn_limit)), ("Plots", "sealed" if st.sealed else "open"),
            ("Quick-draw", "fractional" if st.fractional_qd else "whole"),
            ("Collisions", "damage" if st.collision_damage else "destroy"),
            ("Start-speed", str(st.start_speed))]
    own = {p.id: p.start for p in st.planes.values()
           if p.start != min(st.start_speed, p.sheet_data.max_speed)}
    if own:
        out.append(("Speeds", " ".join(f"{k}={v}" for k, v in sorted(own.items()))))
    if g.tables.source:
        out.append(("Tables", g.tables.source))
        out += own_file_lines(g)
    if st.rescue:
        out.append(("Rescue", " ".join(f"{k}={v}" for k, v in sorted(st.rescue.items()))))
    if st.fields:
        out.append(("Home-field", " ".join(f"{s}=field" for s in st.fields)))
    return out


_HASHED: weakref.WeakKeyDictionary[FasaGame, list[tuple[str, str]]] = \
    weakref.WeakKeyDictionary()


def own_file_lines(g: FasaGame) -> list[tuple[str, str]]:
    """``File-sha256`` lines for every file of the owner's tables directory this game uses:
    its own tables (the others are the shipped samples), the planes' sheets and the map it
    holds. Hashed once per game (the first header written: the game's stored setup), so a
    file edited mid-game does not change what the log says the game was played with."""
    got = _HASHED.get(g)
    if got is None:
        root = Path(g.tables.source)
        files = [p for p in g.tables.files.values() if Path(p).parent == root]
        sheets = sorted({p.sheet for p in g.state.planes.values()})
        files += [f for f in (root / "sheets" / f"{s}.json" for s in sheets) if f.is_file()]
        files += [f for f in [root / "maps" / f"{g.state.map}.json"] if f.is_file()]
        got = filehash.hash_lines(files, root)
        _HASHED[g] = got
    return list(got)


class LogWriter:
    """Plays a game and writes its log, each line with the d10 faces it rolled."""

    def __init__(self, game: FasaGame) -> None:
        if not isinstance(game.dice, RecordingDice):
            game.dice = RecordingDice(game.dice)
        self.game = game
        self.lines: list[str] = []

    def apply(self, action: FasaAction | str, comments: bool = False) -> None:
        a = parse_action(action) if isinstance(action, str) else action
        rec = self.game.dice
        assert isinstance(rec, RecordingDice)
        rec.take_sided()
        events = self.game.apply(a)
        rolls = rec.take_sided()
        faces = [f for _, fs, _ in rolls for f in fs]
        sides = [n for _, fs, n in rolls for _ in fs]
        reports = [e.text() for e in events] if comments else []
        self.lines.append(format_action_line(a.text(), faces, reports, sides))

    def text(self) -> str:
        return format_log(KIND, header_of(self.game), self.lines)
