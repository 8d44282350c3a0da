"""Garbage in Sky Ace logs: every mutated log replays or fails with a ``NotationError`` naming a
line -- never another exception (a user never sees a traceback)."""

from __future__ import annotations

import random

from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.notation import decode_log, parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace.bots import bot_game

TOKENS = ["move", "knock", "attack", "draw", "discard", "layout", "hold", "pass", "deal", "P1",
          "P2", "GM", "T1", "T9", "-", "0,0", "1,-1", "99999999999,1", "1,", ",", "JK", "10H",
          "QS", "1H", "ZZ", "|", "| 7", "| 1 2 3", "٣", "²", "x" * 300, "", "#", "Mode:", "---"]


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        op = rng.randrange(5)
        if op == 0:
            del lines[i]
        elif op == 1:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(TOKENS)
            lines[i] = " ".join(words)
        elif op == 2:
            lines.insert(i, " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 4))))
        elif op == 3:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + chr(rng.randrange(32, 0x3000)) + lines[i][k:]
    return "\n".join(lines) + "\n"


def test_sa_m18_two_thousand_mutated_logs_give_notation_errors_only() -> None:
    """Mutated duel and mission logs (dice and physical decks): ``NotationError`` with a line
    number, or a clean replay; bytes that are not UTF-8 too (SA-M18's refusals among them)."""
    rng = random.Random(16)
    bases = [bot_game(s, mission=s % 2 == 1, physical=s % 3 == 0, turn_limit=8)[1]
             for s in range(6)]
    errors = 0
    for n in range(2000):
        text = _mutate(rng, rng.choice(bases))
        try:
            if n % 50 == 0:
                text = decode_log(text.encode() + b"\xff\n", "m.log")
            replay_log(parse_log(text, "m.log"))
        except NotationError as exc:
            assert exc.line >= 1 and str(exc).startswith("m.log:")
            errors += 1
    assert errors > 1000
