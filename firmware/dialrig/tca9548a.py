# dialrig.tca9548a — the TCA9548A I2C multiplexers in front of the AS5600 sensors.
"""Channel selection over one or more TCA9548A 1-to-8 I2C multiplexers.

Every AS5600 has the same address (0x36), so at most one downstream channel may be connected
to the bus at any time: selecting a channel on one multiplexer first switches every other
multiplexer off (control byte 0), then writes ``1 << channel`` to the wanted one. Both muxes
being on at once would let two sensors answer 0x36 together and the bus would read the
wired-AND of their bytes: a plausible, wrong angle.

The current selection is cached, so selecting the channel that is already selected costs no
bus traffic (the sample loop reads one sensor per channel, 16 channels per pass).

When the hardware fails: a TCA9548A that is unpowered, held in reset or disconnected does not
ACK its address and machine.I2C raises OSError (EIO on the rp2 hardware I2C, ETIMEDOUT when the
bus is stuck); a brown-out resets its control byte to 0 without telling anyone. What the driver
does:
  * the multiplexer being selected NAKs: the OSError propagates and the whole cache is
    forgotten, so the next select() rewrites every multiplexer from scratch.
  * another multiplexer NAKs while being switched off: it is retried once, then marked as not
    answering (state() == DEAD, ``faults`` counts it) and the selection goes ahead, so one dead
    mux board does not take the other eight dials down with it. A multiplexer that does not
    answer its address twice running is unpowered, in reset or cut off from the bus, and then
    its channels cannot drive our SDA; a one-off glitch is cured by the retry. Dead muxes are
    skipped until forget() (or a select() of one of their own channels) tries them again.
  * a control byte that is NAKed (writeto returns 0 ACKs) counts as a NAK: OSError(EIO).
Callers that see a downstream device NAK should call forget() (AS5600 does): the likeliest
cause is a multiplexer that lost its control byte, and forgetting makes the next select()
rewrite it.

The hot path, select() of an already selected channel, does not allocate; switching channels
writes preallocated one-byte buffers and does not allocate either.
"""

import errno

from dialrig import config

UNKNOWN = -1  # state(): control byte not known (power-up, after forget() or an error)
DEAD = -2  # state(): did not answer when being switched off; skipped until forget()


class MuxBus:
    """The multiplexers at addrs, all on the I2C bus i2c (machine.I2C or sim_i2c.SimI2C).

    Attributes (read only): ``known`` (the selection below is confirmed), ``mux_addr`` and
    ``channel`` (the selected channel, -1 when none), ``faults`` (multiplexers found not
    answering while being switched off).
    """

    def __init__(self, i2c, addrs=config.MUX_ADDRS):
        self.i2c = i2c
        self.addrs = tuple(addrs)
        self._buf = bytearray(1)
        # Known control byte of each mux, UNKNOWN or DEAD. Nothing is known at first: power-up
        # leaves every channel off, but a warm reset of the Pico leaves the muxes as they were.
        self._state = [UNKNOWN] * len(self.addrs)
        self.known = False
        self.mux_addr = -1
        self.channel = -1
        self.faults = 0

    def state(self, mux_addr):
        """What the driver believes the control byte of mux_addr is, or UNKNOWN / DEAD."""
        return self._state[self.addrs.index(mux_addr)]

    def select(self, mux_addr, channel):
        """Connect channel 0..7 of the multiplexer at mux_addr to the bus, and nothing else."""
        if channel == self.channel and mux_addr == self.mux_addr and self.known:
            return
        if not 0 <= channel <= 7 or mux_addr not in self.addrs:
            raise ValueError("no such multiplexer channel")
        addrs = self.addrs
        state = self._state
        mine = 0
        for i in range(len(addrs)):
            addr = addrs[i]
            if addr == mux_addr:
                mine = i
            elif state[i] != 0 and state[i] != DEAD:
                self._switch_off(i)
        self.known = False
        self.mux_addr = -1
        self.channel = -1
        buf = self._buf  # _write inlined: a Python call costs ~20 us on the RP2040
        buf[0] = 1 << channel
        try:
            acked = self.i2c.writeto(mux_addr, buf)
        except OSError:
            self.forget()
            raise
        if acked is not None and acked != 1:
            self.forget()
            raise OSError(errno.EIO)
        state[mine] = 1 << channel
        self.known = True
        self.mux_addr = mux_addr
        self.channel = channel

    def _switch_off(self, i):
        addr = self.addrs[i]
        try:
            self._write(addr, 0)
        except OSError:
            try:
                self._write(addr, 0)
            except OSError:
                self._state[i] = DEAD
                self.faults += 1
                return
        self._state[i] = 0

    def deselect_all(self):
        """Switch every channel of every multiplexer off (DEAD ones included).

        Tries every multiplexer even when one fails, then raises the first OSError.
        """
        err = None
        for i in range(len(self.addrs)):
            try:
                self._write(self.addrs[i], 0)
                self._state[i] = 0
            except OSError as e:
                self._state[i] = UNKNOWN
                if err is None:
                    err = e
        self.mux_addr = -1
        self.channel = -1
        self.known = err is None
        if err is not None:
            raise err

    def forget(self):
        """Drop everything cached (after a NAK, a mux reset or anything else suspicious)."""
        state = self._state
        for i in range(len(state)):
            state[i] = UNKNOWN
        self.known = False
        self.mux_addr = -1
        self.channel = -1

    def _write(self, addr, control):
        buf = self._buf
        buf[0] = control
        acked = self.i2c.writeto(addr, buf)
        if acked is not None and acked != 1:
            raise OSError(errno.EIO)
