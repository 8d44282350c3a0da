"""`dialtray demo` as a newcomer meets it: a game with no dial on the docks says so on its
binding line (before: "binding: " and nothing), and Ctrl-C in the middle says what became of
the half-played game that is stored (before: "interrupted", the game left running unsaid)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def test_a_game_with_no_dial_says_so_on_its_binding_line(tmp_path: Path) -> None:
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "demo", "--game",
                        "skyace", "--fast"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert ("binding: none (Sky Ace has no dial on the tray's docks; the tray rolls the dice)"
            in r.stdout.splitlines()), r.stdout[:2000]


def test_ctrl_c_in_the_demo_says_the_game_stays_stored(tmp_path: Path) -> None:
    proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "demo"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        seen = ""
        for line in proc.stdout:  # the first decision played: the game is stored and going
            seen += line
            if line.startswith("  > "):
                break
        proc.send_signal(signal.SIGINT)  # what Ctrl-C at the terminal sends
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, seen + out
    assert ("demo stopped: its game stays stored as game 1, not over (dialtray play --resume 1 "
            "--sim carries it on; dialtray games --close 1 --reason TEXT closes it)") in out, out


def test_at_an_80_column_terminal_the_narration_wraps_between_words(tmp_path: Path) -> None:
    """A newcomer's first command at an 80-column terminal: the narration's lines (100-180
    characters: flags, confirmations, the binding) wrapped between words, continuations
    indented; the terminal's own wrap cut words in half."""
    import pexpect

    child = pexpect.spawn(str(BIN / "dialtray"), ["--data-dir", str(tmp_path), "demo",
                                                 "--game", "aces", "--fast"],
                          dimensions=(24, 80), timeout=120, encoding="utf-8",
                          env={"TERM": "dumb", "PATH": "/usr/bin:/bin"})
    child.expect(pexpect.EOF)
    child.close()
    out = child.before.replace("\r\n", "\n")
    assert child.exitstatus == 0, out[-2000:]
    said = [ln for ln in out.splitlines() if ln.startswith(("  > ", "  ! ", "    ", "binding"))]
    assert len(said) > 50, out[:2000]
    assert max(len(ln) for ln in said) < 80, [ln for ln in said if len(ln) >= 80][:3]
    assert any(ln.startswith("binding: dock 0 combat=") for ln in said), out[:1000]
