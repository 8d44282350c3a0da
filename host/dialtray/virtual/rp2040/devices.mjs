// devices.mjs — the parts around the emulated Pico, wired to the pins of dialrig/config.py:
// AS5600 magnetic encoders behind TCA9548A multiplexers on I2C0, quadrature encoders on GPIO
// pairs (contacts to ground, open = the pad's pull-up), the roll button (to ground), the
// multiplexers' shared RESET line, and the WS2812 chain decoded from its data pin.
//
// The AS5600 and TCA9548A follow firmware/dialrig/sim_i2c.py (the unix-port tray's models,
// faults included), register for register: STATUS MD/ML/MH, AGC, MAGNITUDE, RAW ANGLE/ANGLE with
// ZPOS, the gap model, a chip or multiplexer that does not answer its address.

const RAW_ANGLE = 0x0c, ANGLE = 0x0e, STATUS = 0x0b, AGC = 0x1a, MAGNITUDE = 0x1b, BURN = 0xff;
const CONF_LAST = 0x08;
const MD = 0x20, ML = 0x10, MH = 0x08;
const FIELD_K = 1049.0, FIELD_C = 2.915, FIELD_HIGH = 90.0, FIELD_LOW = 30.0, FIELD_MIN = 8.0;
const AGC_MAX = 128;

function xorshift16(x) {
  x ^= (x << 7) & 0xffff;
  x ^= x >> 9;
  x ^= (x << 8) & 0xffff;
  return x;
}

const validReg = (r) => r <= CONF_LAST || (STATUS <= r && r <= ANGLE + 1) ||
  (AGC <= r && r <= MAGNITUDE + 1) || r === BURN;

const wrap4096 = (a) => ((a % 4096) + 4096) % 4096;

export class AS5600 {
  constructor(angle = 0) {
    this.angle = angle; this.magnet = true; this.field = 0; this.nak = false;
    this.gap = null; this.gapAgc = -1; this.gapFar = false; this.gapMag = 0;
    this.rng = 0xace1; this.regs = new Uint8Array(CONF_LAST + 1);
    this.ptr = 0; this.hold = false; this.first = false; this.raw = 0; this.mag = 0;
    this.reads = 0;
    this.wedge = false; // addressed next, it stretches SCL for ever (until the bus is reset)
    // The hand's motions (harness rotate): where those asked for so far leave the magnet
    // (unwrapped angle units; null: at rest), when the last ends (chip ns), and a generation
    // that a placement (setAngle) bumps to cancel them.
    this.goal = null; this.busyUntil = 0; this.gen = 0;
    this.onRead = null; // (angle) => void: the firmware reads the magnet here (camera follow)
  }
  /** The magnet put at `angle` at once (the bench's placement): motions under way stop. */
  setAngle(angle) {
    this.angle = angle; this.goal = null; this.busyUntil = 0; this.gen++;
  }
  /** Turn the magnet by `delta` units over `ms` of chip time (1 ms steps), `at(ns, fn)`
   * scheduling in chip time from `now`. A turn that comes while the magnet still moves
   * follows the one before, from where it leaves the magnet, as a hand's second turn does:
   * two turns sent together once both set the angle from the same start, and the dial ended
   * one click short of the two (a miscount the firmware could not help). */
  rotate(delta, ms, now, at) {
    const steps = Math.max(1, Math.round(ms));
    const start = Math.max(now, this.busyUntil);
    const from = this.goal === null ? this.angle : this.goal;
    const gen = this.gen;
    this.goal = from + delta;
    this.busyUntil = start + steps * 1e6;
    for (let i = 1; i <= steps; i++) {
      at(start - now + i * 1e6, () => {
        if (this.gen === gen) this.angle = wrap4096(from + delta * i / steps);
      });
    }
  }
  /** Every motion asked for done at once (a chip reset or power-off: the hand finishes the
   * turn whatever the chip does; the alarms it was timed by belonged to the old chip). */
  settle() {
    if (this.goal !== null) this.setAngle(wrap4096(this.goal));
  }
  setGap(mm) {
    this.gap = mm;
    if (mm === null) { this.gapAgc = -1; this.gapFar = false; this.field = 0; return; }
    const b = FIELD_K / (Math.max(0, mm) + FIELD_C) ** 2;
    this.gapFar = b < FIELD_MIN;
    this.field = b >= FIELD_HIGH ? 1 : b <= FIELD_LOW ? -1 : 0;
    this.gapAgc = b >= FIELD_HIGH ? 0 : b <= FIELD_LOW ? AGC_MAX
      : Math.round(AGC_MAX * Math.log(FIELD_HIGH / b) / Math.log(FIELD_HIGH / FIELD_LOW));
    const mag = b >= FIELD_HIGH ? 2000 * b / FIELD_HIGH : b <= FIELD_LOW ? 2000 * b / FIELD_LOW
      : 2000;
    this.gapMag = Math.min(4095, Math.trunc(mag));
  }
  start(read) {
    if (!read) { this.first = true; return; }
    this.reads++;
    this.rng = xorshift16(this.rng);
    if (!this.magnet || this.gapFar) { this.raw = this.rng & 0xfff; this.mag = this.rng & 0x1f; return; }
    this.raw = Math.round(this.angle) & 0xfff;
    if (this.onRead) this.onRead(this.angle);
    this.mag = this.gapAgc >= 0 ? this.gapMag : this.field < 0 ? 300 : this.field > 0 ? 4000 : 2000;
  }
  write(byte) {
    if (this.first) {
      this.first = false; this.ptr = byte;
      this.hold = byte === RAW_ANGLE || byte === ANGLE || byte === MAGNITUDE;
      return validReg(byte);
    }
    const p = this.ptr;
    this.ptr = (p + 1) & 0xff;
    if (p > 0 && p <= CONF_LAST) { this.regs[p] = byte; return true; }
    return p === BURN;
  }
  read() {
    const p = this.ptr;
    const v = this.reg(p);
    if (this.hold && (p === RAW_ANGLE + 1 || p === ANGLE + 1 || p === MAGNITUDE + 1)) this.ptr = p - 1;
    else this.ptr = (p + 1) & 0xff;
    return v;
  }
  reg(r) {
    if (r === STATUS) {
      if (!this.magnet || this.gapFar) return ML;
      return this.field < 0 ? MD | ML : this.field > 0 ? MD | MH : MD;
    }
    if (r === RAW_ANGLE) return this.raw >> 8;
    if (r === RAW_ANGLE + 1) return this.raw & 0xff;
    if (r === ANGLE || r === ANGLE + 1) {
      const zpos = ((this.regs[1] & 0x0f) << 8) | this.regs[2];
      const a = (this.raw - zpos) & 0xfff;
      return r === ANGLE ? a >> 8 : a & 0xff;
    }
    if (r === AGC) {
      if (this.gapAgc >= 0 && this.magnet && !this.gapFar) return this.gapAgc;
      if (!this.magnet || this.field < 0) return 128;
      return this.field > 0 ? 0 : 64;
    }
    if (r === MAGNITUDE) return this.mag >> 8;
    if (r === MAGNITUDE + 1) return this.mag & 0xff;
    if (r <= CONF_LAST) return r ? this.regs[r] : 0;
    return 0;
  }
}

/** I2C0 with its two TCA9548As and the AS5600s on their channels. */
export class I2CBus {
  constructor(muxAddrs, sensorAddr = 0x36) {
    this.muxes = new Map();
    for (const a of muxAddrs) this.muxes.set(a, { control: 0, nak: false, present: true, writes: 0 });
    this.sensorAddr = sensorAddr;
    this.sensors = new Map(); // "mux:channel" -> AS5600
    this.target = null;
    this.transfers = 0; // START or repeated START + address (ACKed or not)
    this.bytes = 0; // data bytes clocked after an ACKed address
    this.stops = 0;
    this.held = null; // the I2C controller whose SCL a wedged AS5600 holds low, or null
  }
  sensor(mux, ch) {
    const key = `${mux}:${ch}`;
    let s = this.sensors.get(key);
    if (!s) { s = new AS5600(); this.sensors.set(key, s); }
    return s;
  }
  /** The multiplexers' RESET (or a power-on): every channel off, which also cuts a wedged
   * AS5600 off the bus: SCL is free again and the transfer it held ends with a NAK. */
  resetMuxes() {
    for (const m of this.muxes.values()) m.control = 0;
    const held = this.held;
    this.held = null;
    if (held) held.completeConnect(false);
  }
  _connect(address, read) {
    const mux = this.muxes.get(address);
    if (mux) {
      if (!mux.present || mux.nak) return null;
      return {
        start() {},
        write(b) { mux.control = b; mux.writes++; return true; },
        read() { return mux.control; },
      };
    }
    if (address !== this.sensorAddr) return null;
    for (const [addr, m] of this.muxes) {
      if (!m.present) continue;
      for (let ch = 0; ch < 8; ch++) {
        if (!(m.control & (1 << ch))) continue;
        const s = this.sensors.get(`${addr}:${ch}`);
        if (s && !s.nak) return s;
      }
    }
    return null;
  }
  attach(i2c) {
    // RAW_INTR_STAT.TX_EMPTY is a level on the chip (TX FIFO at or below IC_TX_TL), not an
    // event: stock rp2040js only raises it when it takes a command, so after a NAK flushed
    // the FIFO the pico-sdk waits for it until its timeout and the next transfer inherits the
    // abort (ETIMEDOUT, then EIO, where a real Pico reports one clean EIO).
    const read = i2c.readUint32.bind(i2c);
    i2c.readUint32 = (offset) => {
      const v = read(offset);
      if (offset === 0x34 || offset === 0x2c) { // IC_RAW_INTR_STAT, IC_INTR_STAT
        const level = i2c.txFIFO.itemCount <= i2c.txThreshold ? 1 << 4 : 0;
        return offset === 0x34 ? v | level : v | (level & i2c.intEnable);
      }
      return v;
    };
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address, mode) => {
      this.transfers++;
      this.target = this._connect(address, mode === 1);
      if (this.target && this.target.wedge) {
        // Clock stretching for ever: the controller waits for SCL, its TX FIFO fills with
        // the commands of every later transfer, and the pico-sdk then spins for FIFO room
        // with no timeout. One-shot: once the bus is reset the part answers again.
        this.target.wedge = false;
        this.held = i2c;
        return;
      }
      if (this.target) this.target.start(mode === 1);
      i2c.completeConnect(!!this.target);
    };
    i2c.onWriteByte = (v) => {
      this.bytes++;
      i2c.completeWrite(this.target ? !!this.target.write(v) : false);
    };
    i2c.onReadByte = () => { this.bytes++; i2c.completeRead(this.target ? this.target.read() : 0xff); };
    i2c.onStop = () => { this.stops++; this.target = null; i2c.completeStop(); };
  }
}

/** Decodes the WS2812 data line: bit times from the pin's edges, frames at each latch. */
export class WS2812Decoder {
  constructor(clock, onFrame) {
    this.clock = clock; this.onFrame = onFrame;
    this.high = false; this.rose = 0; this.fell = 0;
    this.bits = 0; this.byte = 0; this.bytes = [];
  }
  edge(high) {
    const t = this.clock.nanos;
    if (high && !this.high) {
      this.latch(t);
      this.rose = t;
    } else if (!high && this.high) {
      const width = t - this.rose; // 375 ns: a 0; 750 ns: a 1 (threshold 562 ns)
      this.byte = (this.byte << 1) | (width > 562 ? 1 : 0);
      if (++this.bits === 8) { this.bytes.push(this.byte); this.bits = 0; this.byte = 0; }
      this.fell = t;
    }
    this.high = high;
  }
  /** A line low for more than 280 us ends the frame (WS2812B-V5 reset time). */
  latch(t) {
    if (!this.high && this.bytes.length && t - this.fell > 280_000) {
      const frame = this.bytes;
      this.bytes = []; this.bits = 0; this.byte = 0;
      this.onFrame(frame);
    }
  }
}

/** A quadrature encoder: contacts to ground, so a closed contact pulls its line low and an
 * open one leaves it to the pad's pull-up. Counting up goes 00 -> 10 -> 11 -> 01 (B<<1|A). */
export class Encoder {
  constructor(chip, a, b) {
    this.chip = chip; this.a = a; this.b = b; this.count = 0; this.dead = false;
    // where the moves asked for so far leave the count, and when the last ends (chip ns)
    this.goal = 0; this.busyUntil = 0;
    this.onChange = null; // (count) => void: the contacts moved (camera follow)
    this.apply();
  }
  /** The shaft where the moves asked for leave it (a reset: the hand finishes its turn). */
  place(count) {
    this.count = count; this.goal = count; this.busyUntil = 0;
  }
  apply() {
    if (this.onChange) this.onChange(this.count);
    const s = [0, 2, 3, 1][this.count & 3];
    if (this.dead) { this.chip.drive(this.a, null); this.chip.drive(this.b, null); return; }
    this.chip.drive(this.a, s & 1 ? null : false);
    this.chip.drive(this.b, s & 2 ? null : false);
  }
  /** Move `steps` transitions over `ns` of simulated time, each settling through contact bounce
   * (the changing line chatters 3 times, 20 us apart) when bounce is on. A move that comes
   * while the shaft still turns follows the one before: two moves sent together once put
   * their transitions on the same instants, two at a time, and the PIO saw the contacts jump
   * two states (00 -> 11), which counts nothing: two clicks turned, none counted. A real
   * shaft passes every state, one at a time. */
  move(steps, ns, bounce, at) {
    const n = Math.abs(steps);
    if (!n) return;
    const dir = Math.sign(steps);
    // (a bounce's chatter, 60 us, ends before the next transition: never two at one instant)
    const every = Math.max(bounce ? 80_000 : 2000, Math.floor(ns / n));
    const now = this.chip.clock.nanos;
    const start = Math.max(now, this.busyUntil);
    this.goal += steps;
    this.busyUntil = start + every * n + (bounce ? 60_000 : 0);
    for (let i = 0; i < n; i++) {
      const when = start - now + every * (i + 1);
      at(when, () => { this.count += dir; this.apply(); });
      if (bounce) {
        for (let k = 1; k <= 3; k++) {
          at(when + k * 20_000 - 10_000, () => { this.count -= dir; this.apply(); });
          at(when + k * 20_000, () => { this.count += dir; this.apply(); });
        }
      }
    }
  }
}
