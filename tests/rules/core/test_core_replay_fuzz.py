"""Issue 8 defect 7: no mutated game log makes `dialtray replay` show a traceback.

Every bad log must give ``FILE:LINE: what is wrong`` (a ``NotationError``) and exit status 2.
10 000 mutated logs of both games (``log_fuzz``) are replayed in-process; a sample of them goes
through the real command, and the defects the issue found are each replayed through a real
``dialtray`` process. The bigger sweep is ``bench/bench_replay_fuzz.py``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.core.errors import NotationError
from log_fuzz import base_logs, mutate, replay_bytes

FUZZ_LOGS = 10_000
CLI_SAMPLE = 150


@pytest.fixture(scope="module")
def bases() -> list[bytes]:
    return base_logs(aa_lines=24, aces_lines=12)


def test_base_logs_replay_and_cover_both_games(bases: list[bytes]) -> None:
    kinds = {replay_bytes(b).kind.name for b in bases}
    assert kinds == {"airaction", "aces"}


CHUNKS = 2  # separate tests so that pytest-xdist runs them side by side


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_ten_thousand_mutated_logs_give_notation_errors_only(
    chunk: int, bases: list[bytes]
) -> None:
    """FUZZ_LOGS logs in all, FUZZ_LOGS // CHUNKS per chunk, each chunk its own seed."""
    rng = random.Random(20261124 + chunk)
    failed, crashes = 0, []
    for i in range(chunk, FUZZ_LOGS, CHUNKS):
        data = mutate(bases[i % len(bases)], rng)
        try:
            replay_bytes(data, f"m{i}.log")
        except NotationError as exc:
            failed += 1
            assert exc.file == f"m{i}.log" and exc.line >= 1 and exc.message
        except Exception as exc:  # the defect: anything else is a traceback for the user
            crashes.append((i, f"{type(exc).__name__}: {exc}", data[:2000]))
    assert not crashes, f"{len(crashes)} tracebacks, first: {crashes[0]}"
    assert failed > FUZZ_LOGS // CHUNKS // 3  # the mutations really do break logs


def test_cli_sample_exit_2_with_file_line(
    bases: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(7)
    bad = 0
    for i in range(CLI_SAMPLE):
        f = tmp_path / f"s{i}.log"
        f.write_bytes(mutate(bases[i % len(bases)], rng))
        status = main(["replay", str(f)])
        err = capsys.readouterr().err
        assert status in (0, 2), err
        if status == 2:
            bad += 1
            assert err.startswith(f"error: {f}:") and "Traceback" not in err
    assert bad > 0


ISSUE_CASES = {
    # each defect named in issue 8 (7): (what to replace, replacement, expected message)
    "invalid UTF-8": (b"---\n", b"---\n\xff\xfe\n", "not UTF-8"),
    "superscript face": (b"first-player | ", b"first-player | \xc2\xb2 ", "is not a die face"),
    "superscript BuildTotal": (b"BuildTotal: 300", b"BuildTotal: \xc2\xb2", "BuildTotal"),
    "superscript Turn-limit": (b"Turn-limit: 30", b"Turn-limit: \xc2\xb2", "Turn-limit"),
    "Turn-limit soon": (b"Turn-limit: 30", b"Turn-limit: soon", "Turn-limit: 'soon'"),
}


@pytest.mark.parametrize("case", sorted(ISSUE_CASES))
def test_issue_cases_through_the_real_command(
    case: str, bases: list[bytes], tmp_path: Path
) -> None:
    old, new, needle = ISSUE_CASES[case]
    source = next(b for b in bases if old in b)
    f = tmp_path / "bad.log"
    data = source.replace(old, new, 1)
    f.write_bytes(data)
    line = data[: data.index(new)].count(b"\n") + 1 + new[: new.find(b"\xff")].count(b"\n")
    proc = subprocess.run(
        [sys.executable, "-m", "dialtray.cli", "replay", str(f)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"error: {f}:{line}: ") and needle in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "kind,line",
    [
        ("aces", "assign genghis=²"),
        ("aces", "move genghis c٣"),
        ("airaction", "throttle A1 +٣"),
        ("airaction", "speed A1 ５"),
    ],
)
def test_non_ascii_digits_in_actions_are_notation_errors(
    kind: str, line: str, bases: list[bytes]
) -> None:
    """int() reads '٣' or '５' as a digit; a log is ASCII: each is an error at its line, not a
    traceback (``assign x=²`` was one) nor a silently accepted number."""
    source = next(b for b in bases if f"Game: {kind}".encode() in b)
    head = source.split(b"\n---\n")[0] + b"\n---\n"
    data = head + line.encode() + b"\n"
    with pytest.raises(NotationError) as info:
        replay_bytes(data, "d.log")
    assert info.value.line == data.count(b"\n")
