"""The PIO programs in dialrig.pio_programs: assembled right, and doing what the firmware needs.

(a) The hand-assembled opcode tables equal what an independent assembler (adafruit_pioasm)
    makes of the pioasm source below, and the rp2 program objects carry the same wrap/shift
    configuration.
(b) The quadrature decoder, run instruction by instruction in the rp2040-pio-emulator with a
    simulated encoder on its input pins, counts every transition in both directions, and is
    lossless for any sequence when transitions are at least QUAD_MAX_LOOP_CYCLES (10) state
    machine cycles apart — and loses counts at 9.
(c) The WS2812 program, emulated, puts bytes on the wire that decode back (by pulse width) to
    the bytes fed in, at 10 cycles per bit.

The emulation helpers here are also used by bench/bench_pio.py.
"""

# No `from __future__ import annotations`: pioemu reads input_source's annotation at runtime.
import itertools
import random
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import adafruit_pioasm
import pytest
from pioemu import ShiftRegister, State, emulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))

from dialrig import config  # noqa: E402
from dialrig import pio_programs as pp  # noqa: E402

# ---- pioasm sources (pico-examples, comments trimmed) ---------------------------------------

QUADRATURE_PIOASM = """
; raspberrypi/pico-examples pio/quadrature_encoder/quadrature_encoder.pio
.program quadrature_encoder
.origin 0
    jmp update      ; 00 state, read 00
    jmp decrement   ; read 01
    jmp increment   ; read 10
    jmp update      ; read 11
    jmp increment   ; 01 state, read 00
    jmp update      ; read 01
    jmp update      ; read 10
    jmp decrement   ; read 11
    jmp decrement   ; 10 state, read 00
    jmp update      ; read 01
    jmp update      ; read 10
    jmp increment   ; read 11
    jmp update      ; 11 state, read 00
    jmp increment   ; read 01
decrement:
    jmp y--, update ; read 10
.wrap_target
update:
    mov isr, y      ; read 11
    push noblock
sample_pins:
    out isr, 2
    in pins, 2
    mov osr, isr
    mov pc, isr
increment:
    mov y, ~y
    jmp y--, increment_cont
increment_cont:
    mov y, ~y
.wrap
"""

WS2812_PIOASM = """
; raspberrypi/pico-examples pio/ws2812/ws2812.pio with T1 = 3, T2 = 3, T3 = 4
.program ws2812
.side_set 1
.wrap_target
bitloop:
    out x, 1       side 0 [3]
    jmp !x do_zero side 1 [2]
do_one:
    jmp  bitloop   side 1 [2]
do_zero:
    nop            side 0 [2]
.wrap
"""

QUAD_PRELOAD_PIOASM = """
set y, 0
mov isr, null
in pins, 2
mov osr, isr
"""

# ---- emulation helpers ------------------------------------------------------------------------

# Pin states (B << 1 | A) in the order the decoder counts up: 00 -> 10 -> 11 -> 01 -> 00.
COUNT_UP = (0b00, 0b10, 0b11, 0b01)


def signed32(word: int) -> int:
    return word - (1 << 32) if word & (1 << 31) else word


class Encoder:
    """A quadrature encoder on pins 0 (A) and 1 (B): transition k happens at clock times[k]."""

    def __init__(self, steps: Sequence[int], times: Sequence[int]) -> None:
        assert len(steps) == len(times)
        assert all(s in (1, -1) for s in steps)
        self.times = list(times)
        self.positions = [0]
        for s in steps:
            self.positions.append(self.positions[-1] + s)
        self._next = 0

    @property
    def final(self) -> int:
        return self.positions[-1]

    def pins(self, state: State) -> int:
        while self._next < len(self.times) and self.times[self._next] <= state.clock:
            self._next += 1
        return COUNT_UP[self.positions[self._next] % 4]


def run_quadrature(encoder: Encoder, until: int) -> tuple[int, int, int]:
    """Run the decoder until clock `until` with a host that drains the RX FIFO after every
    instruction. Returns (last count pushed, count in Y, instructions executed)."""
    last = None
    steps = 0
    for _, state in emulate(
        list(pp.QUADRATURE),
        stop_when=lambda _op, s: s.clock >= until,
        input_source=encoder.pins,
        shift_isr_right=False,  # IN shifts left: previous state moves up two bits
        shift_osr_right=True,  # OUT ISR, 2 takes the previous state from the low bits
        wrap_target=pp.QUAD_WRAP_TARGET,
        wrap_top=pp.QUAD_WRAP,
    ):
        steps += 1
        if state.receive_fifo:
            last = state.receive_fifo[-1]
            state.receive_fifo.clear()  # the host reads the FIFO
    assert last is not None, "the decoder never pushed a count"
    return signed32(last), signed32(state.y_register), steps


def count_at_rate(steps: Sequence[int], gap: int, phase: int = 0) -> tuple[int, int]:
    """Transitions every `gap` SM cycles starting at `phase`: (count, true position)."""
    times = [phase + (k + 1) * gap for k in range(len(steps))]
    enc = Encoder(steps, times)
    count, y, _ = run_quadrature(enc, times[-1] + 4 * pp.QUAD_MAX_LOOP_CYCLES)
    assert count == y
    return count, enc.final


def lossless_at(gap: int, rng: random.Random, walks: int = 6, length: int = 40) -> bool:
    """True if every run at this gap counted exactly: both steady directions at every phase,
    every direction pattern of 5 steps at every phase, and random walks."""
    cases: list[tuple[list[int], int]] = []
    for phase in range(gap):
        cases.append(([1] * length, phase))
        cases.append(([-1] * length, phase))
    for pattern in range(32):
        steps = [1 if pattern >> i & 1 else -1 for i in range(5)]
        cases.extend((steps * 3, phase) for phase in range(gap))
    for _ in range(walks):
        cases.append(([rng.choice((1, -1)) for _ in range(length)], rng.randrange(gap)))
    return all(count == final for count, final in (count_at_rate(s, gap, p) for s, p in cases))


def smallest_lossless_gap(rng: random.Random, start: int = 6) -> int:
    """The smallest transition spacing (SM cycles) at which no count is lost."""
    gap = start
    while not lossless_at(gap, rng):
        gap += 1
    return gap


def dma_word(byte: int) -> int:
    """A byte-wide DMA write to the TX FIFO: the RP2040 replicates narrow writes on the bus."""
    return byte * 0x01010101


def put_word(byte: int) -> int:
    """hw_rp2's fallback without DMA: sm.put(frame, 24)."""
    return byte << 24


def run_ws2812(
    data: bytes, extra_cycles: int = 200, word: Callable[[int], int] = dma_word
) -> list[tuple[int, int]]:
    """Feed `data` (one byte per FIFO word) to the WS2812 program; return the data line's
    edges as (clock, level)."""
    start = State(transmit_fifo=deque(word(b) for b in data), pin_directions=1)
    edges: list[tuple[int, int]] = []
    level = 0
    for before, after in emulate(
        list(pp.WS2812),
        stop_when=lambda _op, s: s.clock >= pp.WS2812_CYCLES_PER_BIT * 8 * len(data)
        + extra_cycles,
        initial_state=start,
        auto_pull=True,
        pull_threshold=8,
        shift_osr_right=False,
        side_set_base=0,
        side_set_count=1,
        wrap_target=pp.WS2812_WRAP_TARGET,
        wrap_top=pp.WS2812_WRAP,
    ):
        value = after.pin_values & 1
        if value != level:
            edges.append((before.clock, value))  # side-set acts when the instruction starts
            level = value
    return edges


def decode_ws2812(edges: Sequence[tuple[int, int]]) -> tuple[bytes, list[int], list[int]]:
    """Bytes from pulse widths (T1H = 6 cycles -> 1, T0H = 3 cycles -> 0); also the high
    times and bit periods seen."""
    assert edges[0][1] == 1 and len(edges) % 2 == 0, "the line must end low"
    rises = [t for t, v in edges if v == 1]
    falls = [t for t, v in edges if v == 0]
    highs = [f - r for r, f in zip(rises, falls, strict=True)]
    periods = [b - a for a, b in itertools.pairwise(rises)]
    t1h = pp.WS2812_T1 + pp.WS2812_T2
    t0h = pp.WS2812_T1
    bits = []
    for h in highs:
        assert h in (t0h, t1h), f"pulse of {h} cycles is neither T0H nor T1H"
        bits.append(1 if h == t1h else 0)
    out = bytes(
        int("".join(str(b) for b in bits[i : i + 8]), 2) for i in range(0, len(bits), 8)
    )
    return out, highs, periods


# ---- (a) the tables against an independent assembler -----------------------------------------


@pytest.mark.parametrize(
    ("source", "table", "wrap_target", "wrap"),
    [
        (QUADRATURE_PIOASM, pp.QUADRATURE, pp.QUAD_WRAP_TARGET, pp.QUAD_WRAP),
        (WS2812_PIOASM, pp.WS2812, pp.WS2812_WRAP_TARGET, pp.WS2812_WRAP),
    ],
    ids=["quadrature", "ws2812"],
)
def test_table_matches_adafruit_pioasm(
    source: str, table: Sequence[int], wrap_target: int, wrap: int
) -> None:
    program = adafruit_pioasm.Program(source)
    assert [f"{w:04x}" for w in program.assembled] == [f"{w:04x}" for w in table]
    assert program.pio_kwargs["wrap_target"] == wrap_target
    assert program.pio_kwargs["wrap"] == wrap


def test_quadrature_layout() -> None:
    program = adafruit_pioasm.Program(QUADRATURE_PIOASM)
    assert program.pio_kwargs["offset"] == pp.QUAD_ORIGIN == 0
    assert len(pp.QUADRATURE) == 24
    # the computed jump reaches table entries 0..15 only; 14 and 15 are code as well
    assert pp.QUAD_DECREMENT == 14 and pp.QUAD_UPDATE == 15 and pp.QUAD_INCREMENT == 21


def test_budget_fits_both_pios() -> None:
    assert len(pp.QUADRATURE) + len(pp.WS2812) <= pp.PIO_WORDS  # PIO0
    assert len(pp.QUADRATURE) <= pp.PIO_WORDS  # PIO1
    # 7 quadrature state machines (PIO0 SM0-2, PIO1 SM0-3) + the LED one (PIO0 SM3) = all 8
    assert config.MAX_QUADRATURE_DIALS == len(config.PINS["quadrature"]) == 7


def test_quadrature_pins_suit_in_pins_2() -> None:
    # `in pins, 2` reads in_base (A) and in_base + 1 (B)
    for a, b in config.PINS["quadrature"]:
        assert b == a + 1


def test_preload_instructions_match_adafruit_pioasm() -> None:
    assert list(adafruit_pioasm.assemble(QUAD_PRELOAD_PIOASM)) == list(pp.QUAD_PRELOAD)
    assert adafruit_pioasm.assemble("nop")[0] == pp.NOP


def test_rp2_program_objects() -> None:
    quad = pp.quadrature_program()
    assert list(quad[pp.PROG_DATA]) == list(pp.QUADRATURE)
    assert quad[pp.PROG_DATA].typecode == "H"
    assert quad[pp.PROG_OFFSET_PIO0] == quad[pp.PROG_OFFSET_PIO1] == -1
    execctrl, shiftctrl = quad[pp.PROG_EXECCTRL], quad[pp.PROG_SHIFTCTRL]
    # RP2040 datasheet SMx_EXECCTRL: WRAP_TOP 16:12, WRAP_BOTTOM 11:7
    assert execctrl >> 12 & 0x1F == pp.QUAD_WRAP and execctrl >> 7 & 0x1F == pp.QUAD_WRAP_TARGET
    # SMx_SHIFTCTRL: OUT_SHIFTDIR bit 19 = right, IN_SHIFTDIR bit 18 = left, no autopush/pull
    assert shiftctrl == 1 << 19
    assert quad[pp.PROG_OUT_PINS:] == [None, None, None]
    assert len(quad) == pp.PROG_FIELDS == 9  # MicroPython >= 1.26 (host default)

    ws = pp.ws2812_program()
    assert ws[pp.PROG_EXECCTRL] == pp.WS2812_WRAP << 12 | pp.WS2812_WRAP_TARGET << 7
    shift = ws[pp.PROG_SHIFTCTRL]
    assert shift >> 30 == pp.JOIN_TX  # FJOIN_TX: 8-deep TX FIFO
    assert shift >> 25 & 0x1F == 8  # PULL_THRESH: one byte per word
    assert shift >> 19 & 1 == pp.SHIFT_LEFT  # MSB first
    assert shift >> 17 & 1 == 1  # AUTOPULL
    assert ws[pp.PROG_SIDESET_PINS] == pp.OUT_LOW
    assert pp.WS2812_SM_HZ == 8_000_000

    pad = pp.padding_program(5)
    assert list(pad[pp.PROG_DATA]) == [pp.NOP] * 5


def test_program_objects_are_fresh() -> None:
    # the rp2 port writes load offsets into the object: two Boards must not share one
    assert pp.quadrature_program() is not pp.quadrature_program()


# ---- (b) the quadrature decoder in the emulator -----------------------------------------------


def test_counts_every_transition_up_and_down() -> None:
    assert count_at_rate([1] * 40, 12) == (40, 40)
    assert count_at_rate([-1] * 40, 12) == (-40, -40)
    assert count_at_rate([1] * 13 + [-1] * 20, 12) == (-7, -7)


def test_negative_counts_are_twos_complement() -> None:
    count, y, _ = run_quadrature(Encoder([-1] * 3, [20, 40, 60]), 100)
    assert count == y == -3


def run_preloaded(encoder: Encoder, until: int, y: int = 12345) -> int:
    """Execute QUAD_PRELOAD as hw_rp2 does (sm.exec before sm.active), starting from a dirty
    Y and OSR, then run the decoder from address 0; returns the last count pushed."""
    dirty = State(y_register=y, output_shift_register=ShiftRegister(0b1001, 0))
    preloaded = dirty
    for _, preloaded in emulate(  # noqa: B007 (the last state is the result)
        list(pp.QUAD_PRELOAD),
        stop_when=lambda _op, s: s.clock >= len(pp.QUAD_PRELOAD),
        initial_state=dirty,
        input_source=encoder.pins,
        shift_isr_right=False,
    ):
        pass
    start = replace(preloaded, program_counter=0, clock=0)
    last = None
    for _, state in emulate(
        list(pp.QUADRATURE),
        stop_when=lambda _op, s: s.clock >= until,
        initial_state=start,
        input_source=encoder.pins,
        shift_isr_right=False,
        wrap_target=pp.QUAD_WRAP_TARGET,
        wrap_top=pp.QUAD_WRAP,
    ):
        if state.receive_fifo:
            last = state.receive_fifo.pop()
            state.receive_fifo.clear()
    assert last is not None
    return signed32(last)


def resting(position: int) -> Encoder:
    enc = Encoder([], [])
    enc.positions = [position]
    return enc


def test_resting_encoder_without_preload_can_count_a_phantom_step() -> None:
    # OSR starts as 00: a dial resting in 01 or 10 reads as one step at power-up
    counts = [run_quadrature(resting(p), 200)[0] for p in range(4)]
    assert counts == [0, 1, 0, -1]


def test_preload_starts_from_zero_in_every_resting_state() -> None:
    assert [run_preloaded(resting(p), 200) for p in range(4)] == [0, 0, 0, 0]


def test_preload_then_counts_from_any_starting_state() -> None:
    for p in range(4):
        steps = [1] * 5 + [-1] * 12
        enc = Encoder(steps, [30 + 15 * k for k in range(len(steps))])
        enc.positions = [p + x for x in enc.positions]
        assert run_preloaded(enc, 30 + 15 * len(steps) + 50) == -7


def test_random_walks_at_random_slow_rates() -> None:
    rng = random.Random(20260101)
    for _ in range(15):
        steps = [rng.choice((1, -1)) for _ in range(60)]
        t = 0
        times = []
        for _ in steps:
            t += rng.randint(pp.QUAD_MAX_LOOP_CYCLES, 40)  # never closer than 10 cycles
            times.append(t)
        enc = Encoder(steps, times)
        count, y, _ = run_quadrature(enc, times[-1] + 50)
        assert count == y == enc.final


def test_sampling_interval_is_at_most_ten_cycles() -> None:
    """Why 10 is lossless: the pins are sampled once per loop and the loop is never longer
    than 10 cycles, so two transitions >= 10 cycles apart never fall between two samples."""
    rng = random.Random(7)
    steps = [rng.choice((1, -1)) for _ in range(80)]
    times = [20 * (k + 1) + rng.randrange(10) for k in range(len(steps))]
    samples = []
    enc = Encoder(steps, times)
    for before, _ in emulate(
        list(pp.QUADRATURE),
        stop_when=lambda _op, s: s.clock >= times[-1] + 40,
        input_source=enc.pins,
        shift_isr_right=False,
        wrap_target=pp.QUAD_WRAP_TARGET,
        wrap_top=pp.QUAD_WRAP,
    ):
        if before.program_counter == 18:  # in pins, 2
            samples.append(before.clock)
    gaps = {b - a for a, b in itertools.pairwise(samples)}
    assert max(gaps) == pp.QUAD_MAX_LOOP_CYCLES == 10  # increment
    assert gaps <= {6, 7, 8, 10}  # no change 6/7, decrement 7/8


def test_lossless_at_ten_cycles_per_transition() -> None:
    assert lossless_at(pp.QUAD_MAX_LOOP_CYCLES, random.Random(1))


def test_loses_counts_at_nine_cycles_per_transition() -> None:
    count, final = count_at_rate([1] * 60, pp.QUAD_MAX_LOOP_CYCLES - 1)
    assert count < final  # a steady spin outruns the 10-cycle increment loop
    assert not lossless_at(pp.QUAD_MAX_LOOP_CYCLES - 1, random.Random(1))


def test_smallest_lossless_gap_is_ten() -> None:
    assert smallest_lossless_gap(random.Random(3), start=8) == 10


def host_reads(encoder: Encoder, until: int, reads: dict[int, int]) -> list[int]:
    """Run the decoder with a host that leaves the RX FIFO alone except at the clock times in
    `reads`, where it takes that many words (one per 50 cycles: a CPU is slow next to PIO).
    Returns the words read, in order."""
    schedule = sorted(t + 50 * i for t, n in reads.items() for i in range(n))
    got: list[int] = []
    for _, state in emulate(
        list(pp.QUADRATURE),
        stop_when=lambda _op, s: s.clock >= until,
        input_source=encoder.pins,
        shift_isr_right=False,
        wrap_target=pp.QUAD_WRAP_TARGET,
        wrap_top=pp.QUAD_WRAP,
    ):
        while schedule and state.clock >= schedule[0]:
            schedule.pop(0)
            assert state.receive_fifo, "the host would block on an empty FIFO"
            got.append(signed32(state.receive_fifo.popleft()))
    return got


def test_fifo_holds_stale_counts_until_drained() -> None:
    """Why quad_count reads the FIFO's level and then one word more: push noblock drops new
    counts while the FIFO is full, so its four words date from when it last filled."""
    enc = Encoder([1] * 7, [200 + 20 * k for k in range(7)])
    words = host_reads(enc, 2000, {1000: 4 + 1})  # level (full: 4) + 1, as quad_count
    assert words[:4] == [0, 0, 0, 0]  # pushed before the dial moved
    assert words[4] == 7  # pushed after the first read freed a slot: current


# ---- (c) WS2812 ------------------------------------------------------------------------------


def test_ws2812_waveform_decodes_to_the_bytes_sent() -> None:
    data = bytes([0x00, 0xFF, 0xA5, 0x3C, 0x81, 0x7E])
    edges = run_ws2812(data)
    decoded, highs, periods = decode_ws2812(edges)
    assert decoded == data
    assert set(periods) == {pp.WS2812_CYCLES_PER_BIT}  # 800 kHz at 8 MHz
    assert set(highs) == {3, 6}  # 375 ns / 750 ns at 8 MHz
    assert edges[-1][1] == 0  # latched: the line idles low once the FIFO is empty


@pytest.mark.parametrize("word", [dma_word, put_word], ids=["dma", "put"])
def test_ws2812_random_grb_frame(word: Callable[[int], int]) -> None:
    rng = random.Random(5)
    frame = bytes(rng.randrange(256) for _ in range(3 * 4))  # 4 LEDs, GRB
    decoded, _, _ = decode_ws2812(run_ws2812(frame, word=word))
    assert decoded == frame


def test_ws2812_line_low_until_data_arrives() -> None:
    edges = run_ws2812(b"")
    assert edges == []  # stalled on an empty FIFO, side-setting 0: the latch level
