"""An action out of its step is refused with the rule of the step it belongs to.

A shot typed during Set Throttle was refused citing AA-M35 "Collisions with Other Planes"; the
rule that says when shots happen is AA-M40 "Combat" (firing order: once all active planes have
moved, the aggressor picks a plane to shoot). Each action here is tried in the throttle step.
"""

from __future__ import annotations

import pytest
from aa_helpers import new_game, run
from dialtray.rules.core.errors import IllegalActionError

# action typed in the throttle step -> (its step's rule, that rule's heading in seed 002)
OUT_OF_STEP = {
    "shoot A1 front B1": ("AA-M40", "Combat"),
    "pass A1": ("AA-M40", "Combat"),
    "plan A1 Cruise straight": ("AA-M25", "Navigation"),
    "moved A1": ("AA-M30", "Movement"),
    "overlap A1 B1": ("AA-M32", "Collisions with Other Planes"),
    "overlaps-done": ("AA-M32", "Collisions with Other Planes"),
}


@pytest.mark.parametrize("line", list(OUT_OF_STEP))
def test_an_action_out_of_step_cites_its_own_steps_rule(line: str) -> None:
    g, d = new_game()
    run(g, d, "first-player | 6 6 1 1", "deploy P1", "deploy P2", "initiative | 6 6 1 1")
    assert g.state.phase == "throttle"
    with pytest.raises(IllegalActionError) as refused:
        run(g, d, line)
    assert (refused.value.mechanic, refused.value.rule.heading) == OUT_OF_STEP[line]
    assert "throttle step" in refused.value.reason
