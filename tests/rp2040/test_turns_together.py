"""Two turns of one dial sent together move it twice, one state at a time (the emulated Pico's
bench, ``devices.mjs``).

The emulated chip takes the bench's commands between slices of its time, so two turns a host
makes a moment apart (a bot's chunks, a clicker) often reach it at one chip instant. The bench
timed each turn from that instant on its own: an encoder's two moves put their transitions on
the same instants, two at a time, and the PIO saw its contacts jump two states (00 -> 11),
which counts nothing (two clicks turned, none counted); an AS5600's two rotations both set
the magnet from the same start, and the dial ended one click short of the two. A real shaft
passes every state one at a time, and a hand's second turn goes on from where its first
leaves the dial. Here the bench's own device models run under Node with the chip's clock
stepped by the test: every instant something changes, the contacts have moved one state at
most (a PIO sampling between instants sees each), and the magnet ends where both turns
leave it. (The encoder's test fails on the old bench, every change a two-state jump; the
magnet's turn was the harness's own code there, measured on the emulated tray instead: two
+1 turns sent together were reported as one click, as an encoder's two as none.)
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from dialtray.virtual.rp2040 import HERE, node_binary

SCRIPT = r"""
import { AS5600, Encoder } from %(devices)s;
const chip = { clock: { nanos: 5e6 }, pins: {}, drive(pin, v) { this.pins[pin] = v; } };
const alarms = [];
const at = (ns, fn) => alarms.push([chip.clock.nanos + ns, alarms.length, fn]);
const run = (sample) => {  // every alarm in time order; sample() after each instant
  alarms.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = [];
  while (alarms.length) {
    const t = alarms[0][0];
    while (alarms.length && alarms[0][0] === t) alarms.shift()[2]();
    chip.clock.nanos = t;
    out.push(sample());
  }
  return out;
};
const state = () => (chip.pins[6] === false ? 0 : 1) | (chip.pins[7] === false ? 0 : 2);
const gray = [0, 2, 3, 1];  // counting up: 00 -> 10 -> 11 -> 01 (B<<1|A)
const out = {};
if (%(part)s === "encoder") {
const e = new Encoder(chip, 6, 7);
const bounce = %(bounce)s;
e.move(4, 20e6, bounce, at);  // two clicks of a one-pulse encoder, sent at one instant
e.move(4, 20e6, bounce, at);
let last = state(), legal = 0, moves = 0;
for (const s of run(state)) {
  if (s === last) continue;
  moves++;
  const step = (gray.indexOf(s) - gray.indexOf(last) + 4) %% 4;
  if (step === 1 || step === 3) legal++;
  last = s;
}
Object.assign(out, { count: e.count, moves, legal });
} else {
const m = new AS5600(0);
m.rotate(4096 / 12, 8, chip.clock.nanos, at);  // two clicks of a 12-click dial, together
m.rotate(4096 / 12, 8, chip.clock.nanos, at);
run(() => 0);
out.angle = m.angle;
}
console.log(JSON.stringify(out));
"""


def _model(part: str, bounce: bool = False) -> dict[str, float]:
    node = node_binary()
    if node is None:
        pytest.skip("no Node")
    devices = json.dumps((HERE / "devices.mjs").resolve().as_uri())
    out = subprocess.run([node, "--input-type=module", "-e", SCRIPT % {
        "devices": devices, "part": json.dumps(part), "bounce": json.dumps(bounce)}],
        capture_output=True, text=True, timeout=60, cwd=Path(HERE))
    assert out.returncode == 0, out.stderr
    got: dict[str, float] = json.loads(out.stdout)
    return got


@pytest.mark.parametrize("bounce", [False, True])
def test_an_encoders_two_moves_sent_together_pass_every_state_one_at_a_time(
        bounce: bool) -> None:
    got = _model("encoder", bounce)
    assert got["count"] == 8, got  # both moves, every transition made
    assert got["moves"] > 0 and got["legal"] == got["moves"], \
        f"the contacts jumped two states at one instant: {got}"


def test_a_magnets_two_turns_sent_together_turn_it_two_clicks() -> None:
    got = _model("magnet")
    assert round(got["angle"]) == round(2 * 4096 / 12), got  # both clicks, not one
