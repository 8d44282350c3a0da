"""Sky Ace: a rival's drawn card is not shown (D-SA-15, SA-M02: a hand is held; the text turns
face up only the start card and the preferred-attack card). Before, the person at the terminal
read the bot's hand off the narration ("P2 draws KH")."""

from __future__ import annotations

import re

from dialtray.rules.skyace.events import Drew
from dialtray.table.build import on_paper
from dialtray.table.narrate import hidden_draws
from dialtray.table.table import Table
from dialtray.ui.narrate import MoveList

CARD = r"(10|[2-9AJQK])[CDHS]|Joker|JK"


def _bot_then_person() -> Table:
    table = on_paper("skyace", ["bot", "human"], seed=8)
    for _ in range(50):  # the bot lays out the start, then both draw their hands
        table.pump(0.0)
    return table


def test_the_terminal_tells_a_rivals_draw_without_the_card_and_the_game_keeps_it() -> None:
    table = _bot_then_person()
    lines = table.narration
    rival = [ln for ln in lines if ln.startswith("P1 draws") and "(hand for P1)" in ln]
    own = [ln for ln in lines if ln.startswith("P2 draws") and "(hand for P2)" in ln]
    assert rival and own, lines
    assert all(ln == "P1 draws a card (hand for P1)" for ln in rival), rival
    assert all(re.match(rf"P2 draws ({CARD}) ", ln) for ln in own), own
    assert any(re.match(rf"P1 draws ({CARD}) \(start", ln) for ln in lines)  # face up: told
    # the game (what the store and the judge keep) still holds every card P1 drew
    drawn = [e.card for entry in table.game.history for e in entry.events
             if isinstance(e, Drew) and e.pawn == "P1" and e.dest == "hand"]
    assert len(drawn) == len(rival) and all(re.fullmatch(CARD, c) for c in drawn), drawn


def test_the_page_move_list_hides_a_rivals_draw_and_a_bots_only_game_shows_all() -> None:
    table = _bot_then_person()
    game = table.game
    person = MoveList(hidden_draws(game, ["P2"])).update(game.history)
    caused = [ln for e in person for ln in e["caused"] if "(hand for P1)" in ln]
    assert caused and all(ln.startswith("P1 draws a card") for ln in caused), caused
    watched = MoveList(hidden_draws(game, [])).update(game.history)  # bots only: all told
    shown = [ln for e in watched for ln in e["caused"] if "(hand for P1)" in ln]
    assert shown and not any("a card" in ln for ln in shown), shown
