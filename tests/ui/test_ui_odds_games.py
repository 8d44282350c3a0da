"""The page's odds for Aces and Sky Ace attacks (``ui.odds``) against what the engine then does:
over seeded bot games, before each attack a bot makes the page's odds are computed; each
distribution sums to 1 and the outcome the engine then rolls or counts has a chance above 0
under them (an odds model that disagreed with the rules would, sooner or later, give 0)."""

from __future__ import annotations

from fractions import Fraction

from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.core.dice import SeededDice
from dialtray.ui.odds import shots


def test_skyace_attack_odds_agree_with_the_engine() -> None:
    from dialtray.rules.skyace import SkyAceGame
    from dialtray.rules.skyace.bots import GreedyBot

    checked = 0
    for seed in range(1, 9):
        g, bot = SkyAceGame.duel(SeededDice(seed)), GreedyBot(seed)
        while g.outcome() is None:
            a = bot.choose(g)
            odds = {o.label.split(" (")[0]: o for o in shots(g, [a.text()])}
            events = g.apply(a)
            o = odds.get(a.text())
            if o is None:
                continue
            assert sum(o.clicks) == 1
            lost = sum(e.before - e.after for e in events if type(e).__name__ == "LifeChanged")
            assert o.clicks[lost] > 0, (a.text(), lost, o.clicks)
            checked += 1
    assert checked > 20


def test_aces_attack_odds_agree_with_the_engine() -> None:
    from dialtray.rules.aces.bots import GreedyBot

    checked = 0
    for seed in range(1, 4):
        g = start_scenario(load_scenario("zeppelin-raid"), SeededDice(seed))
        bots = [GreedyBot(seed), GreedyBot(seed + 1)]
        while g.outcome() is None:
            seat = g.to_move()
            a = bots[g.seats().index(seat) if seat in g.seats() else 0].choose(g)
            odds = {o.label: o for o in shots(g, [a.text()])}
            events = g.apply(a)
            o = odds.get(a.text())
            if o is None or a.text().startswith("capture") or \
                    any(type(e).__name__ == "DefenseAwaited" for e in events):
                continue  # a capture (no damage) or a defender who may use fate: not modelled
            assert sum(o.clicks) == Fraction(1)
            hits = sum(e.hits for e in events if type(e).__name__ == "HitsResolved")
            assert o.clicks[min(hits, len(o.clicks) - 1)] > 0, (a.text(), hits, o.clicks)
            checked += 1
    assert checked > 10


def test_fasa_shot_odds_agree_with_the_engine_and_change_nothing() -> None:
    from dialtray.rules.core.game import state_json
    from dialtray.rules.fasa.bots import GreedyBot
    from dialtray.rules.fasa.game import FasaGame, start_events
    from dialtray.rules.fasa.notation import DEFAULT_SIDES
    from dialtray.tracker import TableDice

    checked = 0
    for seed in range(1, 7):
        dice = TableDice(SeededDice(seed))
        g = FasaGame(dice, start_events("sample-town", DEFAULT_SIDES, 6))
        bots = {"P1": GreedyBot(seed), "P2": GreedyBot(seed + 1)}
        while g.outcome() is None:
            seat = g.to_move()
            a = bots[seat].choose(g) if seat in bots else g.legal_actions()[0]
            before = state_json(g)
            odds = {o.label.split(" (")[0]: o for o in shots(g, [a.text()], dice)}
            assert state_json(g) == before  # tried on the trial dice and taken back
            events = g.apply(a)
            o = odds.get(a.text())
            if o is None:
                continue
            assert sum(o.clicks) == 1
            rolls = [e for e in events if type(e).__name__ == "Rolled" and "to-hit" in e.purpose]
            assert [e.tn for e in rolls] and len(rolls) == o.dice
            hits = sum(1 for e in rolls if e.success)
            assert o.clicks[hits] > 0, (a.text(), hits, o.clicks)
            checked += 1
    assert checked > 5
