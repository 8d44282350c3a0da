"""Mutated game logs for the replay fuzz test and `bench/bench_replay_fuzz.py` (issue 8, #7).

``base_logs()`` plays short bot games of both kinds and writes their logs; ``mutate(data, rng)``
damages one log the ways a person or a bad disk would: a changed character (ASCII, non-ASCII
digits such as '²', letters of other scripts), a changed number, a dropped, repeated or swapped
line, junk header values, invalid UTF-8, truncation. ``replay_bytes`` replays one log in-process
the way ``dialtray replay`` does; only ``NotationError`` may come out of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from dialtray.rules.aces.bots import GreedyBot, RandomBot
from dialtray.rules.aces.notation import LogWriter
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, play_game
from dialtray.rules.airaction.notation import write_log
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.notation import decode_log, parse_log
from dialtray.rules.core.replay import ReplayResult, replay_log

ODD_CHARS = "0123456789+-:|#\"' \t²³¹٣߃𝟙½ⅫéßΩ中\u200b\x00\x7f\\/.,=_aAzZ"
ODD_NUMBERS = ["0", "-1", "7", "+3", "²", "٣", "1e3", "0x10", "99999999999999999999", "", "1.5"]
JUNK_VALUES = ["soon", "²", "-5", "0", "yes", "", "99999999999999", "a b c", "P1", "../nowhere"]


def _aa_log(seed: int, body_lines: int) -> str:
    g, _ = play_game(STANDARD_SQUADRONS, seed=seed, campaign=seed % 2 == 0)
    return _cut(write_log(g, reports=False), body_lines)


def _aces_log(scenario: str, seed: int, body_lines: int) -> str:
    g = start_scenario(load_scenario(scenario), SeededDice(seed))
    w = LogWriter(g, scenario, first=g.state.first_player, turn_limit=30)
    bots = [GreedyBot(seed), RandomBot(seed + 1)]
    for _ in range(body_lines):
        if g.state.over:
            break
        w.apply(bots[g.player_to_move() % 2].choose(g))
    return w.text()


def _cut(text: str, body_lines: int) -> str:
    """The header and the first ``body_lines`` actions (a valid prefix is a valid log)."""
    head, sep, body = text.partition("\n---\n")
    actions = [ln for ln in body.splitlines() if ln and not ln.startswith("#")]
    return head + sep + "\n".join(actions[:body_lines]) + "\n"


# a mid-game position header (docs/notation.md), so the Position: lines are mutated too
POSITION_LOG = """Game: aces
Scenario: kim-vs-tim
First: 1
Position: turn 4 player P2
Position: char charlie square c5 click 2
Position: char louis square c6 click 1 captive-of charlie
Position: player P1 vp 11 acted charlie
---
escape louis | 5 2 6 1 3 2
"""


def base_logs(aa_lines: int = 40, aces_lines: int = 40) -> list[bytes]:
    """Short valid logs of both kinds (Air Action with and without campaign, two Aces
    scenarios); the numbers of actions keep each replay cheap."""
    texts = [_aa_log(s, aa_lines) for s in (1, 2)]
    texts += [_aces_log(sc, 3, aces_lines) for sc in ("zeppelin-raid", "kim-vs-tim")]
    texts.append(POSITION_LOG)
    return [t.encode("utf-8") for t in texts]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _char(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    i = rng.randrange(len(text))
    return (text[:i] + rng.choice(ODD_CHARS) + text[i + rng.choice((0, 1)) :]).encode(
        "utf-8", "surrogateescape"
    )


def _number(data: bytes, rng: random.Random) -> bytes:
    toks = data.decode("utf-8", "surrogateescape").split(" ")
    idx = [i for i, t in enumerate(toks) if any(c.isdigit() for c in t)]
    if not idx:
        return data
    i = rng.choice(idx)
    toks[i] = rng.choice(ODD_NUMBERS) + ("\n" if toks[i].endswith("\n") else "")
    return " ".join(toks).encode("utf-8", "surrogateescape")


def _digit(data: bytes, rng: random.Random) -> bytes:
    """One ASCII digit replaced by a digit of another script ('²', '٣', '３', '𝟙')."""
    text = data.decode("utf-8", "surrogateescape")
    spots = [i for i, ch in enumerate(text) if ch in "0123456789"]
    if not spots:
        return data
    i = rng.choice(spots)
    odd = rng.choice("²³¹٣٢߃३３𝟙")
    return (text[:i] + odd + text[i + 1 :]).encode("utf-8", "surrogateescape")


def _header(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    heads = [i for i, ln in enumerate(lines) if b":" in ln and not ln.startswith(b"#")]
    if not heads:
        return data
    i = rng.choice(heads)
    key = lines[i].split(b":", 1)[0]
    value = rng.choice(JUNK_VALUES)
    if rng.random() < 0.5:
        words = lines[i].split(b":", 1)[1].split()
        if words:
            words[rng.randrange(len(words))] = value.encode()
        value = b" ".join(words).decode("utf-8", "surrogateescape")
    lines[i] = key + b": " + value.encode("utf-8", "surrogateescape")
    if rng.random() < 0.2:  # or a header key given twice
        lines.insert(i, lines[i])
    return b"\n".join(lines)


def _drop(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _repeat(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def _swap(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if len(lines) < 2:
        return data
    i = rng.randrange(len(lines) - 1)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return b"\n".join(lines)


def _bytes(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data))
    junk = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x80\x80", b"\xed\xa0\x80", b"\x00"])
    return data[:i] + junk + data[i:]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


def _faces(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    rolled = [i for i, ln in enumerate(lines) if b"|" in ln]
    if not rolled:
        return data
    i = rng.choice(rolled)
    action, _, faces = lines[i].partition(b"|")
    toks = faces.split()
    op = rng.randrange(3)
    if op == 0 and toks:
        toks.pop(rng.randrange(len(toks)))
    elif op == 1:
        toks.insert(rng.randrange(len(toks) + 1), str(rng.randint(1, 6)).encode())
    else:
        toks = [str(rng.randint(1, 6)).encode() for _ in toks]
    lines[i] = action + b"| " + b" ".join(toks)
    return b"\n".join(lines)


MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    _char,
    _char,
    _number,
    _number,
    _digit,
    _header,
    _drop,
    _repeat,
    _swap,
    _bytes,
    _truncate,
    _faces,
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random mutations of a log."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        if not data:
            break
        data = rng.choice(MUTATIONS)(data, rng)
    return data


def replay_bytes(data: bytes, name: str = "fuzz.log") -> ReplayResult:
    """What ``dialtray replay FILE`` does with the file's bytes, in-process."""
    return replay_log(parse_log(decode_log(data, name), name))
