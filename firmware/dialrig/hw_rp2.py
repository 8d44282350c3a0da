# dialrig.hw_rp2 — the Board for a real Raspberry Pi Pico (RP2040): see dialrig.hw for the
# interface. Pins come from dialrig.config.PINS only; the PIO programs from dialrig.pio_programs.
#
# Hardware map:
#   I2C0           every AS5600 behind the TCA9548A multiplexers (config.I2C_FREQ)
#   PIO0 SM0-2     quadrature dials 0-2      PIO1 SM0-3   quadrature dials 3-6
#   PIO0 SM3       WS2812 LED dice, fed by one DMA channel (the CPU never waits on the LEDs)
#   WATCHDOG       machine.WDT; disabled again in deinit() through its CTRL register
#
# Needs MicroPython >= 1.21 (StateMachine.exec of an encoded int, micropython PR #11390); rp2.DMA
# is used when the port has it.
#
# Hot paths (quad_count, button) allocate nothing: counts come out of the PIO FIFO into
# preallocated array('i') cells, never as Python ints built from unsigned words.
import os
import time
from array import array

import machine
import rp2
from micropython import const

from dialrig import config
from dialrig import pio_programs as pp

# RP2040 datasheet §4.7.6, WATCHDOG registers (base 0x40058000): CTRL at offset 0x00, bit 30
# ENABLE ("When not enabled the watchdog timer is paused"). §2.1.2 (atomic register access): a
# write to the register's address + 0x3000 clears the bits set in the written value, with no
# read-modify-write race; the pico-sdk does the same (hw_clear_bits(&watchdog_hw->ctrl,
# WATCHDOG_CTRL_ENABLE_BITS)). Plain globals, not const(): both exceed the 31-bit small int.
WATCHDOG_CTRL = 0x40058000
WATCHDOG_CTRL_ENABLE = 0x40000000  # bit 30
ATOMIC_CLEAR = 0x3000

_LED_PIO = const(0)
_LED_SM = const(3)  # PIO0 SM3: state machine id 3
_QUADS_ON_PIO0 = const(3)  # quadrature dials 0-2 on PIO0 SM0-2, 3-6 on PIO1 SM0-3
_BYTE_US = const(10)  # 8 bits at 800 kbit/s
_LATCH_US = const(300)  # WS2812B-V5 needs the line low > 280 us to latch a frame
_I2C_TIMEOUT_US = const(5000)  # a 2-byte AS5600 read through the mux takes ~150 us
# One GRB triple per pip LED, then the d10 ring's LEDs (dialrig.dice): the whole chain.
LED_BYTES = 3 * (config.MAX_DICE * config.PIPS_PER_DIE + config.RING_LEDS)


def quad_state_machine_id(n):
    """rp2.StateMachine id of quadrature dial n (0..6): PIO0 SM0-2, then PIO1 SM0-3."""
    return n if n < _QUADS_ON_PIO0 else n + 1


def load_at_origin(pio_id, first):
    """Load the programs `first`, then the quadrature program at address 0 of PIO `pio_id`.

    The quadrature program's `mov pc, isr` jumps to absolute addresses 0..15, so it only works
    at origin 0. MicroPython's PIO.add_program cannot ask for an origin, and the pico-sdk
    places a program without one at the highest free address (hardware_pio/pio.c,
    _pio_find_offset_for_program: "work down from the top always"). So the words above the
    quadrature program are filled first: the `first` programs (the WS2812 driver on PIO0), then
    never-executed padding. Returns (the quadrature program object, every program object
    loaded); deinit removes the loaded ones again.

    Fails when the PIO already holds foreign programs: add_program raises OSError(ENOMEM), or
    the quadrature program lands off address 0 and this raises OSError naming the offset. What
    was loaded is removed again and the error propagates: the Board fails to construct and the
    app reports it instead of counting garbage.
    """
    pio = rp2.PIO(pio_id)
    loaded = []
    try:
        used = 0
        for prog in first:
            pio.add_program(prog)
            loaded.append(prog)
            used += len(prog[pp.PROG_DATA])
        quad = pp.quadrature_program()
        pad = pp.PIO_WORDS - used - len(quad[pp.PROG_DATA])
        if pad > 0:
            filler = pp.padding_program(pad)
            pio.add_program(filler)
            loaded.append(filler)
        pio.add_program(quad)
        loaded.append(quad)
        offset = quad[pp.PROG_OFFSET_PIO0 + pio_id]
        if offset != pp.QUAD_ORIGIN:
            raise OSError("PIO%d: quadrature program at %d, needs address 0" % (pio_id, offset))
    except Exception:
        for prog in loaded:
            pio.remove_program(prog)
        raise
    return quad, loaded


class Board:
    """The real tray hardware, configured for `cfg` (a validated dialrig.config dict).

    uid   the 8-byte id of the Pico's flash chip (machine.unique_id); it cannot fail.
    i2c   machine.I2C(0) itself. A NAK or a missing device raises OSError (ENODEV/EIO); a bus
          held low by a hung AS5600 or multiplexer times out after 5 ms with
          OSError(ETIMEDOUT) instead of stalling the sample loop. The caller (dials) marks the
          sensor faulted and may mux_reset().

    Construction raises OSError when the PIOs cannot take the programs (see load_at_origin) or
    ValueError for a quadrature dial whose B pin is not A + 1; the app reports the error rather
    than run with dials that would count garbage.
    """

    def __init__(self, cfg):
        pins = config.PINS  # type: dict
        self.uid = bytes(machine.unique_id())
        self.i2c = machine.I2C(0, sda=machine.Pin(pins["i2c_sda"]),
                               scl=machine.Pin(pins["i2c_scl"]), freq=config.I2C_FREQ,
                               timeout=_I2C_TIMEOUT_US)
        self._button = machine.Pin(pins["roll_button"], machine.Pin.IN, machine.Pin.PULL_UP)
        self._status = machine.Pin(pins["status_led"], machine.Pin.OUT, value=0)
        self._mux_reset = machine.Pin(pins["mux_reset"], machine.Pin.OUT, value=1)
        self._wdt = None
        # (type comments: mypy reads them, MicroPython never sees them)
        self._programs = ([], [])  # type: tuple[list, list]  # loaded into PIO0, PIO1
        self._quad_programs = [None, None]  # type: list  # quadrature program of PIO0, PIO1
        self._quad_sms = [None] * config.MAX_QUADRATURE_DIALS  # type: list
        self._quad_counts = [array("i", [0]) for _ in range(config.MAX_QUADRATURE_DIALS)]
        self._dma = None
        try:
            self._start_pios(cfg, pins)
        except Exception:
            self._release_pios()  # leave no half-loaded PIO behind for the next attempt
            raise

    def _start_pios(self, cfg, pins):
        quads = []
        for dock in cfg["docks"]:
            for dial in dock:
                if dial["sensor"] == config.SENSOR_QUADRATURE:
                    quads.append(dial["quad"])

        ws2812 = pp.ws2812_program()
        if any(n < _QUADS_ON_PIO0 for n in quads):
            self._quad_programs[0], loaded = load_at_origin(0, [ws2812])
            self._programs[0].extend(loaded)
        else:
            rp2.PIO(_LED_PIO).add_program(ws2812)
            self._programs[0].append(ws2812)
        if any(n >= _QUADS_ON_PIO0 for n in quads):
            self._quad_programs[1], loaded = load_at_origin(1, [])
            self._programs[1].extend(loaded)
        self._start_leds(ws2812, pins["ws2812"])
        for n in quads:
            self._start_quadrature(n, pins["quadrature"][n])

    # ---- quadrature ----------------------------------------------------------------------------

    def _start_quadrature(self, n, ab):
        """Start the decoder for dial n on pins ab = (A, B), B = A + 1, both pulled up.

        The encoder's contacts short A and B to ground; an open contact (broken wire) reads
        high through the pull-up, which looks like a dial resting between two positions: the
        count simply stops changing (dials reports a stuck dial, not a crash). Contact bounce
        toggles one phase between two adjacent states, which the decoder counts as +1 -1 +1 ...
        so it nets out; only bounce faster than the 10-cycle sampling loop (80 ns) can skip a
        pair of transitions, which also nets to zero.
        """
        a, b = ab
        if b != a + 1:
            raise ValueError("quadrature dial %d: B pin must be A + 1 (in pins, 2)" % n)
        machine.Pin(a, machine.Pin.IN, machine.Pin.PULL_UP)
        machine.Pin(b, machine.Pin.IN, machine.Pin.PULL_UP)
        pio_id = 0 if n < _QUADS_ON_PIO0 else 1
        sm = rp2.StateMachine(quad_state_machine_id(n), self._quad_programs[pio_id],
                              in_base=machine.Pin(a))
        # Count from 0, and take the pins' current state as the previous state so power-up
        # does not count a phantom transition from 00.
        for opcode in pp.QUAD_PRELOAD:
            sm.exec(opcode)
        sm.active(1)
        self._quad_sms[n] = sm

    def quad_count(self, n):
        """Signed count of quadrature dial n (4 per quadrature cycle). Hot: no allocation.

        The program pushes its count without blocking on every loop, so the RX FIFO is full of
        counts from when it last filled. Drain the words already there, then take one more that
        was pushed after the first read freed a slot (as pico-examples'
        quadrature_encoder_get_count does) — but only if it is there: a stopped or stalled state
        machine returns the last count read instead of blocking the firmware forever.
        `sm.get(buf)` stores the raw word into the array('i') cell, which reads back signed
        with no allocation (|count| < 2**30 stays a small int).
        """
        sm = self._quad_sms[n]
        cell = self._quad_counts[n]
        stale = sm.rx_fifo()
        while stale > 0:
            sm.get(cell)
            stale -= 1
        if sm.rx_fifo():
            sm.get(cell)
        return cell[0]

    # ---- inputs and simple outputs -------------------------------------------------------------

    def button(self):
        """True while the roll button is held (it pulls the pin low). Hot: no allocation.

        A broken wire or switch reads as not pressed (the pull-up wins); a button shorted to
        ground reads as held forever, which the app sees as one long press.
        """
        return self._button.value() == 0

    def status_led(self, on):
        """The heartbeat LED (the Pico's own). A dead LED fails silently; nothing depends on it."""
        self._status.value(1 if on else 0)

    def mux_reset(self):
        """Pulse the TCA9548As' active-low RESET (min 6 ns; 2 us here), deselecting every channel.

        Used to recover a bus wedged by a mux or sensor: if the pulse does not help, the next
        I2C transfer still fails with OSError and the dials stay faulted.
        """
        self._mux_reset.value(0)
        time.sleep_us(2)
        self._mux_reset.value(1)

    def entropy_into(self, buf):
        """Fill buf with random bytes from os.urandom, which the rp2 port feeds from the RP2040
        ring oscillator's random bit. There is no failure signal from the oscillator; if it were
        stuck the bytes would be poor but the call still returns (dice stay playable)."""
        data = os.urandom(len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]

    # ---- LED dice ------------------------------------------------------------------------------

    def _start_leds(self, prog, pin):
        """WS2812 state machine on PIO0 SM3, fed by a byte-wide DMA channel paced by its TX DREQ.

        If no DMA channel can be claimed (or the port has no rp2.DMA) show_leds falls back to
        sm.put, which blocks for the frame time (10 us per byte) instead of failing.
        """
        self._led_sm = rp2.StateMachine(_LED_SM, prog, freq=pp.WS2812_SM_HZ,
                                        sideset_base=machine.Pin(pin))
        self._led_sm.active(1)
        self._frame = bytearray(LED_BYTES)
        self._frame_mv = memoryview(self._frame)
        self._led_free_at = time.ticks_us()
        self._dma = None
        try:
            dma = rp2.DMA()
            # DREQ_PIOx_TXy = x * 8 + y (RP2040 datasheet §2.5.3.1). Byte writes to the TX FIFO
            # are replicated across the 32-bit word, so each byte lands in bits 31..24.
            self._dma_ctrl = dma.pack_ctrl(size=0, inc_write=False,
                                           treq_sel=(_LED_PIO << 3) | _LED_SM)
            self._dma = dma
        except (AttributeError, OSError):
            self._dma = None

    def _wait_leds_idle(self):
        """Wait until the previous frame is on the wire and latched: at most one frame time plus
        the 300 us latch (3.1 ms for 94 LEDs), and only when frames are pushed back to back."""
        while self._dma is not None and self._dma.active():
            pass
        while time.ticks_diff(self._led_free_at, time.ticks_us()) > 0:
            pass

    def show_leds(self, buf):
        """Send buf (GRB triples: the dice's pips, then the d10 ring) to the WS2812 chain.

        The frame is copied, so the caller may reuse buf at once; the DMA channel then clocks it
        out while the firmware carries on. A dead or missing LED cannot be detected (WS2812 has
        no return path): the dice simply stay dark past the break in the chain.
        """
        n = len(buf)
        if n > LED_BYTES:
            n = LED_BYTES
        self._wait_leds_idle()
        if n == len(buf):
            self._frame_mv[0:n] = buf
        else:
            self._frame_mv[0:n] = memoryview(buf)[0:n]
        start = time.ticks_us()
        if self._dma is not None:
            self._dma.config(read=self._frame, write=self._led_sm, count=n, ctrl=self._dma_ctrl,
                             trigger=True)
        else:
            self._led_sm.put(self._frame_mv[0:n], 24)
        self._led_free_at = time.ticks_add(start, n * _BYTE_US + _LATCH_US)

    # ---- watchdog, reset, teardown ------------------------------------------------------------

    def watchdog_start(self, ms):
        """Start the hardware watchdog: if the firmware stops feeding it for `ms`, the RP2040
        resets (and boots the firmware again). Once started it cannot be stopped through
        machine.WDT; deinit() clears its ENABLE bit directly."""
        self._wdt = machine.WDT(timeout=ms)

    def watchdog_feed(self):
        """Restart the watchdog's countdown (no-op before watchdog_start or after deinit)."""
        if self._wdt is not None:
            self._wdt.feed()

    def watchdog_disable(self):
        """Clear WATCHDOG CTRL.ENABLE (bit 30) through the atomic-clear alias; returns True if
        the bit reads back clear. If it did not clear, the board resets when the last timeout
        runs out — the safe direction for a tray left unattended."""
        machine.mem32[WATCHDOG_CTRL + ATOMIC_CLEAR] = WATCHDOG_CTRL_ENABLE
        self._wdt = None
        return not machine.mem32[WATCHDOG_CTRL] & WATCHDOG_CTRL_ENABLE

    def background(self):
        """No background tasks on the real board: PIO, DMA and I2C need no coroutines."""
        return []

    def set_ctrl_c(self, enabled):
        """The USB stack turns a received 0x03 into KeyboardInterrupt while kbd_intr is 3."""
        import micropython

        micropython.kbd_intr(3 if enabled else -1)

    def boot_reason(self):
        """Why the chip started: the watchdog, or power-on / the reset pin / a soft reset."""
        from dialrig import proto

        cause = machine.reset_cause()
        if cause == machine.WDT_RESET:
            return proto.BOOT_WATCHDOG
        if cause == machine.PWRON_RESET:
            return proto.BOOT_POWER_ON
        return proto.BOOT_SOFT

    def ensure_quad(self, n):
        """Start decoder n for a dial reconfigured at run time, if its PIO has the program.

        The quadrature program must sit at address 0 and is loaded at boot only into the PIOs
        the boot config needs; a PIO without it cannot take a decoder until the next boot.
        """
        if not 0 <= n < config.MAX_QUADRATURE_DIALS:
            return False
        if self._quad_sms[n] is not None:
            return True
        if self._quad_programs[0 if n < _QUADS_ON_PIO0 else 1] is None:
            return False
        self._start_quadrature(n, config.PINS["quadrature"][n])  # type: ignore[index]
        return True

    def deinit(self):
        """Leave the board safe for the REPL: LEDs blank, state machines stopped, programs and the
        DMA channel released, watchdog disabled (otherwise the REPL handed back after Ctrl-C would
        be reset by the watchdog a few seconds later).

        Each step is guarded so one failure cannot skip the rest; the watchdog goes last, so a
        hang inside deinit itself is still rescued by a watchdog reset.
        """
        try:
            try:
                for i in range(LED_BYTES):
                    self._frame[i] = 0
                self.show_leds(self._frame)
                self._wait_leds_idle()
            except Exception:
                pass
            self._release_pios()
        finally:
            self.watchdog_disable()

    def _release_pios(self):
        """Stop every state machine, close the DMA channel, remove our programs from the PIOs."""
        for sm in self._quad_sms:
            if sm is not None:
                sm.active(0)
        self._quad_sms = [None] * config.MAX_QUADRATURE_DIALS
        try:
            led_sm = getattr(self, "_led_sm", None)  # absent if construction failed early
            if led_sm is not None:
                led_sm.active(0)
            if self._dma is not None:
                self._dma.close()
                self._dma = None
        except Exception:
            pass
        for pio_id in (0, 1):
            pio = rp2.PIO(pio_id)
            for prog in self._programs[pio_id]:
                try:
                    pio.remove_program(prog)
                except Exception:
                    pass
        self._programs = ([], [])
        self._quad_programs = [None, None]

    def reset(self):
        """Hard reset of the RP2040 (as the RESET button); does not return."""
        machine.reset()
