"""Every command meets bad input as a user would: one line naming the argument, exit status 2.

Issue 8 defect 8. The table runs each command with bad arguments through the real CLI entry
point (dialtray.cli.main) in-process; a sample also runs as the installed `dialtray` program.
Nothing in the table may start a tray or spawn MicroPython: arguments are refused at parse time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray import cli
from dialtray.virtual import console as sim_console

BIN = Path(sys.executable).parent

# (argv, the words the one line must contain)
BAD_ARGUMENTS: list[tuple[list[str], list[str]]] = [
    (["sim", "--docks", "9"], ["--docks", "9", "1..8"]),
    (["sim", "--docks", "0"], ["--docks", "1..8"]),
    (["sim", "--docks", "many"], ["--docks", "whole number", "'many'"]),
    (["sim", "--corrupt", "2"], ["--corrupt", "probability", "0..1"]),
    (["sim", "--drop", "-0.1"], ["--drop", "probability"]),
    (["sim", "--corrupt", "5"], ["--corrupt", "write 0.05"]),
    (["sim", "--script", "/nonexistent/turns.txt"], ["--script", "no such file"]),
    (["sim", "--bogus"], ["unrecognized arguments", "--bogus"]),
    # an unknown option: refused by its command, with the likely slip (before: `dialtray:`)
    (["play", "airaction", "--sim", "--sead", "3"],
     ["dialtray play: unrecognized arguments: --sead 3 (did you mean --seed?)",
      "`dialtray play --help`"]),
    (["calibrate", "--dock", "0", "--port", "/dev/ttyACM0"],
     ["dialtray calibrate:", "give the port without --port"]),
    # the hub's README and --help showed this very line (`hub run … --event spring`)
    (["hub", "run", "--broker", "mqtt.local:1883", "--event", "spring"],
     ["dialtray hub run:", "(give --event before 'run': dialtray hub --event … run …)"]),
    (["demo", "--docks", "1"], ["--docks", "2..8"]),
    (["demo", "--docks", "17"], ["--docks", "2..8"]),
    (["demo", "--docks", "4"], ["--docks", "needs", "8"]),
    (["demo", "--turns", "0"], ["--turns", "1..99"]),
    (["play", "chess"], ["invalid choice", "chess"]),
    (["play", "airaction", "--seats", "human,alien"], ["--seats", "human or bot"]),
    (["play", "airaction", "--sim", "--port", "/dev/x"], ["--port", "not with --sim"]),
    (["play", "airaction", "--seats", "bot"], ["--seats", "2 seats", "1 given"]),
    (["play", "airaction", "--figures", "A1,Z9"], ["--figures", "Z9", "not in this game"]),
    (["play", "airaction", "--event", "mqtt://hub/ev"], ["--creds", "--event needs"]),
    (["play", "airaction", "--creds", "t01.json"], ["--creds", "only with --event"]),
    (["play", "airaction", "--wait", "0"], ["--wait", "0..3600"]),
    (["play", "airaction", "--event", "http://hub", "--creds", "t.json"], ["--event", "mqtt://"]),
    (["play", "airaction", "--event", "mqtt://hub/ev", "--creds", "/nonexistent/t01.json"],
     ["--creds", "/nonexistent/t01.json"]),
    (["play", "fasa", "--map", "nowhere"], ["--map", "no mapsheet 'nowhere'", "sample-town"]),
    (["play", "fasa", "--plots", "hidden"], ["--plots", "invalid choice", "'hidden'"]),
    (["play", "fasa", "--seats", "bot,bot,bot"], ["--seats", "2 seats", "3 given"]),
    (["play", "fasa", "--sim", "--dice", "seeded"], ["--dice", "seeded dice need no tray"]),
    (["play", "fasa", "--figures", "A1,B1"], ["--figures", "not for fasa"]),
    (["play", "fasa", "--resume"], ["--resume", "not built for FASA"]),
    (["play", "fasa", "--dice", "seeded", "--sheets", "/dev/null/sheets"],
     ["--sheets", "/dev/null/sheets"]),
    (["serve", "--sim", "--event", "mqtt://t1:pw@hub/ev", "--creds", "t.json"],
     ["--event", "no password in the URL"]),
    (["monitor", "--seconds", "0"], ["--seconds", "more than 0"]),
    (["monitor", "--seconds", "nan"], ["--seconds", "finite"]),
    (["monitor", "--diag", "0"], ["--diag", "5..10000"]),
    (["monitor", "--count", "-3"], ["--count", "at least 1"]),
    (["monitor", "--stats", "soon"], ["--stats", "'soon'"]),
    (["monitor", "/dev/no-such-tray-port"], ["PORT", "no such port /dev/no-such-tray-port"]),
    (["monitor", "--docks-file", "/nonexistent/docks.txt"],
     ["--docks-file", "/nonexistent/docks.txt", "cannot read the dock file"]),
    (["monitor", "--game", "chess"], ["--game", "'chess'"]),
    (["odds", "--dice", "30", "--target", "4"], ["--dice", "30", "0..15"]),
    (["hub", "pair", "--minutes", "0"], ["--minutes", "1..600"]),
    (["hub", "--db", "", "export"], ["--db", "DSN is needed"]),
    (["hub", "enroll", "t/1", "--passwd", "p"], ["table", "letters, digits"]),
    (["hub", "player", "ann", "--squad", "/nonexistent/squad.json"],
     ["--squad", "/nonexistent/squad.json"]),
    (["odds", "--dice", "3", "--target", "9"], ["--target", "9", "1..6"]),
    (["odds", "--dice", "3", "--target", "4", "--gunnery", "3"],
     ["--gunnery", "not allowed with --dice"]),
    (["odds", "--gunnery", "3", "--silhouette", "4", "--target", "4"],
     ["--gunnery", "not allowed with --target"]),
    (["odds", "--dice", "3"], ["missing --target"]),
    (["odds", "--gunnery", "3"], ["missing --silhouette"]),
    (["odds"], ["describe the shot", "--dice and --target"]),
    (["odds", "--fate", "-1", "--gunnery", "2", "--silhouette", "4"], ["--fate", "0..6"]),
    (["odds", "--clicks-left", "0", "--dice", "2", "--target", "3"], ["--clicks-left"]),
    (["calibrate"], ["--dock", "required"]),
    (["calibrate", "--dock", "16"], ["--dock", "0..15"]),
    (["calibrate", "--dock", "0", "--dial", "turret"], ["--dial", "turret"]),
    (["calibrate", "--dock", "0", "--clicks", "1"], ["--clicks", "2..64"]),
    (["calibrate", "--dock", "0", "--timeout", "-5"], ["--timeout"]),
    (["flash", "--bogus"], ["unrecognized arguments"]),
    (["hardware", "docs", "--docks", "40", "--out", "x"], ["--docks", "1..8"]),
    (["hardware", "target", "--detents", "1"], ["--detents", "2..64"]),
    (["hardware", "target", "--diameter", "big"], ["--diameter", "'big'"]),
    (["replay"], ["file", "required"]),
    (["sheet", "game.log"], ["--plane", "required"]),
    (["sheet", "/nonexistent/game.log", "--plane", "A1"], ["/nonexistent/game.log"]),
    (["figures", "--game", "chess"], ["--game", "'chess'"]),
    (["games", "--db"], ["--db", "expected one argument"]),
    (["export", "abc"], ["game", "whole number", "'abc'"]),
    (["import"], ["LOG", "required"]),
    (["import", "/nonexistent/game.log"], ["/nonexistent/game.log"]),
    (["verify", "x"], ["game", "'x'"]),
    (["coverage", "--prefix", "A-C"], ["--prefix", "'A-C'"]),
    (["serve", "--port", "70000"], ["--port", "70000", "0..65535"]),
    (["serve", "--bots"], ["--bots", "only with --sim"]),
    (["serve", "--quadrature"], ["--quadrature", "only with --sim"]),
    (["play", "airaction", "--quadrature"], ["--quadrature", "only with --sim"]),
    (["play", "airaction", "--sim", "--quadrature", "--camera", "virtual"],
     ["--quadrature", "not with --camera"]),
    (["demo", "--quadrature", "--camera", "virtual"], ["--quadrature", "not with --camera"]),
    (["serve", "--sim", "--mistakes"], ["--mistakes", "only with --bots"]),
    (["serve", "--game", "chess"], ["--game", "'chess'"]),
    (["serve", "--sim", "--layout", "/nonexistent/l.json"], ["--layout", "no such file"]),
    (["serve", "--seats", "human,bot"], ["--seats", "only with --sim"]),
    (["serve", "--sim", "--seats", "human,robot"], ["--seats", "human or bot"]),
    (["serve", "--sim", "--seats", "human,bot,bot"], ["--seats", "2 seats", "3 given"]),
    (["serve", "--sim", "--pace", "-1"], ["--pace"]),
    (["selftest", "--turn", "-1"], ["--turn", "0..600"]),
    (["selftest", "--turn", "soon"], ["--turn", "'soon'"]),
    (["selftest", "--sim", "--docks", "9"], ["--docks", "1..8"]),
    (["selftest", "--sim-do", "gap 0 combat 4"], ["--sim-do", "only with --sim"]),
    (["selftest", "--sim", "/dev/ttyACM0"], ["PORT", "not with --sim"]),
    (["selftest", "/dev/no-such-tray-port"], ["PORT", "no such port /dev/no-such-tray-port"]),
    (["read", "x.jpg"], ["--figure", "required"]),
    (["read", "x.jpg", "--figure", "zero=a"], ["--figure", "DOCK=FIGURE", "'zero=a'"]),
    (["capture", "--dock", "99"], ["--dock", "0..63"]),
    (["capture", "--dock", "0"], ["--from-photos DIR", "--camera N"]),
    (["camera"], ["SUBCOMMAND", "required"]),
    (["camera", "calibrate", "--frames", "2"], ["--frames", "5..200"]),
    (["camera", "calibrate"], ["photos or --camera"]),
    (["judge"], ["ACTION", "required"]),
    (["judge", "vp", "x", "P2", "-5"], ["game", "whole number", "'x'"]),
    (["judge", "verify", "3", "--dock", "99"], ["--dock", "99", "0..15"]),
    (["report"], ["game", "required"]),
    (["report", "abc"], ["game", "whole number", "'abc'"]),
    (["fasa", "sheet", "burn", "x.json"], ["invalid choice", "'burn'"]),
    (["fasa", "sheet", "check"], ["FILE", "required"]),
    (["skyace", "hero", "check"], ["FILE", "required"]),
    (["skyace"], ["WHAT", "required"]),
    (["nosuchcommand"], ["nosuchcommand"]),
    (["--data-dir"], ["--data-dir", "expected one argument"]),
]


@pytest.mark.parametrize(("argv", "words"), BAD_ARGUMENTS, ids=lambda v: " ".join(v)
                         if isinstance(v, list) and v and isinstance(v[0], str) else "")
def test_bad_argument_is_one_line_and_status_2(argv: list[str], words: list[str],
                                               capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    status = cli.main(["--data-dir", str(tmp_path), *argv] if argv[0] != "--data-dir" else argv)
    out, err = capsys.readouterr()
    assert status == 2, (status, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err + out and "Error:" not in err, err
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert not list(tmp_path.iterdir()), "a refused command wrote to the data directory"


def test_the_table_covers_every_command() -> None:
    parser = cli.build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    tried = {argv[0] for argv, _ in BAD_ARGUMENTS}
    assert commands <= tried, f"commands with no bad-argument case: {commands - tried}"


@pytest.mark.parametrize("argv", [["sim", "--docks", "9"], ["demo", "--docks", "1"],
                                  ["odds", "--target", "9", "--dice", "2"],
                                  ["monitor", "--corrupt", "2"]])
def test_installed_program_refuses_bad_arguments_in_one_line(argv: list[str]) -> None:
    r = subprocess.run([str(BIN / "dialtray"), *argv], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2, r
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr


def test_an_unexpected_error_is_one_line_with_a_hint(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def broken(dice: int, tn: int, **kw: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr("dialtray.commands.odds.shot_odds", broken)
    assert cli.main(["odds", "--dice", "2", "--target", "3"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "unexpected error" in err and "rerun with -v" in err and "boom" in err


def test_verbose_shows_the_unexpected_errors_details(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def broken(dice: int, tn: int, **kw: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr("dialtray.commands.odds.shot_odds", broken)
    log = tmp_path / "logs" / "run.log"
    assert cli.main(["--log-file", str(log), "odds", "--dice", "2", "--target", "3"]) == 1
    assert "Traceback" not in capsys.readouterr().err
    assert "Traceback" in log.read_text() and "KeyError: 'boom'" in log.read_text()


def _closed_pipe() -> int:
    """A pipe whose reader has already gone, like `| head` after it read its lines."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    return write_end


@pytest.mark.parametrize("argv", [["odds", "--dice", "12", "--target", "4"], ["--help"],
                                  ["coverage", "-v"]])
def test_a_closed_pipe_is_a_quiet_exit(argv: list[str]) -> None:
    fd = _closed_pipe()
    try:
        r = subprocess.run([str(BIN / "dialtray"), *argv], stdout=fd, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    finally:
        os.close(fd)
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
    assert r.stderr == "", r.stderr


def test_monitor_into_a_closed_pipe_is_quiet_and_waiting_shows_what_for() -> None:
    """`dialtray monitor PORT | head` on a port where nothing answers (yet)."""
    master, slave = os.openpty()
    port = os.ttyname(slave)
    fd = _closed_pipe()
    try:
        quiet = subprocess.run([str(BIN / "dialtray"), "monitor", port, "--seconds", "2"],
                               stdout=fd, stderr=subprocess.PIPE, text=True, timeout=60)
        shown = subprocess.run([str(BIN / "dialtray"), "monitor", port, "--seconds", "6"],
                               capture_output=True, text=True, timeout=60)
    finally:
        for f in (fd, master, slave):
            os.close(f)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert f"waiting for the tray on {port} to answer" in shown.stdout, shown.stdout
    # after WAIT_NOTE_S (5 s) with no answer, it says so again, with the link's state
    assert re.search(rf"still waiting for the tray on {re.escape(port)} \(\d+ s, link [a-z ]+\): "
                     r"is it powered and running the dialtray firmware\?", shown.stdout), \
        shown.stdout
    assert "Traceback" not in shown.stderr, shown.stderr


@pytest.mark.parametrize(("line", "words"), [
    ("turn x combat 1", ["expected a whole number, got 'x'"]),
    ("turn 0 combat", ["missing"]),
    ("magnet 0 speed maybe", ["expected on or off"]),
    ("fly 3", ["unknown command 'fly'"]),
])
def test_console_errors_are_one_line_without_python_internals(line: str,
                                                              words: list[str]) -> None:
    """The console's parser is dialtray.virtual.script; the sim command words its failures."""

    class Tray:  # these lines fail in the parser, before the tray would act
        def __getattr__(self, name: str) -> object:
            return lambda *a: None

    with pytest.raises(sim_console.ConsoleError) as caught:
        sim_console.console_line(Tray(), line, "<stdin>:1")  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert "invalid literal" not in message and "index out of range" not in message, message
    for word in words:
        assert word in message, (word, message)


@pytest.mark.slow(cost=2)
def test_sim_console_survives_bad_lines_on_the_real_virtual_tray(tmp_path: Path) -> None:
    lines = "turn x combat 1\nturn 0 combat\nturn 99 combat 1\nturn 0 turret 1\nturn 0 combat 1\n"
    r = subprocess.run([str(BIN / "dialtray"), "sim", "--docks", "1", "--exit", "--workdir",
                        str(tmp_path)], input=lines, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    errors = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(errors) == 4 and all(e.startswith("error: <stdin>:") for e in errors), r.stderr
    assert "Traceback" not in r.stderr and "invalid literal" not in r.stderr, r.stderr
    assert "<stdin>:3: no dial 'combat' on dock 99" in r.stderr, r.stderr
    assert "<stdin>:4: no dial named 'turret': a dock's dials are combat or speed (usage: turn " \
        "DOCK combat|speed" in r.stderr, r.stderr
    assert "turned dock 0 combat by 1" in r.stdout, r.stdout
