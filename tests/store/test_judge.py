"""The judge: tokens (hash only), rulings as store events (refused and recorded without the
token, applied and recorded with it), and `judge verify` against the virtual tray's dials."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from dialrig import config
from dialtray.cli import main
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.store import GameStore
from dialtray.store.judge import dial_histories, new_token, token_hash
from dialtray.store.keys import default_dir, tokens_file
from dialtray.store.verify import verify_game
from dialtray.virtual.tray import VirtualTray
from storehelp import Played, recorded_game, ruled_tray


def make_token(p: Played, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["judge", "token", "--event", "Spring Open", "--db", str(p.path)]) == 0
    token = capsys.readouterr().out.strip().splitlines()[-1]
    assert len(token) >= 20
    return token


def records(p: Played, kind: str) -> list[dict[str, object]]:
    st = GameStore.open(p.path, readonly=True)
    out = [json.loads(r.content)["data"] for r in st.rows(p.gid) if r.kind == kind]
    st.close()
    return out


def test_only_the_tokens_hash_is_stored(aces_game: Played,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    token = make_token(aces_game, capsys)
    st = GameStore.open(aces_game.path, readonly=True)
    assert st.token_events() == {token_hash(token): "Spring Open"}
    st.close()
    raw = b"".join(f.read_bytes() for f in aces_game.path.parent.glob("*.sqlite3*"))
    # issue 31: not even its hash is in the database (a player holding the file could add
    # one); the hash is in the key directory, the token nowhere
    assert token.encode() not in raw and token_hash(token).encode() not in raw
    kept = tokens_file(default_dir()).read_bytes()
    assert token_hash(token).encode() in kept and token.encode() not in kept
    assert tokens_file(default_dir()).stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_a_ruling_without_the_token_is_refused_and_recorded(
        aces_game: Played, token: str | None, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    make_token(aces_game, capsys)
    monkeypatch.delenv("DIALTRAY_JUDGE_TOKEN", raising=False)
    before = aces_game.store.game(aces_game.gid)
    args = ["judge", "vp", str(aces_game.gid), "P1", "+3", "--db", str(aces_game.path)]
    assert main(args + (["--token", token] if token else [])) == 2
    err = capsys.readouterr().err
    assert "ruling refused" in err and "the attempt is recorded" in err
    assert "\n" not in err.strip() and "Traceback" not in err
    refused = records(aces_game, "judge-refused")
    assert len(refused) == 1 and refused[0]["ruling"] == "vp"
    assert refused[0]["reason"] == ("no token" if token is None else "not a judge's token")
    assert records(aces_game, "judge") == []
    after = GameStore.open(aces_game.path, readonly=True).game(aces_game.gid)
    assert (after.status, after.result, after.state_json) == \
        (before.status, before.result, before.state_json)
    assert verify_game(GameStore.open(aces_game.path, readonly=True), aces_game.gid).ok


def test_rulings_with_the_token_are_applied_and_recorded(
        aces_game: Played, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    p = aces_game
    token = make_token(p, capsys)
    db = ["--db", str(p.path)]
    gid = str(p.gid)
    n_actions = len(p.tracker.game.history)
    assert main(["judge", "vp", gid, "P2", "-2", "--why", "slow play", "--token", token,
                 *db]) == 0
    assert "remove 2 VP from P2 (slow play)" in capsys.readouterr().out
    monkeypatch.setenv("DIALTRAY_JUDGE_TOKEN", token)
    assert main(["judge", "dispute", gid, "line of fire", "allowed", *db]) == 0
    fig, kind = p.store.figures(p.gid)[0][:2]
    assert main(["judge", "set-dial", gid, fig, kind, "2", *db]) == 0
    assert main(["judge", "undo", gid, "--why", "misread", *db]) == 0
    out = capsys.readouterr().out
    assert "undo '" in out
    st = GameStore.open(p.path, readonly=True)
    g = st.game(p.gid)
    v = verify_game(st, p.gid)
    assert v.ok, v.text()
    assert v.replayed is not None and len(v.replayed.history) == n_actions - 1
    assert g.status == "running"  # the undo took back the game's last action, its end
    assert main(["judge", "end", gid, "time called", *db]) == 0
    st = GameStore.open(p.path, readonly=True)
    assert st.game(p.gid).status == "ended"
    assert "ended by the judge: time called" in st.game(p.gid).result
    rulings = [r["ruling"] for r in records(p, "judge")]
    assert rulings == ["vp", "dispute", "set-dial", "undo", "end"]
    assert all(r["event"] == "Spring Open" for r in records(p, "judge"))
    # the export leaves out the undone action and still replays
    capsys.readouterr()
    assert main(["export", gid, *db]) == 0
    text = capsys.readouterr().out
    assert "# ruling: undo" in text
    assert len(replay_log(parse_log(text)).game.history) == n_actions - 1  # type: ignore[attr-defined]
    hists, _ = dial_histories(st, p.gid)
    h = next(h for h in hists if (h.figure, h.kind) == (fig, kind))
    assert h.judge_set and h.want == 2


def test_bad_ruling_arguments_name_the_argument(aces_game: Played,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(aces_game.path)]
    assert main(["judge", "vp", str(aces_game.gid), "P7", "1", "--token", "x", *db]) == 2
    assert "argument seat: game 1 has no seat 'P7'" in capsys.readouterr().err
    assert main(["judge", "set-dial", str(aces_game.gid), "nobody", "combat", "1", *db]) == 2
    assert "argument figure/dial" in capsys.readouterr().err
    assert main(["judge", "vp", "77", "P1", "1", *db]) == 2
    assert "no game 77" in capsys.readouterr().err
    assert main(["judge", "dispute", "1", "x", "maybe", *db]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_judge_verify_reads_the_tray_and_says_what_to_put_right(
        aces_game: Played, capsys: pytest.CaptureFixture[str]) -> None:
    p = aces_game
    hists, game = dial_histories(p.store, p.gid)
    assert game is not None
    bound = [h for h in hists if h.dock is not None and h.want is not None]
    assert any(h.want for h in bound), "a game that changed no dial proves nothing"
    with VirtualTray(config.default_config(8), seed=4) as tray:
        args = ["judge", "verify", str(p.gid), "--port", tray.port, "--db", str(p.path)]
        assert main(args) == 1  # a fresh tray: every dial at click 0
        out = capsys.readouterr().out
        wrong = [h for h in bound if h.want % 12]
        for h in wrong:
            assert f"{h.label}: position 0, the rules say click {h.want}: PUT RIGHT" in out
        assert "rules  " in out and "[AC-M" in out  # histories with causes and rule ids
        assert f"{len(wrong)} dial(s) to put right" in out
        first = wrong[0]
        assert main([*args, "--dock", str(first.dock)]) == 1
        out = capsys.readouterr().out
        assert first.label in out and all(h.label not in out for h in bound
                                          if h.dock != first.dock)
        for h in wrong:  # the judge's instructions carried out
            tray.turn(h.dock, h.reader or 0, h.want * h.up)  # type: ignore[arg-type]
        end = time.monotonic() + 30
        while main(args) != 0:
            assert time.monotonic() < end, capsys.readouterr().out
            time.sleep(0.2)
        assert "every dial agrees with the store" in capsys.readouterr().out


def test_a_ruling_stored_while_the_game_is_played_joins_the_chain_and_is_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`dialtray judge` (another process, another connection) appends to a game whose host has
    records queued: both land in one unbroken chain, and the host shows the ruling."""
    db = tmp_path / "live.sqlite3"
    _, t, rec = recorded_game(db, "aces", 2, 1)
    shown: list[str] = []
    rt, tray = ruled_tray(rec, shown)
    slot = t.binding.slots()[0]
    tray.turn(slot, 1)  # queued in the host, not yet committed
    assert main(["judge", "token", "--db", str(db)]) == 0
    token = capsys.readouterr().out.split()[-1]
    assert main(["judge", "dispute", str(rec.gid), "range to B2", "allowed", "--token", token,
                 "--db", str(db)]) == 0
    tray.turn(slot, -1)
    tray.settle()
    rt.commit()
    assert shown == ["judge's ruling: dispute 'range to B2': allowed — decided"]
    st = GameStore.open(db, readonly=True)
    kinds = [r.kind for r in st.rows(rec.gid)]
    assert "judge" in kinds and kinds.index("judge") < len(kinds) - 1
    assert verify_game(st, rec.gid).ok


def test_a_judge_token_never_starts_with_a_dash(tmp_path: Path) -> None:
    """A token is typed after `--token`; one starting with '-' (1 in 64 urlsafe tokens) was
    read by argparse as an option, and `dialtray judge … --token -…` failed (exit 2)."""
    with GameStore.open(tmp_path / "t.sqlite3") as store:
        tokens = [new_token(store, "ev") for _ in range(400)]
    assert not [t for t in tokens if t.startswith("-")]


def test_a_finished_game_cannot_be_ended_again(aces_game: Played,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`judge end` on a game already over (a wrong game number, a second `end`) is refused in
    one line and the game keeps its own result; before, it became 'ended by the judge'."""
    p = aces_game
    token = make_token(p, capsys)
    before = GameStore.open(p.path, readonly=True).game(p.gid)
    assert before.status == "over", before
    assert main(["judge", "end", str(p.gid), "time called", "--token", token,
                 "--db", str(p.path)]) == 2
    err = capsys.readouterr().err
    assert f"game {p.gid} is over already ({before.result}): only a running game can be " \
           "ended" in err, err
    after = GameStore.open(p.path, readonly=True).game(p.gid)
    assert (after.status, after.result) == (before.status, before.result)
