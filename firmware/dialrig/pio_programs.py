# dialrig.pio_programs — the PIO programs, hand-assembled once for the Pico and the emulator.
#
# Why opcode tables instead of `@rp2.asm_pio`: the decorator only exists on the rp2 port, so a
# program written with it can be neither unit-tested on the host nor run in the PIO emulator.
# Here every program is a tuple of 16-bit opcodes (each with its pioasm mnemonic alongside); the
# Pico loads exactly these words through `rp2_program()`, the tests run exactly these words in the
# rp2040-pio-emulator, and a test checks them against an independent assembler (adafruit_pioasm)
# fed with the pioasm text. One source of truth, three consumers.
#
# PIO budget (RP2040: two PIO blocks, each 32 instruction words and 4 state machines):
#   PIO0  quadrature (24 words at origin 0) + WS2812 (4 words)  = 28/32 words
#         SM0-2 quadrature dials 0-2, SM3 the LED dice (WS2812)
#   PIO1  quadrature (24 words at origin 0)                     = 24/32 words
#         SM0-3 quadrature dials 3-6
#   => 7 quadrature state machines + 1 LED state machine = all 8 state machines
#      (config.MAX_QUADRATURE_DIALS). The quadrature program uses computed jumps (`mov pc, isr`)
#      into its first 16 words, so it must sit at address 0 of its PIO block: see
#      hw_rp2.load_at_origin for how that is arranged with MicroPython's top-down allocator.
#
# Kept in the subset of Python that MicroPython and CPython both run.
from array import array

# rp2.PIO constants (same values as the rp2 port exposes; repeated so the host can import this).
SHIFT_LEFT = 0
SHIFT_RIGHT = 1
JOIN_NONE = 0
JOIN_TX = 1
JOIN_RX = 2
OUT_LOW = 2
OUT_HIGH = 3

# Field indices of the program object `rp2.asm_pio` returns (ports/rp2/modules/rp2.py). The
# layout is the running MicroPython's, not a copy of one version's: since v1.26 the list has an
# offset for every PIO block the chip family can have (PIO0, PIO1, PIO2: 9 fields on every
# board), before that only PIO0 and PIO1 (8 fields), and a hand-built list of the wrong length
# is refused at start-up ("requested length 9 but object has length 8"). So on the rp2 port
# `program_layout()` asks rp2.asm_pio itself: it assembles a two-word probe whose EXECCTRL has a
# known value and finds where each field sits. Elsewhere (the host, the unix port) it is the
# layout of the MicroPython this project targets (v1.28: 9 fields).
#   [data array('H'), offset in PIO0, offset in PIO1, (offset in PIO2,) EXECCTRL, SHIFTCTRL,
#    out_init, set_init, sideset_init]
PROG_DATA = 0
PROG_OFFSET_PIO0 = 1
PROG_OFFSET_PIO1 = 2
_PROBE_WRAP = 1  # the probe's .wrap and .wrap_target: EXECCTRL = 1 << 12 | 1 << 7
_PROBE_EXECCTRL = _PROBE_WRAP << 12 | _PROBE_WRAP << 7
HOST_OFFSETS = 3  # PIO blocks the program list has an offset for on the targeted MicroPython


def program_layout():
    """How many PIO offsets the running MicroPython's program list holds (2 before v1.26, 3
    since), read from a program rp2.asm_pio builds; HOST_OFFSETS where there is no rp2 module.

    Raises ValueError if the probe's EXECCTRL is not found: a port whose program layout this
    module does not know must fail at boot naming why, not load words with wrong settings."""
    import sys

    if sys.platform != "rp2":  # (the host may have an unrelated package named rp2)
        return HOST_OFFSETS
    import rp2

    @rp2.asm_pio()
    def probe():  # asm_pio's own names: not Python's
        nop()  # type: ignore[name-defined,unused-ignore]  # noqa: F821
        wrap_target()  # type: ignore[name-defined,unused-ignore]  # noqa: F821
        nop()  # type: ignore[name-defined,unused-ignore]  # noqa: F821
        wrap()  # type: ignore[name-defined,unused-ignore]  # noqa: F821

    fields = list(probe)
    if _PROBE_EXECCTRL not in fields:
        raise ValueError("rp2.asm_pio program layout not understood: %r" % (fields,))
    return fields.index(_PROBE_EXECCTRL) - PROG_OFFSET_PIO0


PROG_OFFSETS = program_layout()
PROG_EXECCTRL = PROG_OFFSET_PIO0 + PROG_OFFSETS
PROG_SHIFTCTRL = PROG_EXECCTRL + 1
PROG_OUT_PINS = PROG_EXECCTRL + 2
PROG_SET_PINS = PROG_EXECCTRL + 3
PROG_SIDESET_PINS = PROG_EXECCTRL + 4
PROG_FIELDS = PROG_EXECCTRL + 5

PIO_WORDS = 32  # instruction memory per PIO block

NOP = 0xA042  # mov y, y

# ---- Quadrature decoder ------------------------------------------------------------------------
# raspberrypi/pico-examples pio/quadrature_encoder/quadrature_encoder.pio (BSD-3-Clause, (c) 2023
# Raspberry Pi Ltd): counts every transition (4 per quadrature cycle) in either direction.
#
# ISR <- (previous AB << 2) | current AB is a 4-bit index; `mov pc, isr` jumps into the 16-entry
# table at address 0, whose entry increments, decrements or leaves the count in Y. Y is pushed to
# the RX FIFO with `push noblock` on every loop, so the FIFO always holds recent counts and the
# program never stalls. Pins: in_base = A, in_base + 1 = B; the state index is B<<1 | A.
#
# Cycles from one `in pins, 2` to the next: 6 or 7 (no change), 7 or 8 (decrement), 10
# (increment). The worst-case sampling interval is 10 cycles, so transitions at least 10 SM
# cycles apart are never lost: sysclk / 10 = 12.5 M transitions/s at 125 MHz (the pico-examples
# figure; tests/test_pio_programs.py proves it in the emulator, and that 9 loses counts).
QUAD_ORIGIN = 0
QUAD_UPDATE = 15  # label update: (also the 11 -> 11 table entry)
QUAD_DECREMENT = 14  # label decrement: (also the 11 -> 10 table entry)
QUAD_INCREMENT = 21  # label increment:
QUAD_WRAP_TARGET = 15
QUAD_WRAP = 23
QUADRATURE = (
    # 00 state
    0x000F,  # 0   jmp update        ; read 00
    0x000E,  # 1   jmp decrement     ; read 01
    0x0015,  # 2   jmp increment     ; read 10
    0x000F,  # 3   jmp update        ; read 11
    # 01 state
    0x0015,  # 4   jmp increment     ; read 00
    0x000F,  # 5   jmp update        ; read 01
    0x000F,  # 6   jmp update        ; read 10
    0x000E,  # 7   jmp decrement     ; read 11
    # 10 state
    0x000E,  # 8   jmp decrement     ; read 00
    0x000F,  # 9   jmp update        ; read 01
    0x000F,  # 10  jmp update        ; read 10
    0x0015,  # 11  jmp increment     ; read 11
    # 11 state (the last two entries double as the decrement/update code)
    0x000F,  # 12  jmp update        ; read 00
    0x0015,  # 13  jmp increment     ; read 01
    0x008F,  # 14  decrement: jmp y--, update   ; read 10 (target is the next word: pure Y-1)
    0xA0C2,  # 15  update: mov isr, y           ; read 11   (.wrap_target)
    0x8000,  # 16  push noblock
    0x60C2,  # 17  sample_pins: out isr, 2      ; previous AB from OSR into ISR
    0x4002,  # 18  in pins, 2                   ; ISR = previous AB << 2 | AB
    0xA0E6,  # 19  mov osr, isr
    0xA0A6,  # 20  mov pc, isr                  ; computed jump into the table
    0xA04A,  # 21  increment: mov y, ~y         ; Y + 1 = ~(~Y - 1)
    0x0097,  # 22  jmp y--, increment_cont
    0xA04A,  # 23  increment_cont: mov y, ~y    ; (.wrap)
)
# Single instructions hw_rp2 executes (sm.exec) before starting a quadrature state machine, so
# that it starts from count 0 and from the pins' real state (no phantom count at power-up).
QUAD_SET_Y_0 = 0xE040  # set y, 0
QUAD_CLEAR_ISR = 0xA0C3  # mov isr, null
QUAD_SAMPLE_PINS = 0x4002  # in pins, 2
QUAD_SAVE_STATE = 0xA0E6  # mov osr, isr
QUAD_PRELOAD = (QUAD_SET_Y_0, QUAD_CLEAR_ISR, QUAD_SAMPLE_PINS, QUAD_SAVE_STATE)
QUAD_MAX_LOOP_CYCLES = 10  # worst-case cycles between two samples of the pins

# ---- WS2812 ------------------------------------------------------------------------------------
# raspberrypi/pico-examples pio/ws2812/ws2812.pio (BSD-3-Clause, (c) 2020 Raspberry Pi Ltd), with
# its broad-compatibility timing T1 = 3, T2 = 3, T3 = 4 cycles: 10 cycles per bit, so the state
# machine runs at 8 MHz for 800 kbit/s. A 1 bit is high 6 cycles (750 ns) then low 4 (500 ns);
# a 0 bit is high 3 (375 ns) then low 7 (875 ns). One side-set pin (the data line), mandatory.
# Autopull every 8 bits, shifting left: each FIFO word carries one byte in bits 31..24, which is
# what a byte-wide DMA write to the FIFO produces (the RP2040 replicates narrow writes across the
# 32-bit bus) and what `sm.put(bytearray, 24)` produces. The line idles low while the FIFO is
# empty (the stalled `out` still side-sets 0), which is the WS2812 latch/reset condition.
WS2812_T1 = 3
WS2812_T2 = 3
WS2812_T3 = 4
WS2812_CYCLES_PER_BIT = WS2812_T1 + WS2812_T2 + WS2812_T3
WS2812_BIT_HZ = 800_000
WS2812_SM_HZ = WS2812_BIT_HZ * WS2812_CYCLES_PER_BIT
WS2812_WRAP_TARGET = 0
WS2812_WRAP = 3
WS2812 = (
    0x6321,  # 0  bitloop: out x, 1       side 0 [3]   ; T3 - 1
    0x1223,  # 1  jmp !x do_zero          side 1 [2]   ; T1 - 1
    0x1200,  # 2  do_one: jmp bitloop     side 1 [2]   ; T2 - 1
    0xA242,  # 3  do_zero: nop            side 0 [2]   ; T2 - 1
)


def rp2_program(opcodes, wrap_target=0, wrap=None, in_shiftdir=SHIFT_LEFT,
                out_shiftdir=SHIFT_LEFT, autopush=False, autopull=False, push_thresh=32,
                pull_thresh=32, fifo_join=JOIN_NONE, sideset_opt=False, side_pindir=False,
                out_init=None, set_init=None, sideset_init=None):
    """The program object `rp2.StateMachine(...)` and `rp2.PIO.add_program` accept.

    Same layout and bit packing as `rp2.asm_pio` builds (ports/rp2/modules/rp2.py, PIOASMEmit):
    a list, because the rp2 port writes the program's offset in each PIO back into it. Build one
    object per program and share it between state machines of the same PIO, so the words are
    loaded once.
    """
    if wrap is None:
        wrap = len(opcodes) - 1
    execctrl = (int(sideset_opt) << 30 | int(side_pindir) << 29 | wrap << 12
                | wrap_target << 7)
    shiftctrl = (fifo_join << 30 | (pull_thresh & 0x1F) << 25 | (push_thresh & 0x1F) << 20
                 | out_shiftdir << 19 | in_shiftdir << 18 | int(autopull) << 17
                 | int(autopush) << 16)
    return ([array("H", opcodes)] + [-1] * PROG_OFFSETS
            + [execctrl, shiftctrl, out_init, set_init, sideset_init])


def quadrature_program():
    """The quadrature decoder as an rp2 program object (must be loaded at address 0).

    IN shifts left (previous state moves up two bits), OUT shifts right (`out isr, 2` takes the
    previous state from the low bits of OSR), as in pico-examples' quadrature_encoder_program_init.
    """
    return rp2_program(QUADRATURE, wrap_target=QUAD_WRAP_TARGET, wrap=QUAD_WRAP,
                       in_shiftdir=SHIFT_LEFT, out_shiftdir=SHIFT_RIGHT)


def ws2812_program():
    """The WS2812 driver as an rp2 program object: run it at WS2812_SM_HZ."""
    return rp2_program(WS2812, wrap_target=WS2812_WRAP_TARGET, wrap=WS2812_WRAP,
                       out_shiftdir=SHIFT_LEFT, autopull=True, pull_thresh=8, fifo_join=JOIN_TX,
                       sideset_init=OUT_LOW)


def padding_program(words):
    """`words` never-executed NOPs: fills the top of a PIO so the next program lands lower.

    MicroPython loads a program at the highest free address (pico-sdk pio_add_program with no
    origin), so the quadrature program reaches address 0 only once the words above it are taken.
    """
    return rp2_program((NOP,) * words)
