"""`dialtray play fasa` as its players meet it (issue 15: dialtray as the record-keeper and
referee of the FASA 1998 board game, the tray as the table's dice tower).

- two bots play a whole game on the virtual tray: every d10 is rolled by the firmware (the
  committed fair-dice session re-derives each face the log holds, in order), the log replays
  and writes back byte for byte, and ``--sheets`` leaves a valid SVG per plane showing the
  final marked boxes;
- hot-seat at a real terminal (pexpect): a person's plot is typed hidden (never echoed, never
  on screen before the reveal), an illegal plot is refused naming the rule with nothing
  sealed, the other player sees the first seal's digest before typing, the plots are revealed
  together and match the seals (FS-M33), ``quit`` writes a log that replays.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pexpect
import pytest
from dialtray import cli
from dialtray.link.fairdice import FairDice
from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.notation import format_log, read_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa.actions import seal_digest
from dialtray.rules.fasa.game import FasaGame
from dialtray.rules.fasa.notation import FasaKind, LogWriter, header_of

BIN = Path(sys.executable).parent
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def rewritten(path: Path) -> str:
    """The log as the engine writes it again from its own lines and faces: a fresh game fed
    each line's d10 faces, every action re-applied and formatted (LogWriter), under the same
    leading comments."""
    text = path.read_text(encoding="utf-8")
    log = read_log(path)
    dice = ManualDice()
    g = FasaKind().new_game(log, dice)
    w = LogWriter(g)
    for bl in log.body:
        dice.clear()
        if bl.faces:
            dice.feed(bl.faces, bl.sides)
        w.apply(bl.text)
        assert dice.remaining == 0, bl
    comment = "\n".join(line[2:] for line in text.splitlines() if line.startswith("# "))
    return format_log("fasa", header_of(g), w.lines, comment)


def log_faces(path: Path) -> list[tuple[int, int]]:
    """(face, sides) of every die in the log, in order."""
    return [(f, s) for bl in read_log(path).body if bl.faces
            for f, s in zip(bl.faces, bl.sides or (6,) * len(bl.faces), strict=True)]


def test_two_bots_play_on_the_virtual_tray_with_firmware_d10(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = []
    reveal = FairDice.reveal

    def spy(self: FairDice) -> object:  # the real reveal; the verdict kept for the test
        v = reveal(self)
        verdicts.append(v)
        return v

    monkeypatch.setattr(FairDice, "reveal", spy)
    log, sheets = tmp_path / "bots.log", tmp_path / "sheets"
    status = cli.main(["--data-dir", str(tmp_path / "data"), "play", "fasa", "--sim",
                       "--seats", "bot,bot", "--turns", "4", "--seed", "7", "--log", str(log),
                       "--sheets", str(sheets)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "sealed plots: sha256" in out and "game over" in out
    # Every face in the log is a d10 the firmware rolled, in the order it rolled them.
    (verdict,) = verdicts
    assert verdict.ok, str(verdict)
    rolled = [(f, r.sides) for r in verdict.rolls for f in r.faces]
    assert rolled and log_faces(log) == rolled
    assert {s for _, s in rolled} == {10}
    # The log replays (dialtray replay) and writes back byte for byte.
    assert cli.main(["replay", str(log)]) == 0
    replayed = replay_log(read_log(log)).game
    assert isinstance(replayed, FasaGame) and replayed.outcome() is not None
    assert rewritten(log) == log.read_text(encoding="utf-8")
    assert replayed.report() in capsys.readouterr().out
    # --sheets: one valid SVG per plane, as the game ended.
    for pid, p in replayed.state.planes.items():
        svg = (sheets / f"{pid}.svg").read_text(encoding="utf-8")
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg"), pid
        assert svg.count('class="box marked"') == len(p.marked), pid
    assert sorted(x.name for x in sheets.iterdir()) == sorted(f"{p}.svg" for p in
                                                             replayed.state.planes)


SHOT = re.compile(r"^ +[AB]\d (?:gun\d|turret_gun) to-hit on [AB]\d: d10 (\d+) vs TN (-?\d+) "
                  r"(succeeds|fails) \[FS-M73\]  \(TN (-?\d+): (.*?)(-?\d+)% to succeed\)$",
                  re.MULTILINE)
PARTS = re.compile(r"^base (\d+) \+ deflection (\d+) \+ range (\d+) - Dead Eye (\d+)"
                   r"(?: \+ shock 2)? = (-?\d+), $")


def test_each_shot_shows_its_tn_modifiers_and_chance(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """FS-M73 to-hit = base + deflection + range - Dead Eye (+2 shock), shown with every gun
    shot at a plane as it is rolled, adding up to the TN rolled against; the chance follows
    FS-M01/FS-M02 (a 10 always hits, a 1 always misses). Seeded dice: the same game each run."""
    log = tmp_path / "shots.log"
    assert cli.main(["--data-dir", str(tmp_path / "data"), "play", "fasa", "--dice", "seeded",
                     "--seats", "bot,bot", "--seed", "5", "--turns", "6", "--log",
                     str(log)]) == 0
    out = capsys.readouterr().out
    shots = SHOT.findall(out)
    assert len(shots) >= 4, out[-3000:]
    for roll, tn, word, tn2, parts, pct in shots:
        m = PARTS.match(parts)
        assert m and tn == tn2, parts
        base, defl, rng, eye, total = map(int, m.groups())
        shock = 2 if "shock" in parts else 0
        assert base + defl + rng - eye + shock == total == int(tn)
        assert int(pct) == 10 * min(9, max(1, 11 - int(tn)))
        assert (word == "succeeds") == (int(roll) == 10 or (int(roll) != 1 and
                                                             int(roll) >= int(tn)))
    assert "last rolls:" in out
    # issue 31: the game is stored as it is played, verifies, and exports with its d10s
    assert "stored as game 1" in out
    data = ["--data-dir", str(tmp_path / "data")]
    assert cli.main([*data, "verify"]) == 0, capsys.readouterr().out
    assert "game 1: ok" in capsys.readouterr().out
    assert cli.main([*data, "export", "1"]) == 0
    exported = capsys.readouterr().out
    assert "| d10: " in exported and exported.count("\n") > 20


class Screen:
    """A terminal with everything printed so far, ANSI codes stripped."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.text = ""
        self.pos = 0  # the end of the last match: the next wait looks after it

    def wait_for(self, needle: str, timeout: float = 60) -> int:
        """Where ``needle`` first appears after the last match (its offset in ``text``),
        waiting ``timeout`` seconds at most in all (a screen that keeps redrawing must not keep
        the wait going)."""
        end = time.monotonic() + timeout
        while True:
            at = self.text.find(needle, self.pos)
            if at >= 0:
                self.pos = at + len(needle)
                return at
            left = end - time.monotonic()
            try:
                if left <= 0:
                    raise pexpect.TIMEOUT("deadline")
                chunk = self.child.read_nonblocking(65536, timeout=left)
            except (pexpect.TIMEOUT, pexpect.EOF):
                raise AssertionError(f"{needle!r} never appeared in {timeout:.0f} s; screen "
                                     f"ends with:\n{self.text[-3000:]}") from None
            self.text += ANSI.sub(b"", chunk).decode(errors="replace")


def test_hot_seat_plots_are_typed_hidden_sealed_and_revealed_together(tmp_path: Path) -> None:
    log = tmp_path / "hotseat.log"
    child = pexpect.spawn(str(BIN / "dialtray"),
                          ["--data-dir", str(tmp_path), "play", "fasa", "--dice", "seeded",
                           "--seats", "human,human", "--turns", "2", "--log", str(log)],
                          dimensions=(50, 200), timeout=60,
                          env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
    child.delaybeforesend = None  # typed the moment the prompt shows: still never echoed
    s = Screen(child)
    try:
        s.wait_for("P1 A1 plot (hidden): ")
        child.sendline("9L9Z")  # not on the maneuver template
        s.wait_for("refused: A1's plot:")
        s.wait_for("[FS-M35")
        assert "sealed plots: sha256" not in s.text  # nothing was sealed
        s.wait_for("P1 A1 plot (hidden): ")
        child.sendline("2L1B")
        s.wait_for("A1: plot recorded (hidden)")
        s.wait_for("P1 A2 plot (hidden): ")
        child.sendline("1R1C")
        at_seal = s.wait_for("P1 sealed plots: sha256 ")
        s.wait_for("P2 B1 plot (hidden): ")
        digest = re.search(r"P1 sealed plots: sha256 ([0-9a-f]{64})", s.text)
        assert digest, s.text[-2000:]
        before_p2 = s.text
        assert f"P1 sealed: sha256 {digest[1]}" in before_p2[at_seal:], "P2 sees P1's seal"
        child.sendline("2SA")
        s.wait_for("P2 B2 plot (hidden): ")
        child.sendline("1L1A")
        at_reveal = s.wait_for("revealed together")
        s.wait_for("reveal P2 ")
        s.wait_for("you may type: ")  # combat: whoever acts first types (both seats human)
    finally:
        child.sendline("quit")
        child.expect(pexpect.EOF, timeout=60)
        s.text += ANSI.sub(b"", child.before or b"").decode(errors="replace")
        child.close()
    hidden = s.text[:at_reveal]
    for plot in ("9L9Z", "2L1B", "1R1C", "1L1A"):  # never echoed, never shown before the reveal
        assert plot not in hidden, plot
    assert child.exitstatus == 0, s.text[-2000:]
    # The revealed plots are the ones typed, and they match the digest the others saw.
    m = re.search(r"reveal P1 (A1=\S+) (A2=\S+) salt=([0-9a-f]+)", s.text)
    assert m and m[1] == "A1=2L1B" and m[2] == "A2=1R1C", s.text[at_reveal:at_reveal + 800]
    plots = (("A1", "2L1B", False), ("A2", "1R1C", False))
    assert seal_digest("P1", 1, plots, m[3]) == digest[1]
    # quit wrote the log so far; it replays and writes back byte for byte.
    assert "game log:" in s.text and cli.main(["replay", str(log)]) == 0
    assert rewritten(log) == log.read_text(encoding="utf-8")
    body = [bl.text.split()[0] for bl in read_log(log).body]
    assert body[:4] == ["seal", "seal", "reveal", "reveal"]


def test_typed_d10_are_asked_for_checked_and_logged(tmp_path: Path) -> None:
    """``--dice typed`` without a tray: the players roll real d10s; each roll is asked for
    naming the die, an 11 is refused saying why and asked again, a 0 is a 10 (a real d10's
    face), and the log holds the faces typed. Open plots: the plots are typed on screen."""
    log = tmp_path / "typed.log"
    typed = "plot A1 2SA\nplot A1 9Z\nplot A2 2SA\n11\n0\n7\n3\nquit\n"
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "play", "fasa",
                        "--dice", "typed", "--plots", "open", "--seed", "3", "--log", str(log)],
                       input=typed, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "refused: plot A1 9Z: " in r.stdout and "[FS-M" in r.stdout  # out of turn, named
    assert "roll 1 die for A1 Quick Draw tie (d10)" in r.stdout
    assert "'11': type 1 face(s) of a d10 (1..10, a 0 is a 10)" in r.stdout
    faces = log_faces(log)
    assert faces[:3] == [(10, 10), (7, 10), (3, 10)], faces
    assert cli.main(["replay", str(log)]) == 0
    assert rewritten(log) == log.read_text(encoding="utf-8")


def _inputs(bot_log: Path) -> list[tuple[str, object]]:
    """What people type to play the bots' game again: each seal's plots (or FS-M55 picks) by
    plane, from the reveal that follows it; every other action as written."""
    body = [bl.text for bl in read_log(bot_log).body]
    out: list[tuple[str, object]] = []
    for i, text in enumerate(body):
        verb, seat = text.split()[:2]
        if verb == "seal":
            shown = next(t for t in body[i + 1:] if t.startswith(f"reveal {seat} "))
            plots = dict(tok.split("=", 1) for tok in shown.split()[2:-1])
            out.append(("seal", {p: v.replace("bail:", "bail ") for p, v in plots.items()}))
        elif verb != "reveal":
            out.append(("type", text))
    return out


def test_people_play_a_bots_game_again_hidden_plots_and_collision_picks(tmp_path: Path) -> None:
    """Two people at one terminal type, hidden, the very plots and same-hex collision picks
    (FS-M55, sealed and revealed like plots) two bots chose, and the same combat actions, on
    the same seeded dice: the game comes out the same, line for line, but for each seal's
    random salt. (The game: the first seeded bot game on sample-blank with a pick.)"""
    bot_log, log = tmp_path / "bots.log", tmp_path / "people.log"
    for seed in range(40):  # the first seeded bot game with a collision pick
        args = ["--dice", "seeded", "--seed", str(seed), "--turns", "6", "--map",
                "sample-blank"]
        assert cli.main(["--data-dir", str(tmp_path / "d"), "play", "fasa", "--seats",
                         "bot,bot", *args, "--log", str(bot_log)]) == 0
        todo = _inputs(bot_log)
        if any(isinstance(v, dict) and all(x.isdigit() for x in v.values()) for _, v in todo):
            break
    else:
        raise AssertionError("no bot game of seeds 0..39 had a same-hex collision pick")
    child = pexpect.spawn(str(BIN / "dialtray"),
                          ["--data-dir", str(tmp_path / "d"), "play", "fasa", "--seats",
                           "human,human", *args, "--log", str(log)],
                          dimensions=(50, 200), timeout=60, encoding="utf-8",
                          env={"TERM": "dumb", "PATH": "/usr/bin:/bin"})
    child.delaybeforesend = None  # each line is typed after its prompt: no pause needed
    picks = 0
    try:
        while True:
            i = child.expect([r"(P\d) ([A-Z]\d) (plot|pick 1\.\.10) \(hidden\): ", r"P\d> ",
                              pexpect.EOF])
            if i == 2:
                break
            kind, value = todo[0]
            if i == 0:
                assert kind == "seal", (child.before[-500:], todo[0])
                assert isinstance(value, dict)
                child.sendline(value.pop(child.match[2]))
                picks += child.match[3] != "plot"
                if not value:
                    todo.pop(0)
            else:
                assert kind == "type", (child.before[-500:], todo[0])
                child.sendline(str(value))
                todo.pop(0)
    finally:
        child.close()
    assert child.exitstatus == 0 and not todo and picks >= 2
    salt = re.compile(r"^(seal P\d) [0-9a-f]{64}|(salt=)[0-9a-f]+", re.MULTILINE)

    def masked(p: Path) -> str:
        return salt.sub(lambda m: f"{m[1] or m[2]}*", p.read_text(encoding="utf-8").split(
            "---\n", 1)[1])

    assert masked(log) == masked(bot_log)
    assert rewritten(log) == log.read_text(encoding="utf-8")
