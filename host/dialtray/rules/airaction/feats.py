"""Daring feats (seed 002 "Performing a Daring Feat", "Daring Feat Table"; AA-M66..M70)."""

from __future__ import annotations

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase
from dialtray.rules.airaction.rulebook import (
    FEAT_DISTRACTION,
    FEAT_RIDE,
    FEAT_WINGED,
    H_FEAT,
    H_FEAT_TABLE,
    XP_BAIL_OUT,
    XP_DISTRACTION,
    XP_RIDE,
    XP_SHOT_DOWN,
    XP_WINGED,
    Ctx,
    illegal,
)


class FeatRules(GameBase):
    """Daring feats (seed 002 "Performing a Daring Feat", "Daring Feat Table"; AA-M66..M70)."""

    def _feat_targets(self, pid: str) -> list[str]:
        s = self.state
        me = s.planes[pid]
        out = []
        for a, b in s.overlaps:
            other = b if a == pid else a if b == pid else None
            if other is None or not s.planes[other].in_play:
                continue
            if s.planes[other].owner != me.owner and other in s.clean and other not in out:
                out.append(other)
        return out

    def _offer_feats(self, c: Ctx) -> None:
        """AA-M66: an Ace whose final marker overlaps an opposing plane's with no collision."""
        s = self.state
        offers = [
            p
            for p in self._movers()
            if s.planes[p].ace is not None
            and p in s.clean
            and not (self.ace_values(p) or (0, 0, True))[2]
            and self._feat_targets(p)
        ]
        if offers:
            c.emit(ev.FeatOffered(tuple(offers)))

    def _r_feat(self, c: Ctx, a: ac.DaringFeat) -> None:
        """AA-M67: 2d6 + the Ace's attack value on the Daring Feat table (AA table 1)."""
        s = self.state
        if s.phase != "feats" or s.feat is not None or a.plane not in s.feat_offers:
            raise illegal(a, "no daring feat is open to this plane now", "AA-M66", H_FEAT)
        if not a.target:
            c.emit(ev.FeatDone(a.plane, "declined"))
            return
        if a.target not in self._feat_targets(a.plane):
            raise illegal(
                a, f"{a.target}'s final marker does not overlap without collision", "AA-M66", H_FEAT
            )
        vals = self.ace_values(a.plane)
        assert vals is not None
        total = sum(self._roll(c, 2, "daring feat", a.plane)) + vals[0]
        result, choices = self.feat_result(a.plane, a.target, total)
        c.emit(ev.FeatRolled(a.plane, a.target, total, result, choices if len(choices) > 1 else ()))
        if len(choices) <= 1:
            self._feat_effect(c, a.plane, a.target, choices[0] if choices else "missed")

    def feat_result(self, pid: str, target: str, total: int) -> tuple[str, tuple[str, ...]]:
        """AA table 1 by modified roll, with the choices each result leaves (AA-M68..M70)."""
        if total < FEAT_WINGED:
            return "Missed Opportunity", ()
        if total < FEAT_DISTRACTION:
            return "Winged 'Em", ("winged",)
        if total < FEAT_RIDE:
            return "Timely Distraction", ("distraction", "winged")
        ride_ok = (
            self.combat_values(pid)["rear_gunnery"] > 0 and self.state.planes[target].ace is None
        )
        return "Enjoy the Ride", (("ride",) if ride_ok else ()) + ("distraction", "winged")

    def _r_feat_choice(self, c: Ctx, a: ac.FeatChoice) -> None:
        s = self.state
        if s.feat is None or s.feat.plane != a.plane:
            raise illegal(a, "no daring feat result waits for a choice", "AA-M69", H_FEAT_TABLE)
        if a.choice not in s.feat.choices:
            raise illegal(
                a, f"this result allows {', '.join(s.feat.choices)}", "AA-M70", H_FEAT_TABLE
            )
        self._feat_effect(c, a.plane, s.feat.target, a.choice)

    def _feat_effect(self, c: Ctx, pid: str, target: str, choice: str) -> None:
        s = self.state
        pilot = s.planes[pid].pilot
        if choice == "winged":  # AA-M68
            self._damage(c, target, 1, "Winged 'Em")
            self._xp(c, pilot, XP_WINGED, "Winged 'Em")
        elif choice == "distraction":  # AA-M69
            c.emit(ev.RandomCardNext(target))
            self._xp(c, pilot, XP_DISTRACTION, "Timely Distraction")
        elif choice == "ride":  # AA-M70 with AA-A06
            owner = s.planes[pid].owner
            thrown = s.planes[target].pilot
            value = self.plane_value(target)
            c.emit(ev.Commandeered(pid, target, owner))
            c.emit(ev.PlaneRemoved(pid, "abandoned by its Ace (Enjoy the Ride)"))
            c.emit(ev.VPScored(owner, 2 * value, "shot down (Enjoy the Ride)", target))
            self._xp(c, pilot, XP_RIDE + XP_SHOT_DOWN, "Enjoy the Ride")
            if s.campaign:  # thrown pilot: bail out value 0, always survives (AA-A06)
                c.emit(ev.BailedOut(target, thrown, "none", 0, 0, True))
                self._xp(c, thrown, XP_BAIL_OUT, "bailed out")
        c.emit(ev.FeatDone(pid, choice))
