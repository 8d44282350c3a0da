# dialrig.app — the firmware's tasks and how they share the chip.
#
# Four asyncio tasks, none of which ever blocks:
#   sampler     read every dial (dials.Dials.sample: allocation-free), debounce the roll
#               button, then pause sample_ms (config.DEFAULT_SAMPLE_MS: the period is longer).
#   link        every millisecond: take host bytes, answer commands, stream events.
#   heartbeat   every heartbeat_ms: tell the host we are alive, blink the status LED, stream
#               diagnostics when asked.
#   supervisor  feeds the hardware watchdog only while sampler, link and heartbeat all make
#               progress (each sets its bit in `progress` every time round its loop), so a
#               wedged task resets the board instead of silently losing clicks, even while the
#               other tasks run on. The host's C_STALL stops one task on purpose (a watchdog
#               test): no hardware fault can, every hardware access being bounded (I2C
#               timeout, non-blocking PIO FIFO reads, polled USB writes).
#
# Ctrl-C (mpremote, or a person at the REPL) raises KeyboardInterrupt out of asyncio.run: the
# board is put in a safe state (state machines stopped, LEDs off, watchdog disabled) and the
# exception is re-raised so MicroPython drops to the REPL. Frames can never carry a 0x03
# (dialrig.proto escapes it), so only a real Ctrl-C does this.
import asyncio
import sys
import time

from dialrig import calstore, config, dice, proto
from dialrig.dials import Dials
from dialrig.hw import open_board
from dialrig.link import Link
from dialrig.ringlog import RingLog

CONFIG_FILE = "dialrig.json"
BUTTON_DEBOUNCE_MS = 30
DEFAULT_BUTTON_DICE = 2  # 2d6: pilot checks and initiative, the commonest roll
LED_WALK_MS = 25
BATCH_ROLLS_PER_TICK = 8  # ROLL_SIDED rolls per link tick: the link streams 16 events a tick

_COLOURS = {proto.COLOUR_OFF: dice.OFF, proto.COLOUR_MISS: dice.MISS, proto.COLOUR_HIT: dice.HIT,
            proto.COLOUR_SIX: dice.SIX}


CTRL_C = 0x03
CR = 0x0D
SILENCE_BEFORE_CTRL_C_MS = 500


class CtrlCJudge:
    """Decides whether a 0x03 read from the line is a person's Ctrl-C (see SerialIO)."""

    def __init__(self):
        self.prev = 0
        self.last_rx = time.ticks_ms()

    def is_interrupt(self, b, now):
        """Feed one received byte; True when it is a Ctrl-C meant to stop the firmware."""
        real = b == CTRL_C and (self.prev == CR or self.prev == CTRL_C or
                                time.ticks_diff(now, self.last_rx) >= SILENCE_BEFORE_CTRL_C_MS)
        self.prev = b
        self.last_rx = now
        return real


class SerialIO:
    """The USB serial port as the firmware sees it: sys.stdin / sys.stdout, like the REPL.

    Ctrl-C. With no host connected, the interrupt character works as on any MicroPython board.
    While a dialtray host is connected the board turns it off (Board.set_ctrl_c) and judges a
    0x03 in context instead, because on a noisy line one damaged byte can become 0x03, and an
    interrupted firmware sitting at the REPL would then execute line noise. A frame never
    contains 0x03 (proto escapes it), so a real Ctrl-C is recognised as one of:
      - CR then 0x03, which is what mpremote and pyboard.py send;
      - two 0x03 in a row (a person pressing Ctrl-C twice);
      - 0x03 after SILENCE_BEFORE_CTRL_C_MS of silence (the host never stays that quiet).
    Any other 0x03 is line damage: it stays in the byte stream, where it spoils the frame it
    landed in and is counted as such.
    """

    def __init__(self):
        import select

        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.out_poller = select.poll()
        self.out_poller.register(sys.stdout, select.POLLOUT)
        self.buf = bytearray(512)
        self.mv = memoryview(self.buf)
        self.one = bytearray(1)
        self.judge_ctrl_c = False
        self.judge = CtrlCJudge()

    def read_available(self):
        n = 0
        while n < len(self.buf):
            ready = False
            for _ in self.poller.ipoll(0):
                ready = True
            if not ready or not self.rx.readinto(self.one):
                break
            b = self.one[0]
            if self.judge.is_interrupt(b, time.ticks_ms()) and self.judge_ctrl_c:
                raise KeyboardInterrupt
            self.buf[n] = b
            n += 1
        return self.mv[:n] if n else None

    def write(self, data):
        """Write one frame if the port can take it now; False (frame dropped) if not.

        A host that stops reading (busy, asleep, a full USB buffer) must never stall the
        firmware: a blocked write would stop the sampler and a click could come and go unseen.
        Dropped event frames are still in the ring log and are sent again when the host NACKs;
        a dropped answer is asked for again by the host."""
        for _ in self.out_poller.ipoll(0):
            self.tx.write(data)
            return True
        return False


def load_config(path=None):
    """Defaults, overridden by dialrig.json when present. An invalid file is reported on the
    console and ignored as a whole: half a config could put two dials on one sensor."""
    import os

    cfg = config.default_config()
    if path is None and hasattr(os, "getenv"):  # the unix port (virtual tray) has getenv
        path = os.getenv("DIALRIG_CONFIG")
    path = path or CONFIG_FILE
    try:
        import json

        with open(path) as f:
            custom = json.load(f)
    except OSError:
        return cfg
    except ValueError as e:
        print("dialrig: %s is not valid JSON (%s): using defaults" % (path, e))
        return cfg
    merged = dict(cfg)
    merged.update(custom)
    problems = config.validate(merged)
    if problems:
        print("dialrig: %s rejected: %s" % (path, "; ".join(problems)))
        return cfg
    return merged


class App:
    def __init__(self, cfg, board, io):
        self.cfg = cfg
        self.board = board
        self.ring = RingLog(cfg["ring_size"])
        self.dials = Dials(cfg, board, self.ring)
        self.display = dice.DiceDisplay(cfg["dice"])
        self.faces = bytearray(config.MAX_DICE)
        self.button_dice = DEFAULT_BUTTON_DICE
        self.batch_n = 0  # ROLL_SIDED: dice per roll, sides, request id, rolls still to roll
        self.batch_sides = 6
        self.batch_req = 0
        self.batch_left = 0
        self.button_down = False
        self.button_since = 0
        self.diag_period = 0
        self.reboot_requested = False
        self.progress = 0  # STALL_* bits: the tasks that went round their loop since the last look
        self.stalled = 0  # STALL_* bits: tasks stopped by C_STALL (a watchdog test)
        self.display_taken = False  # the host or the button has put dice on the LEDs
        self.selftest_running = False  # a SELFTEST command's run (dialrig.selftest) is going
        # The boot self-test runs and has not logged its EV_SELFTEST yet: a SELFTEST command's
        # run waits for it, so the host never takes the boot's EV_SELFTEST for its report's end.
        self.boot_test_running = False
        # The calibration on the flash (dialrig.calstore): where, what state, its checksum,
        # and whether SET_DIAL has changed it since (the saver task writes it out).
        self.flash = None  # folder, or None: nowhere to keep it (tests)
        self.cal_status = calstore.STORED_NONE
        self.cal_crc = 0
        self.cal_dirty = False
        seed = bytearray(4)
        board.entropy_into(seed)
        boot_id = (seed[0] | seed[1] << 8 | seed[2] << 16 | (seed[3] & 0x7F) << 24) or 1
        self.link = Link(self, io, boot_id)

    # ---- dice --------------------------------------------------------------------------------

    def roll_dice(self, n, request_id, now, sides=6, show=True):
        """Roll n fair dice of `sides` sides, log the faces and show them (dice.show_roll: d6 on
        the pips, a d10 on the ring and pip pairs). False when nothing was rolled.

        In a committed session the seed decides (fairdice), else the hardware entropy. A stuck
        entropy source (dice.roll_into raises OSError) rolls nothing: logging a predictable roll
        would be worse than refusing it. The host sees no dice event and reports the timeout."""
        try:
            if self.link.fair.active:  # a committed session: the seed decides (fairdice)
                self.link.fair.roll_into(self.faces, n, sides, now)
            else:
                dice.roll_into(self.faces, n, self.board.entropy_into, sides)
        except OSError:
            return False
        if sides == 6:
            self.button_dice = n
        value, extra = proto.pack_faces(self.faces, n)
        self.ring.append(now, proto.EV_DICE, n, request_id, value, extra)
        if show:
            self.display_taken = True
            self.display.show_roll(self.faces, n, sides)
            self.board.show_leds(self.display.buffer)
        return True

    def start_batch(self, n, sides, request_id, rolls):
        """ROLL_SIDED: `rolls` rolls of n dice of `sides` sides, rolled by batch_tick a few per
        link tick (never all at once: the event loop runs on, and the ring never fills faster
        than the host takes it). False while an earlier batch is still rolling."""
        if self.batch_left:
            return False
        self.batch_n = n
        self.batch_sides = sides
        self.batch_req = request_id
        self.batch_left = rolls
        return True

    def batch_tick(self, now):
        """Roll the next few rolls of a batch while at most half the ring waits for the host's
        acknowledgement; each is logged as one DICE event, only the last is shown."""
        budget = BATCH_ROLLS_PER_TICK
        limit = self.cfg["ring_size"] // 2
        ring = self.ring
        link = self.link
        while self.batch_left and budget and ring.next_seq - link.acked < limit:
            last = self.batch_left == 1
            if not self.roll_dice(self.batch_n, self.batch_req, now, self.batch_sides, last):
                self.batch_left = 0  # stuck entropy: the host sees the rolls stop
                return
            self.batch_left -= 1
            budget -= 1

    def show_dice(self, n, faces, colours):
        self.display_taken = True
        self.display.clear()
        for i in range(n):
            self.display.set(i, faces[i], _COLOURS[colours[i]])
        self.board.show_leds(self.display.buffer)

    def button_tick(self, now):
        down = self.board.button()
        if down != self.button_down:
            if time.ticks_diff(now, self.button_since) >= BUTTON_DEBOUNCE_MS:
                self.button_down = down
                self.button_since = now
                if down:
                    self.ring.append(now, proto.EV_BUTTON, 0xFF, 0, 1, 0)
                    self.roll_dice(self.button_dice, 0, now)
                else:  # released: the host times a hold (held 3 s calls the judge, hub)
                    self.ring.append(now, proto.EV_BUTTON, 0xFF, 0, 0, 0)
        else:
            self.button_since = now

    # ---- boot ----------------------------------------------------------------------------------

    async def self_test(self):
        """LED walk over every die while the sampler checks every sensor; the result is an event."""
        walked = 0
        # Set before the first await: run() creates the link task before this, and it cannot
        # take a SELFTEST command until this coroutine first yields.
        self.boot_test_running = True
        try:
            for i in range(self.cfg["dice"]):
                if self.display_taken:
                    break  # real dice on the LEDs matter more than the walk: never wipe them
                self.display.clear()
                self.display.set(i, 6, dice.HIT)
                self.board.show_leds(self.display.buffer)
                walked += 1
                await asyncio.sleep_ms(LED_WALK_MS)
                self.board.watchdog_feed()
            if not self.display_taken:
                self.display.clear()
                self.board.show_leds(self.display.buffer)
            # The sampler has been reading every sensor all along: its fault state is the verdict.
            self.ring.append(time.ticks_ms(), proto.EV_SELFTEST, 0, 0,
                             self.dials.faulted_mask(), walked)
        finally:
            self.boot_test_running = False

    def start_selftest(self, lamps):
        """The host's SELFTEST command: run dialrig.selftest as a task; False if one runs."""
        if self.selftest_running:
            return False
        from dialrig import selftest

        self.selftest_running = True
        asyncio.create_task(selftest.run(self, lamps))
        return True

    # ---- tasks ---------------------------------------------------------------------------------

    async def sampler(self):
        ring = self.ring
        while True:
            now = time.ticks_ms()
            logged = ring.next_seq
            self.dials.sample(now)
            self.button_tick(now)
            if ring.next_seq != logged:
                self.link.pump(now)  # a click goes out now, not at the link task's next tick
            self.progress |= proto.STALL_SAMPLER
            if self.stalled & proto.STALL_SAMPLER:
                await self.stall()
            await asyncio.sleep_ms(self.cfg["sample_ms"])

    async def link_task(self):
        link = self.link
        io = link.io
        while True:
            now = time.ticks_ms()
            data = io.read_available()
            if data:
                link.receive(data, now)
            if self.batch_left:
                self.batch_tick(now)
            link.pump(now)
            self.progress |= proto.STALL_LINK
            if self.stalled & proto.STALL_LINK:
                await self.stall()
            if self.reboot_requested:
                await asyncio.sleep_ms(50)  # let the ACK leave
                self.board.reset()
            await asyncio.sleep_ms(1)

    async def heartbeat(self):
        on = False
        last_diag = time.ticks_ms()
        last_beat = time.ticks_ms()
        while True:
            now = time.ticks_ms()
            if time.ticks_diff(now, last_beat) >= self.cfg["heartbeat_ms"]:
                last_beat = now
                self.link.heartbeat(now)
                on = not on
                self.board.status_led(on)
            if self.diag_period and time.ticks_diff(now, last_diag) >= self.diag_period:
                last_diag = now
                self.link.send_diag(now)
            self.progress |= proto.STALL_HEARTBEAT
            if self.stalled & proto.STALL_HEARTBEAT:
                await self.stall()
            await asyncio.sleep_ms(5)

    async def calibration_saver(self):
        """Write the calibration to the flash after SET_DIAL changed it, a line at a time.

        The event loop runs on between lines; the rename at the end is the only step that
        changes what a reboot finds (calstore), so a power cut at any moment leaves the old
        calibration or the new one."""
        while True:
            await asyncio.sleep_ms(100)
            if not self.cal_dirty or self.flash is None:
                continue
            self.cal_dirty = False
            docks = [[dict(dial) for dial in dock] for dock in self.cfg["docks"]]
            pause = getattr(self.board, "flash_ms", 0)
            try:
                f = calstore.begin(self.flash)
                for line in calstore.lines(docks):
                    f.write(line)
                    await asyncio.sleep_ms(pause)
                calstore.commit(f, self.flash)
            except OSError as e:
                print("dialrig: calibration not saved: %s" % e)
                self.cal_dirty = True  # try again next time round
                continue
            self.cal_crc = calstore.checksum(docks)
            self.cal_status = calstore.STORED_OK

    async def stall(self):
        """A task stuck for good, as on a bug (C_STALL): it never comes back, the other tasks
        run on, and only the watchdog's reset ends it."""
        while True:
            await asyncio.sleep_ms(1000)

    async def supervisor(self):
        everyone = proto.STALL_SAMPLER | proto.STALL_LINK | proto.STALL_HEARTBEAT
        while True:
            await asyncio.sleep_ms(100)
            if self.progress == everyone:
                self.board.watchdog_feed()
            self.progress = 0

    async def run(self):
        # Armed before anything else can hang: a wedge during boot must reset the board too.
        self.board.watchdog_start(self.cfg["watchdog_ms"])
        for coro in self.board.background():
            asyncio.create_task(coro)
        now = time.ticks_ms()
        self.ring.append(now, proto.EV_BOOT, 0, 0, self.board.boot_reason(), 0)
        # The first reading is where every absolute dial is at boot: the baseline that the
        # host's snapshot reports and later clicks are counted from.
        self.dials.sample(now)
        self.dials.announce_boot(now)
        asyncio.create_task(self.sampler())
        asyncio.create_task(self.link_task())
        asyncio.create_task(self.heartbeat())
        asyncio.create_task(self.calibration_saver())
        self.link.hello()
        await self.self_test()
        await self.supervisor()


def flash_folder():
    """Where the calibration lives: the Pico's flash root; on the unix port the virtual
    tray's per-tray folder (DIALRIG_FLASH), or nowhere."""
    if sys.platform == "rp2":
        return ""
    import os

    return os.getenv("DIALRIG_FLASH") if hasattr(os, "getenv") else None


def main():
    cfg = load_config()
    flash = flash_folder()
    cal = calstore.load(cfg, flash) if flash is not None else (calstore.STORED_NONE, 0)
    board = open_board(cfg)
    print("dialrig %s: %d docks" % (config.FIRMWARE_VERSION, len(cfg["docks"])))
    app = App(cfg, board, SerialIO())
    app.flash = flash
    app.cal_status, app.cal_crc = cal
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:
        board.deinit()
        asyncio.new_event_loop()
        print("dialrig stopped: REPL")
        raise
