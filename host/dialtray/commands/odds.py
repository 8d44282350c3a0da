"""`dialtray odds`: exact distribution of hits and damage clicks for an Air Action shot, of the
LIFE lost in a Sky Ace attack (``--skyace``), or of FASA d10 target-number rolls (``--fasa``).

This module parses the shot and asks the rules engine for the exact odds; the tables are laid
out by ``dialtray.ui.terminal.odds_tables``."""

from __future__ import annotations

import argparse
import time
from typing import Any

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.rules.airaction.odds import shot_modifiers, shot_odds
from dialtray.ui.terminal.odds_tables import shot_lines, skyace_lines, tn_lines

# Bounds that refuse typos, not rules: the largest printed gunnery is well under 10, a shot adds
# at most the rear-arc die and the Ace's fate (AA-M42), and the odds are exact over 6**dice.
MAX_DICE = 15
MAX_GUNNERY = 10
MAX_SILHOUETTE = 10  # capped at 6 when the odds are computed (AA-M44)
MAX_FATE = 6
DIRECT = ("dice", "target")
FROM_VALUES = ("gunnery", "silhouette", "rear_arc", "point_blank", "fate")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds",
        help="exact odds of an Air Action shot (hits, clicks, fate)",
        description=(
            "Exact distribution of hits and damage clicks of a Crimson Skies: Air Action shot: "
            "dice >= target number hit (AA-M45), defensive fate leaves natural sixes (AA-M63). "
            "Give --dice/--target directly, or --gunnery/--silhouette with modifiers."
        ),
        epilog="example: dialtray odds --gunnery 3 --fate 3 --silhouette 5  (AA-T01: six dice)",
    )
    p.add_argument("--dice", type=int_range(0, MAX_DICE),
                   help=f"number of attack dice, 0..{MAX_DICE}")
    p.add_argument("--target", type=int_range(1, 6),
                   help="target number, 1..6 (the modified silhouette, already capped at 6)")
    p.add_argument("--gunnery", type=int_range(0, MAX_GUNNERY),
                   help="front or rear gunnery value")
    p.add_argument("--silhouette", type=int_range(1, MAX_SILHOUETTE),
                   help="target's silhouette (capped at 6 after modifiers, AA-M44)")
    p.add_argument("--rear-arc", action="store_true", help="+1 die (AA-M39)")
    p.add_argument("--point-blank", action="store_true", help="silhouette -1 (AA-M43)")
    p.add_argument("--fate", type=int_range(0, MAX_FATE), default=None,
                   help="offensive fate value (AA-M62)")
    p.add_argument("--defensive-fate", action="store_true", help="target uses fate (AA-M63)")
    p.add_argument("--clicks-left", type=int_range(1, 99),
                   help="clicks before the target is shot down")
    sky = p.add_argument_group(
        "Sky Ace attack (--skyace)",
        "exact distribution of LIFE lost, counted over every hand of the unseen decks "
        "(SA-M23..SA-M29, SA-M45); e.g. dialtray odds --skyace --attack-freq R "
        "--defence-freq E --attack-hand 5 --defence-hand 5 --target-card KS  (SA-T01)")
    sky.add_argument("--skyace", action="store_true", help="odds of a Sky Ace attack")
    sky.add_argument("--attack-freq", type=_frequency, help="attacker's frequency: E O R A")
    sky.add_argument("--defence-freq", type=_frequency, help="defender's frequency: E O R A")
    sky.add_argument("--attack-hand", type=int_range(0, 6), help="attacker's hand size, 0..6")
    sky.add_argument("--defence-hand", type=int_range(0, 6), help="defender's hand size, 0..6")
    sky.add_argument("--attacker-card", type=_card, help="card under the attacker's pawn")
    sky.add_argument("--target-card", type=_card, help="card under the target's pawn")
    sky.add_argument("--attack-bonus", type=int_range(0, 11), default=0,
                     help="attribute level (+1 Powerful), advanced game")
    sky.add_argument("--defence-bonus", type=int_range(0, 11), default=0,
                     help="attribute level (+1 Unbreakable), advanced game")
    sky.add_argument("--hand", type=_cards, metavar="CARDS",
                     help="the attacker's own hand, comma-separated (4S,2C,JD): only the "
                          "defender's hand is then unknown")
    sky.add_argument("--defender-seen", type=_cards, metavar="CARDS", default=(),
                     help="cards of the defender's deck known to be out of its draw pile "
                          "(on the playmat, discarded), comma-separated")
    sky.add_argument("--preferred", action="store_true",
                     help="advanced game: the preferred attack (+1 damage, SA-M40)")
    fasa = p.add_argument_group(
        "FASA Crimson Skies target number (--fasa)",
        "exact odds of d10 rolls against a target number: a roll >= TN succeeds, a 10 always "
        "succeeds and a 1 always fails (FS-M01, FS-M02); give --tn, or a to-hit from its parts "
        "(FS-M73); e.g. dialtray odds --fasa --base 4 --deflection 2 --range 2 --dead-eye 6 "
        "(FS-T22: TN 2)")
    fasa.add_argument("--fasa", action="store_true", help="odds of a FASA target-number roll")
    fasa.add_argument("--tn", type=int_range(-30, 40), help="the target number, -30..40")
    fasa.add_argument("--rolls", type=int_range(1, 12), default=1,
                      help="independent rolls (one per gun, two doubling down), 1..12")
    fasa.add_argument("--base", type=int_range(1, 10), help="target's base to-hit number")
    fasa.add_argument("--deflection", type=int_range(0, 3), default=0,
                      help="deflection modifier 0..3 (FS-M74)")
    fasa.add_argument("--range", type=int_range(0, 12), default=0, dest="hexes",
                      help="range in hexes (FS-M75)")
    fasa.add_argument("--dead-eye", type=int_range(0, 10), default=0, help="Dead Eye skill")
    fasa.add_argument("--weapon", type=int_range(0, 10), default=0,
                      help="weapon modifier (rockets +1, harpoon +2)")
    fasa.add_argument("--shocked", action="store_true", help="+2 for shock (FS-M76)")
    fasa.add_argument("--no-automatic", action="store_true",
                      help="without the automatic 10 and 1 (to compare)")
    p.set_defaults(func=run)


def _frequency(text: str) -> str:
    """A Sky Ace frequency letter (SA-M05)."""
    t = text.strip().upper()
    if t not in ("E", "O", "R", "A"):
        raise argparse.ArgumentTypeError(f"a frequency is E, O, R or A, got {text!r}")
    return t


def _card(text: str) -> str:
    """A playing card: rank then suit (10H, QS) or JK."""
    from dialtray.rules.skyace.cards import card

    try:
        return card(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _cards(text: str) -> tuple[str, ...]:
    """Comma-separated playing cards (an empty text: none)."""
    return tuple(_card(t) for t in text.split(",") if t.strip())


def run_skyace(args: argparse.Namespace) -> int:
    from dialtray.rules.skyace.odds import AttackSpec, attack_odds

    if args.hand is not None and args.attack_hand is None:
        args.attack_hand = len(args.hand)
    need = ("attack_freq", "defence_freq", "attack_hand", "defence_hand")
    missing = ["--" + n.replace("_", "-") for n in need if getattr(args, n) is None]
    if missing:
        raise CommandError(f"--skyace needs {' and '.join(missing)}", 2)
    advanced = args.preferred or args.attack_bonus > 0 or args.defence_bonus > 0
    spec = AttackSpec(args.attack_freq, args.defence_freq, args.attack_hand, args.defence_hand,
                      args.attacker_card, args.target_card, args.attack_bonus,
                      args.defence_bonus, advanced, args.preferred,
                      defender_seen=args.defender_seen, attacker_hand=args.hand)
    t0 = time.perf_counter()
    try:
        o = attack_odds(spec)
    except ValueError as e:
        raise CommandError(f"--defender-seen / --defence-hand: {e}", 2) from None
    _print(skyace_lines(spec, o, (time.perf_counter() - t0) * 1000))
    return 0


def _given(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    return ["--" + n.replace("_", "-") for n in names if getattr(args, n) not in (None, False)]


def check(args: argparse.Namespace) -> None:
    """One way to describe the shot: --dice/--target, or the values and modifiers."""
    direct, values = _given(args, DIRECT), _given(args, FROM_VALUES)
    if direct and values:
        raise CommandError(f"argument {values[0]}: not allowed with {direct[0]}: give either "
                           "--dice and --target, or --gunnery and --silhouette (with "
                           "--rear-arc, --point-blank, --fate)", 2)
    if not direct and not values:
        raise CommandError("describe the shot: give either --dice and --target, or --gunnery "
                           "and --silhouette (see the example below --help)", 2)
    wanted = DIRECT if direct else ("gunnery", "silhouette")
    missing = [f"--{n}" for n in wanted if getattr(args, n) is None]
    if missing:
        have = f" (with {', '.join(direct or values)})" if direct or values else ""
        raise CommandError(f"missing {' and '.join(missing)}{have}: give either --dice and "
                           "--target, or --gunnery and --silhouette", 2)


def run_fasa(args: argparse.Namespace) -> int:
    from dialtray.rules.core.odds import tn_success, tn_successes
    from dialtray.rules.fasa.tn import to_hit_tn

    if (args.tn is None) == (args.base is None):
        raise CommandError("--fasa needs either --tn, or --base (with --deflection, --range, "
                           "--dead-eye, --weapon, --shocked) to work the to-hit TN out", 2)
    tn = args.tn if args.tn is not None else to_hit_tn(
        args.base, args.deflection, args.hexes, args.dead_eye, args.weapon, args.shocked)
    auto = not args.no_automatic
    dist = tn_successes(args.rolls, tn, automatic=auto) if args.rolls > 1 else None
    _print(tn_lines(tn, auto, tn_success(tn, automatic=auto), dist))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.skyace:
        return run_skyace(args)
    if args.fasa:
        return run_fasa(args)
    check(args)
    if args.dice is not None:
        dice, tn = args.dice, args.target
    else:
        dice, tn = shot_modifiers(
            args.gunnery,
            args.silhouette,
            rear_arc=args.rear_arc,
            point_blank=args.point_blank,
            fate=args.fate or 0,
        )
    t0 = time.perf_counter()
    o = shot_odds(
        dice, tn, defensive_fate=args.defensive_fate, clicks_to_shot_down=args.clicks_left
    )
    _print(shot_lines(dice, tn, o, args.defensive_fate, args.clicks_left,
                      (time.perf_counter() - t0) * 1000))
    return 0


def _print(lines: list[str]) -> None:
    print("\n".join(lines))
