"""`dialtray odds`: exact distribution of hits and damage clicks for an Air Action shot."""

from __future__ import annotations

import argparse
import time
from typing import Any

from dialtray.rules.airaction.odds import shot_modifiers, shot_odds


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
    p.add_argument("--dice", type=int, help="number of attack dice")
    p.add_argument("--target", type=int, help="modified silhouette (capped at 6)")
    p.add_argument("--gunnery", type=int, help="front or rear gunnery value")
    p.add_argument("--silhouette", type=int, help="target's silhouette")
    p.add_argument("--rear-arc", action="store_true", help="+1 die (AA-M39)")
    p.add_argument("--point-blank", action="store_true", help="silhouette -1 (AA-M43)")
    p.add_argument("--fate", type=int, default=0, help="offensive fate value (AA-M62)")
    p.add_argument("--defensive-fate", action="store_true", help="target uses fate (AA-M63)")
    p.add_argument("--clicks-left", type=int, help="clicks before the target is shot down")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.dice is not None and args.target is not None:
        dice, tn = args.dice, min(6, args.target)
    elif args.gunnery is not None and args.silhouette is not None:
        dice, tn = shot_modifiers(
            args.gunnery,
            args.silhouette,
            rear_arc=args.rear_arc,
            point_blank=args.point_blank,
            fate=args.fate,
        )
    else:
        print("give --dice and --target, or --gunnery and --silhouette")
        return 2
    t0 = time.perf_counter()
    o = shot_odds(
        dice, tn, defensive_fate=args.defensive_fate, clicks_to_shot_down=args.clicks_left
    )
    ms = (time.perf_counter() - t0) * 1000
    fate = ", defensive fate (natural sixes only)" if args.defensive_fate else ""
    print(f"{dice} dice, hit on {max(1, tn)}+{fate}   (exact, {ms:.3f} ms)")
    print(f"{'k':>3} {'P(hits=k)':>12} {'P(hits>=k)':>12} {'P(clicks=k)':>12}")
    for k in range(len(o.hits)):
        pc = o.clicks[k] if k < len(o.clicks) else 0
        print(f"{k:>3} {float(o.hits[k]):>12.6f} {float(o.at_least(k)):>12.6f} {float(pc):>12.6f}")
    eh, ec = float(o.expected_hits), float(o.expected_clicks)
    print(f"expected hits {eh:.4f}, expected clicks {ec:.4f}")
    if args.clicks_left is not None:
        print(f"P(shot down) = {o.shot_down} = {float(o.shot_down):.6f}")
    return 0
