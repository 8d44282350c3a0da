"""Numbers and headings of the Air Action rules (seed 002), shared by the rule handlers.

Every number here is the rule text's own (tables 1, 3, 4, 5 of rules-inventory §4.3); every
refusal quotes one of the seed's headings with the mechanic id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Emit

if TYPE_CHECKING:
    from dialtray.rules.airaction.events import GameSetup

# Headings of the seed text, quoted in every refusal.
H_PILOT = "Pilot and Plane"
H_CHECK = "Pilot Checks"
H_SQUAD = "Create a Squadron"
H_SKIES = "Hit the Skies!"
H_INIT = "Determine Initiative"
H_THROTTLE = "Set Throttle"
H_NAV = "Navigation"
H_MOVE = "Movement"
H_COLL = "Collisions with Other Planes"
H_COMBAT = "Combat"
H_OBST = "Obstacles"
H_END = "Ending the Game"
H_VICTORY = "Victory!"
H_DISENGAGE = "Disengaging"
H_ACES = "Using Crimson Skies: Aces Characters in the Crimson Skies: Air Action Game"
H_FATE = "Fate"
H_FEAT = "Performing a Daring Feat"
H_FEAT_TABLE = "Daring Feat Table"
H_CAMPAIGN = "Playing a Crimson Skies: Air Action Campaign"
H_XP = "Gaining Experience"
H_BAIL = "Bailing Out"
H_HEROIC = "Heroic Acts"
H_ETIQUETTE = "Crimson Skies Etiquette"

CRITICAL_FAILURE = 2  # AA-M07
MAX_COUNTDOWN = 10  # AA-M22 "start counting down from ten"
SAFE_THROTTLE = 1  # AA-M19
CHECKED_THROTTLE = 2  # AA-M20
MIN_ACE_BUILD = 300  # AA-M10 "should be" at least 300: a warning unless strict (D-AA-20)
BUILD_STEP = 100  # AA-M08
DISENGAGE_CARDS = ("Cruise", "Glide")  # AA-M59

# AA table 1, Daring Feat table (AA-M67..M70)
FEAT_WINGED = 9
FEAT_DISTRACTION = 13
FEAT_RIDE = 15

# AA table 3 (AA-M74)
XP_SHOT_DOWN = 100
XP_BAIL_OUT = 25
XP_SURVIVE_WIN = 25
XP_WINGED = 10
XP_DISTRACTION = 15
XP_RIDE = 50
# AA-M75 "surviving serious collisions": no value in the text (DATA MISSING). The game setting
# ``collision_survival_xp`` (log header ``CollisionXP:``) holds it; this is its default (D-AA-17).
XP_SERIOUS_COLLISION_DEFAULT = 0

# AA table 4 (AA-M79) and AA table 5 (AA-M80)
BAIL_MODIFIER = {"rookie": 0, "veteran": 1, "ace": 1, "double_ace": 2, "legend": 3}
HEROIC = {"none": (0, 0), "one-memento": (1, 25), "two-mementos": (2, 50), "crash-site": (3, 100)}

DISPUTE_ALLOWED_FROM = 4  # AA-M84: 1-3 not allowed, 4-6 allowed


def build_total_warnings(setup: GameSetup) -> list[str]:
    """AA-M10: "the build total should be at least 300" when Aces fly. The rule says *should*,
    so a lower total is a warning (an error only with ``strict_build_total``, D-AA-20)."""
    if setup.build_total >= MIN_ACE_BUILD or not any(p.ace for p in setup.planes):
        return []
    return [
        f"AA-M10 {H_ACES!r}: with Aces the build total should be at least {MIN_ACE_BUILD}, "
        f"not {setup.build_total} (StrictBuildTotal: yes makes this an error)"
    ]


def illegal(action: object, reason: str, mechanic: str, heading: str) -> IllegalActionError:
    text = action.text() if hasattr(action, "text") else str(action)
    return IllegalActionError(text, reason, mechanic, heading)


@dataclass
class Ctx:
    emit: Emit
    action: object
