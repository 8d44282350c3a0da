// harness.mjs — an emulated Raspberry Pi Pico on a bench: node harness.mjs CONFIG_JSON
//
// CONFIG_JSON: {bootrom, uf2, flash (a file: the board's 2 MiB flash, kept across power
// cycles; made from the UF2 plus an optional littlefs image when missing), lfs (image file or
// null), lfs_offset, uid (16 hex digits), seed, pins (dialrig.config.PINS), mux_addrs,
// sensor_addr, realtime (never run ahead of the wall clock)}.
//
// The USB CDC is a TCP server on 127.0.0.1 (port in the first event): pyserial's socket:// and
// `mpremote connect socket://...` use it like the Pico's /dev/ttyACM0. One JSON command a line
// on stdin drives the bench; one JSON event a line on stdout reports it (ready, boot, leds,
// at, stats, error). See dialtray/virtual/rp2040/harness.py for the Python side.
import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { Chip, loadUF2, FLASH_SIZE } from './chip.mjs';
import { I2CBus, WS2812Decoder, Encoder } from './devices.mjs';

const cfg = JSON.parse(process.argv[2]);
const emit = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

const bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(cfg.bootrom)).buffer);
const uid = Uint8Array.from(Buffer.from(cfg.uid, 'hex'));

// ---- the flash file ----------------------------------------------------------------------------
let flash = new Uint8Array(FLASH_SIZE).fill(0xff);
if (fs.existsSync(cfg.flash) && fs.statSync(cfg.flash).size === FLASH_SIZE) {
  flash.set(fs.readFileSync(cfg.flash));
} else {
  loadUF2(fs.readFileSync(cfg.uf2), flash);
  if (cfg.lfs) flash.set(fs.readFileSync(cfg.lfs), cfg.lfs_offset);
  fs.writeFileSync(cfg.flash, flash);
}
const flashFd = fs.openSync(cfg.flash, 'r+');
const persist = (offset, length, image) => {
  fs.writeSync(flashFd, image, offset, length, offset);
  flash = image;
};

// ---- the bench ---------------------------------------------------------------------------------
const pins = cfg.pins;
const bus = new I2CBus(cfg.mux_addrs, cfg.sensor_addr);
let chip = null;
let encoders = [];
let buttonDown = false;
let lastFrame = '';
let powered = false;
let boots = 0;
let pending = null; // {reason, scratch}: the watchdog fired; rebuild after this slice
// `follow` on: every dial where the firmware finds it somewhere new is reported (`at`): an
// AS5600's angle as the firmware reads it, an encoder's count as its contacts move (the PIO
// sees every transition). The virtual camera films these very positions, on the chip's clock.
let following = false;
const seenAt = new Map();
const report = (key, fields, value) => {
  if (!following || seenAt.get(key) === value) return;
  seenAt.set(key, value);
  emit({ ev: 'at', ...fields });
};
const sensorAt = (mux, ch) => {
  const s = bus.sensor(mux, ch);
  if (!s.onRead) s.onRead = (angle) => report(`s${mux}:${ch}`, { mux, ch, angle }, angle);
  return s;
};
const stats = { instructions: 0, simStart: 0, wallStart: 0 };

function at(chipRef, deltaNs, fn) {
  const alarm = chipRef.clock.createAlarm(() => { if (chip === chipRef) fn(); });
  alarm.schedule(deltaNs);
}

function build(powerOn, reason = 0, scratch = null) {
  boots++;
  const c = new Chip({
    bootrom, flash, uid, persist, powerOn, watchdogReason: reason, scratch, seed: cfg.seed + boots,
    onWatchdog: (why, regs) => { pending = { reason: why, scratch: regs }; },
  });
  chip = c;
  toDevice = []; // what the old chip's USB had not taken dies with it
  bus.held = null; // the old chip's I2C controller is gone; the muxes reset at power-up
  bus.resetMuxes();
  bus.attach(c.mcu.i2c[0]);
  // Outside world onto the new chip's pins (positions survive resets: the dials did not move).
  const old = encoders;
  encoders = pins.quadrature.map(([a, b], n) => {
    const e = new Encoder(c, a, b);
    if (old[n]) { e.place(old[n].goal); e.dead = old[n].dead; e.apply(); }
    e.onChange = (count) => report(`q${n}`, { quad: n, count }, count);
    return e;
  });
  for (const s of bus.sensors.values()) s.settle();
  c.drive(pins.roll_button, buttonDown ? false : null);
  const decoder = new WS2812Decoder(c.clock, (frame) => {
    const hex = Buffer.from(frame).toString('hex');
    if (hex !== lastFrame) {
      lastFrame = hex;
      emit({ ev: 'leds', t: c.clock.nanos / 1e9, grb: hex });
    }
  });
  c.decoder = decoder;
  c.mcu.gpio[pins.ws2812].addListener((v) => decoder.edge(v === 1));
  c.mcu.gpio[pins.mux_reset].addListener((v) => { if (v === 0) bus.resetMuxes(); });
  // USB CDC <-> the TCP client
  c.cdc.onDeviceConnected = () => { c.connected = true; };
  c.cdc.onSerialData = (buf) => { if (client) client.write(Buffer.from(buf)); };
  stats.simStart = c.clock.nanos;
  stats.wallStart = performance.now();
  powered = true;
  emit({ ev: 'boot', boots, reason: powerOn ? 'power' : 'watchdog', watchdog_reason: reason });
}

// ---- USB CDC over TCP --------------------------------------------------------------------------
let client = null;
let toDevice = [];
const server = net.createServer((sock) => {
  if (client) client.destroy();
  client = sock;
  sock.setNoDelay(true);
  sock.on('data', (d) => { for (const b of d) toDevice.push(b); if (toDevice.length > 65536) sock.pause(); });
  sock.on('close', () => { if (client === sock) client = null; });
  sock.on('error', () => {});
});

function pumpUSB() {
  if (!chip || !chip.connected || !toDevice.length) return;
  const fifo = chip.cdc.txFIFO;
  let n = 0;
  while (toDevice.length && !fifo.full && n < 64) { chip.cdc.sendSerialByte(toDevice.shift()); n++; }
  chip.serviceUSB();
  if (client && toDevice.length < 16384) client.resume();
}

// ---- the main loop: emulate, never ahead of the wall clock -------------------------------------
const SLICE_NS = 250_000; // 0.25 ms of chip time between looks at the outside world
const MAX_LAG_NS = 50e6;
let looping = false;
function loop() {
  looping = false;
  if (!powered) return; // off: power(on) starts the loop again
  const t0 = performance.now();
  while (powered && performance.now() - t0 < 20) {
    const wallNs = (performance.now() - stats.wallStart) * 1e6;
    const simNs = chip.clock.nanos - stats.simStart;
    if (cfg.realtime && simNs > wallNs) {
      looping = true;
      setTimeout(loop, Math.max(1, (simNs - wallNs) / 1e6));
      return;
    }
    if (wallNs - simNs > MAX_LAG_NS) stats.wallStart += (wallNs - simNs - MAX_LAG_NS) / 1e6;
    pumpUSB();
    chip.run(SLICE_NS);
    chip.decoder.latch(chip.clock.nanos);
    if (pending) {
      const { reason, scratch } = pending;
      pending = null;
      build(false, reason, scratch);
    }
  }
  looping = true;
  setImmediate(loop);
}
const kick = () => { if (!looping) { looping = true; setImmediate(loop); } };

// ---- commands ----------------------------------------------------------------------------------
const commands = {
  sensor(c) {
    const s = sensorAt(c.mux, c.ch);
    if ('angle' in c) s.setAngle(c.angle);
    if ('magnet' in c) s.magnet = c.magnet;
    if ('nak' in c) s.nak = c.nak;
    if ('gap' in c) s.setGap(c.gap);
    if ('field' in c) s.field = c.field;
    if ('wedge' in c) s.wedge = c.wedge;
  },
  /** Turn an AS5600's magnet by `delta` units over `ms` of chip time (1 ms steps), after
   * any turn of it still under way (AS5600.rotate); with the power off, at once. */
  rotate(c) {
    const s = sensorAt(c.mux, c.ch);
    if (!chip) { s.rotate(c.delta, 0, 0, (ns, fn) => fn()); s.settle(); return; }
    const ref = chip;
    s.rotate(c.delta, c.ms, ref.clock.nanos, (ns, fn) => at(ref, ns, fn));
  },
  mux(c) {
    const m = bus.muxes.get(c.addr);
    if (!m) return;
    if ('nak' in c) m.nak = c.nak;
    if ('present' in c) m.present = c.present;
  },
  quad(c) {
    const e = encoders[c.n];
    if ('dead' in c) { e.dead = c.dead; e.apply(); }
    if (c.steps && !chip) e.place(e.goal + c.steps); // the power is off: no PIO counts it
    else if (c.steps) e.move(c.steps, c.ms * 1e6, !!c.bounce, (ns, fn) => at(chip, ns, fn));
  },
  press(c) {
    buttonDown = true;
    chip.drive(pins.roll_button, false);
    const ref = chip;
    at(chip, c.ms * 1e6, () => { buttonDown = false; ref.drive(pins.roll_button, null); });
  },
  power(c) {
    if (c.on && !powered) { build(true); kick(); }
    if (!c.on && chip) emit({ ev: 'off' });
    if (!c.on) { powered = false; chip = null; }
  },
  reset() { build(true); kick(); },
  /** `at` events on (or off): see `following`. */
  follow(c) { following = !!c.on; seenAt.clear(); },
  /** The CPU stops executing for `ms` of chip time (a task that never yields); timers, the
   * watchdog and the PIO go on. */
  stall(c) { if (chip) chip.stallUntil = chip.clock.nanos + c.ms * 1e6; },
  stats() {
    return { sim_s: chip ? chip.clock.nanos / 1e9 : 0, cycles: chip ? chip.mcu.core.cycles : 0,
             boots, i2c_transfers: bus.transfers, i2c_bytes: bus.bytes, i2c_stops: bus.stops,
             sensor_reads: Object.fromEntries([...bus.sensors].map(([k, v]) => [k, v.reads])) };
  },
  quit() { server.close(); process.exit(0); },
};

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  try {
    const c = JSON.parse(line);
    const result = commands[c.op](c);
    if (c.id !== undefined) emit({ ...(result || {}), ev: 'ok', id: c.id });
  } catch (e) {
    emit({ ev: 'error', message: String(e && e.message || e), line });
  }
});
process.stdin.on('end', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  emit({ ev: 'ready', port: server.address().port });
  build(true);
  kick();
});
