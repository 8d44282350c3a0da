// chip.mjs — one emulated RP2040 (rp2040js) with what stock rp2040js lacks, supplied here:
//
//   * a SPI NOR flash chip behind the SSI (program 0x02, sector/block erase 0x20/0xD8/0x52,
//     chip erase 0xC7/0x60, read 0x03/0x0B, status 0x05, write enable 0x06, unique ID 0x4B,
//     JEDEC ID 0x9F), chip-select from IO_QSPI's SS output override, as the boot ROM's and the
//     pico-sdk's flash routines drive it. Every change is written through to a file, so a power
//     cycle (a new chip on the same file) keeps the filesystem;
//   * VREG_AND_CHIP_RESET.CHIP_RESET (HAD_POR on a power-on, clear after a watchdog reset) so
//     machine.reset_cause() tells the two apart;
//   * pad pull-ups / pull-downs: a pin nothing outside drives reads its pull;
//   * the PIO stepped in lock-step with the CPU, honouring each state machine's clock divider and
//     instruction delays, never stepping a disabled one. A state machine whose full state comes
//     back identical after a loop (a decoder polling pins that do not move) is parked until
//     something can change what it computes (a write or read of its PIO's registers, a pin driven
//     from outside, a pad change): exact, and it keeps 7 idle decoders from costing 7x;
//   * a watchdog whose trigger hands control to the embedder once (stock rp2040js fires it again
//     on every tick) with the reason and scratch registers to carry into the next chip.
import fs from 'node:fs';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const FLASH_SIZE = 2 * 1024 * 1024;
const SECTOR = 4096;
const PIO_WAIT_PIN = 1;
const PIO_WAIT_IRQ = 4;

/** Load a UF2 file's blocks for the RP2040 (family 0xe48bff56) into a flash image. */
export function loadUF2(bytes, flash) {
  for (let off = 0; off + 512 <= bytes.length; off += 512) {
    const v = new DataView(bytes.buffer, bytes.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = v.getUint32(12, true);
    const size = v.getUint32(16, true);
    const at = addr - 0x10000000;
    if (at < 0 || at + size > flash.length) continue;
    flash.set(bytes.subarray(off + 32, off + 32 + size), at);
  }
}

/** The flash chip: a byte-wide SPI command stream between CS low and CS high. */
class FlashChip {
  constructor(image, uid, persist) {
    this.image = image; // the RP2040's own flash array: XIP reads see every change at once
    this.uid = uid; // 8 bytes
    this.persist = persist; // (offset, length) => void
    this.cmd = [];
    this.wel = false;
    this.out = []; // bytes the chip shifts out during the current command
  }
  select() { this.cmd = []; this.out = []; }
  deselect() {
    const c = this.cmd;
    if (!c.length) return;
    const op = c[0];
    const addr = ((c[1] << 16) | (c[2] << 8) | c[3]) & (FLASH_SIZE - 1);
    if (op === 0x06) this.wel = true;
    else if (op === 0x04) this.wel = false;
    else if ((op === 0x20 || op === 0x52 || op === 0xd8) && this.wel && c.length >= 4) {
      const size = op === 0x20 ? SECTOR : op === 0x52 ? 32768 : 65536;
      const start = addr & ~(size - 1);
      this.image.fill(0xff, start, start + size);
      this.persist(start, size);
      this.wel = false;
    } else if ((op === 0xc7 || op === 0x60) && this.wel) {
      this.image.fill(0xff);
      this.persist(0, FLASH_SIZE);
      this.wel = false;
    } else if (op === 0x02 && this.wel && c.length > 4) {
      // Page program: bits can only go 1 -> 0, and the address wraps within the 256-byte page.
      const page = addr & ~0xff;
      for (let i = 4; i < c.length; i++) {
        const a = page | ((addr + i - 4) & 0xff);
        this.image[a] &= c[i];
      }
      this.persist(page, 256);
      this.wel = false;
    }
    this.cmd = [];
  }
  /** One byte in, one byte out (full duplex). */
  transfer(b) {
    const c = this.cmd;
    const i = c.length;
    c.push(b & 0xff);
    const op = c[0];
    if (i === 0) return 0xff;
    switch (op) {
      case 0x05: return this.wel ? 0x02 : 0x00; // status: never busy (erase/program are instant)
      case 0x35: return 0x02; // status 2: QE set (boot2 then leaves the register alone)
      case 0x9f: return [0xef, 0x40, 0x15][(i - 1) % 3]; // W25Q16JV, as on the Pico
      case 0x4b: return i >= 5 && i < 13 ? this.uid[i - 5] : 0x00; // 4 dummy bytes, then the ID
      case 0x03: {
        if (i < 4) return 0x00;
        const a = (((c[1] << 16) | (c[2] << 8) | c[3]) + (i - 4)) & (FLASH_SIZE - 1);
        return this.image[a];
      }
      case 0x0b: {
        if (i < 5) return 0x00;
        const a = (((c[1] << 16) | (c[2] << 8) | c[3]) + (i - 5)) & (FLASH_SIZE - 1);
        return this.image[a];
      }
      default: return 0x00;
    }
  }
}

/** Patch an RP2040 instance with the missing pieces. Returns the chip wrapper. */
export class Chip {
  /**
   * opts: bootrom (Uint32Array), flash (Uint8Array, FLASH_SIZE: the contents to start from),
   * uid (8 bytes), persist(offset, len, flash), watchdogReason, scratch (8 words), powerOn,
   * onWatchdog(reason, scratch), log (function)
   */
  constructor(opts) {
    this.opts = opts;
    const sim = new Simulator();
    this.sim = sim;
    this.clock = sim.clock;
    const mcu = sim.rp2040;
    this.mcu = mcu;
    mcu.logger = new ConsoleLogger(LogLevel.Error, true);
    mcu.loadBootrom(opts.bootrom); // resets: the flash reads erased, so the image goes in after
    mcu.flash.set(opts.flash);
    this.ext = new Array(30).fill(null); // what drives each pin from outside (null: nothing)
    this.parked = 0;
    this.stallUntil = 0;
    this._active = true;
    this._flashChip = new FlashChip(mcu.flash, opts.uid,
                                    (o, n) => opts.persist(o, n, mcu.flash));
    this._patchFlash();
    this._patchChipReset(!!opts.powerOn);
    this._patchWatchdog(opts.watchdogReason || 0, opts.scratch);
    this._patchPads();
    this._patchPIO();
    this.cdc = new USBCDC(mcu.usbCtrl);
    this._patchUSB();
    this._patchMemory();
    mcu.core.PC = 0x10000000; // boot2 at the start of flash, as rp2040js's own MicroPython demo
  }

  get nanos() { return this.clock.nanos; }

  /** A USB host sends on a bulk OUT endpoint only when it has data; until then the device's
   * armed buffer is NAKed. Stock rp2040js completes every armed OUT buffer at once, empty when
   * it has nothing: TinyUSB re-arms, the next empty packet comes, and the USB interrupt and
   * its task eat most of the CPU (the chip never sleeps; the firmware's loops run several
   * times slower than on a Pico). Here an armed OUT buffer waits for the host's bytes. */
  _patchUSB() {
    const usb = this.mcu.usbCtrl;
    const cdc = this.cdc;
    const read = usb.onEndpointRead; // USBCDC's: fills the buffer from its txFIFO
    this._outArmed = -1; // size of the OUT buffer the device has armed, or -1
    this._usbRead = read;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) { this._outArmed = size; return; }
      read(endpoint, size);
    };
  }

  /** The host has bytes for the device (cdc.sendSerialByte): complete an armed OUT buffer. */
  serviceUSB() {
    if (this._outArmed < 0 || this.cdc.txFIFO.empty) return;
    const size = this._outArmed;
    this._outArmed = -1;
    this._usbRead(this.cdc.outEndpoint, size);
  }

  /** The core's loads and stores, same results, fewer steps: stock rp2040js sends every
   * access through RP2040.readUint32/writeUint32, whose store looks for a peripheral first
   * (a lookup in a sparse object, ~6 % of the emulator's time) even for SRAM, the commonest
   * target. Here SRAM and flash (XIP) accesses go straight to their arrays, and a peripheral
   * is found in a dense table by the same index ((address >>> 14) << 2, divided by 4); any
   * other address takes stock rp2040js's path. (Measured: the emulated firmware costs
   * ~20 % less CPU a simulated second.) */
  _patchMemory() {
    const mcu = this.mcu;
    const core = mcu.core;
    const sramView = mcu.sramView;
    const sram = mcu.sram;
    const flashView = mcu.flashView;
    const RAM = 0x20000000;
    const RAM_END = RAM + sram.length;
    const FL = 0x10000000;
    const FL_END = FL + mcu.flash.length;
    const table = new Array(0x40000).fill(undefined);
    for (const [key, p] of Object.entries(mcu.peripherals)) table[Number(key) >>> 2] = p;
    mcu.findPeripheral = (address) => table[address >>> 14];
    const r32 = mcu.readUint32.bind(mcu);
    const r16 = mcu.readUint16.bind(mcu);
    const r8 = mcu.readUint8.bind(mcu);
    const w32 = mcu.writeUint32.bind(mcu);
    core.readUint32 = (a) => {
      if (a >= RAM && a + 3 < RAM_END) return sramView.getUint32(a - RAM, true);
      if (a >= FL && a + 3 < FL_END) return flashView.getUint32(a - FL, true);
      return r32(a);
    };
    core.readUint16 = (a) => {
      if (a >= FL && a + 1 < FL_END) return flashView.getUint16(a - FL, true);
      if (a >= RAM && a + 1 < RAM_END) return sramView.getUint16(a - RAM, true);
      return r16(a);
    };
    core.readUint8 = (a) => {
      if (a >= RAM && a < RAM_END) return sram[a - RAM];
      return r8(a);
    };
    core.writeUint32 = (a, v) => {
      if (a >= RAM && a + 3 < RAM_END) { sramView.setUint32(a - RAM, v, true); return; }
      w32(a, v);
    };
    // A load's or store's wait states: 1 below the APB (ROM, flash, SRAM), as stock decides.
    const io = core.cyclesIO.bind(core);
    core.cyclesIO = (a, write = false) => (a >= 0 && a < 0x40000000 ? 1 : io(a, write));
  }

  _patchFlash() {
    const mcu = this.mcu;
    const chip = this._flashChip;
    const ssi = mcu.peripherals[0x18000];
    const rx = [];
    const SR = 0x28, DR0 = 0x60, TXFLR = 0x20, RXFLR = 0x24, SSIENR = 0x08;
    const readOrig = ssi.readUint32.bind(ssi);
    const writeOrig = ssi.writeUint32.bind(ssi);
    // Without a forced chip-select (IO_QSPI), the SSI frames a command itself: CS falls at the
    // first byte and rises once the TX FIFO has drained, which boot2 waits for by polling SR.
    let auto = false;
    ssi.readUint32 = (offset) => {
      switch (offset) {
        case SR:
          if (auto) { auto = false; chip.selected = false; chip.deselect(); }
          return 0x06 | (rx.length ? 0x08 : 0); // TFE | TFNF | RFNE, never BUSY
        case TXFLR: return 0;
        case RXFLR: return rx.length;
        case DR0: return rx.length ? rx.shift() : 0;
      }
      return readOrig(offset);
    };
    ssi.writeUint32 = (offset, value) => {
      if (offset === DR0) {
        if (!chip.selected) { auto = true; chip.selected = true; chip.select(); }
        rx.push(chip.transfer(value));
        if (rx.length > 16) rx.shift();
        return;
      }
      if (offset === SSIENR && !(value & 1)) rx.length = 0;
      writeOrig(offset, value);
    };
    // IO_QSPI: GPIO_QSPI_SS_CTRL (offset 0x0c) OUTOVER (bits 9:8): 2 drives CS low, else high.
    const regs = new Uint32Array(0x30 / 4);
    const ioqspi = mcu.peripherals[0x40018];
    ioqspi.readUint32 = (offset) => (offset < 0x30 ? regs[offset >> 2] : 0);
    ioqspi.writeUint32 = (offset, value) => {
      if (offset >= 0x30) return;
      regs[offset >> 2] = value;
      if (offset === 0x0c) {
        const low = ((value >> 8) & 3) === 2;
        if (chip.selected) { chip.selected = false; chip.deselect(); }
        auto = false;
        if (low) { chip.selected = true; chip.select(); }
      }
    };
  }

  _patchChipReset(powerOn) {
    const p = this.mcu.peripherals[0x40064];
    // CHIP_RESET (offset 0x08): HAD_POR (bit 8) after a power-on; clear after a watchdog reset,
    // which does not reset this register block. Read-only here (its one writable bit, the
    // debugger's PSM_RESTART_FLAG, is not used). VREG and BOD keep their reset values.
    const chipReset = powerOn ? 1 << 8 : 0;
    const vreg = new Uint32Array(2);
    vreg[0] = 0xb1; vreg[1] = 0x07;
    p.readUint32 = (offset) => (offset === 0x08 ? chipReset : offset < 8 ? vreg[offset >> 2] : 0);
    p.writeUint32 = (offset, value) => { if (offset < 8) vreg[offset >> 2] = value; };
    // ROSC: reads as 0xffffffff stock; RANDOMBIT (0x1c) must toggle for urandom's entropy.
    const rosc = this.mcu.peripherals[0x40060];
    let lfsr = (this.opts.seed || 0x1234567) >>> 0;
    const roscRegs = new Uint32Array(0x24 / 4);
    rosc.readUint32 = (offset) => {
      if (offset === 0x1c) {
        lfsr ^= lfsr << 13; lfsr ^= lfsr >>> 17; lfsr ^= lfsr << 5; lfsr >>>= 0;
        return lfsr & 1;
      }
      if (offset === 0x18) return 0x80001000; // STATUS: STABLE | ENABLED
      return offset < 0x24 ? roscRegs[offset >> 2] : 0;
    };
    rosc.writeUint32 = (offset, value) => { if (offset < 0x24) roscRegs[offset >> 2] = value; };
  }

  _patchWatchdog(reason, scratch) {
    const wd = this.mcu.peripherals[0x40058];
    wd.reason = reason;
    if (scratch) wd.scratchData.set(scratch);
    this.fired = false;
    wd.onWatchdogTrigger = () => {
      // Stop it firing again on every tick; the embedder rebuilds the chip after this step.
      wd.timer.enable = false;
      wd.alarm.enable = false;
      wd.enable = false;
      if (this.fired) return;
      this.fired = true;
      this.opts.onWatchdog(wd.reason, Array.from(wd.scratchData));
    };
  }

  _patchPads() {
    const pads = this.mcu.peripherals[0x4001c];
    const orig = pads.writeUint32.bind(pads);
    pads.writeUint32 = (offset, value) => {
      orig(offset, value);
      const i = (offset - 4) >> 2;
      if (i >= 0 && i < 30) this.resolvePin(i);
    };
    for (let i = 0; i < 30; i++) this.resolvePin(i);
  }

  /** A pin's input: what drives it from outside, else its pad's pull (down when neither). */
  resolvePin(i) {
    const pin = this.mcu.gpio[i];
    const e = this.ext[i];
    const v = e !== null ? e : pin.pullupEnabled ? true : pin.pulldownEnabled ? false
      : pin.rawInputValue;
    if (v !== pin.rawInputValue) {
      pin.setInputValue(v);
      this.wakePIO();
    }
  }

  /** Drive pin i from outside: true/false, or null to let it go (its pull decides). */
  drive(i, v) {
    this.ext[i] = v;
    this.resolvePin(i);
  }

  _patchPIO() {
    for (const pio of this.mcu.pio) {
      pio.run = () => {}; // stepped from step(), never on its own timer
      const r = pio.readUint32.bind(pio);
      const w = pio.writeUint32.bind(pio);
      pio.readUint32 = (o) => { this._wake(pio); return r(o); };
      pio.writeUint32 = (o, v) => { this._wake(pio); return w(o, v); };
      for (const sm of pio.machines) {
        sm._acc = 0; sm._delay = 0; sm._sig = ''; sm._same = 0; sm._parked = false;
      }
    }
  }

  _wake(pio) {
    for (const sm of pio.machines) { sm._parked = false; sm._same = 0; sm._sig = ''; }
    this._active = true;
  }

  wakePIO() { for (const pio of this.mcu.pio) this._wake(pio); }

  /** Advance every enabled state machine by `cycles` system clock cycles. */
  stepPIO(cycles) {
    if (!this._active) return;
    let active = false;
    for (const pio of this.mcu.pio) {
      let stepped = false;
      for (const sm of pio.machines) {
        if (!sm.enabled || sm._parked) continue;
        const div = ((sm.clockDivInt || 65536) << 8) + sm.clockDivFrac;
        sm._acc += cycles * 256;
        while (sm._acc >= div) {
          sm._acc -= div;
          stepped = true;
          if (sm._delay > 0) { sm._delay--; continue; }
          const c0 = sm.cycles;
          sm.step();
          const used = sm.cycles - c0;
          if (used > 1) sm._delay = used - 1;
          if (sm.waiting) {
            // Stalled on a FIFO: nothing changes until its PIO is touched (DMA or CPU).
            if (sm.waitType !== PIO_WAIT_PIN && sm.waitType !== PIO_WAIT_IRQ) {
              sm._parked = true; sm._acc = 0; break;
            }
          } else if (sm.pc === sm.wrapBottom && sm._delay === 0) {
            const sig = this._signature(pio, sm);
            if (sig === sm._sig) {
              if (++sm._same >= 2) { sm._parked = true; sm._acc = 0; break; }
            } else { sm._sig = sig; sm._same = 0; }
          }
        }
      }
      if (stepped) pio.checkChangedPins();
      for (const sm of pio.machines) if (sm.enabled && !sm._parked) active = true;
    }
    this._active = active;
  }

  _signature(pio, sm) {
    return `${sm.x},${sm.y},${sm.inputShiftReg},${sm.inputShiftCount},${sm.outputShiftReg},` +
      `${sm.outputShiftCount},${sm.rxFIFO.items},${sm.txFIFO.items},${pio.pinValues},` +
      `${pio.pinDirections},${pio.irq}`;
  }

  /** Run the CPU (and the PIO with it) for at most `budgetNanos` of simulated time. */
  run(budgetNanos) {
    const { mcu, clock } = this;
    const core = mcu.core;
    const end = clock.nanos + budgetNanos;
    const cycleNanos = 1e9 / (mcu.clkSys || 125e6);
    while (clock.nanos < end && !this.fired) {
      let cycles;
      if (this.stallUntil > clock.nanos) {
        const ns = Math.min(this.stallUntil, end) - clock.nanos;
        const next = clock.nanosToNextAlarm;
        let step = next > 0 && next < ns ? next : ns;
        if (this._pioActive()) step = Math.min(step, 64 * cycleNanos);
        clock.tick(step);
        cycles = Math.max(1, Math.round(step / cycleNanos));
      } else if (core.waiting) {
        let ns = clock.nanosToNextAlarm;
        if (ns <= 0) ns = end - clock.nanos; // nothing scheduled: asleep until the slice ends
        if (ns > end - clock.nanos) ns = Math.max(cycleNanos, end - clock.nanos);
        // An active state machine must see every cycle: do not skip far past it while asleep.
        cycles = Math.max(1, Math.round(ns / cycleNanos));
        if (this._pioActive() && cycles > 64) { cycles = 64; ns = 64 * cycleNanos; }
        clock.tick(ns);
      } else if (!this._active) {
        // No state machine to keep in step: a burst of up to 64 instructions, to the next
        // alarm at most, then the clock moves once (moving it after every instruction was a
        // fifth of the emulator's time). Alarms still fire at their own time; a timer read
        // inside a burst is at most the burst (< 1 us) behind. A burst ends at once when an
        // instruction wakes a state machine, which then steps from that instruction on.
        const alarm = clock.nextAlarm;
        const room = end - clock.nanos;
        let next = alarm ? alarm.nanos - clock.nanos : room;
        if (next > room) next = room;
        let ns = 0;
        cycles = 0;
        for (let i = 0; i < 64; i++) {
          cycles = core.executeInstruction();
          ns += cycles * cycleNanos;
          if (ns >= next || core.waiting || this._active) break;
        }
        clock.tick(ns);
      } else {
        cycles = core.executeInstruction();
        clock.tick(cycles * cycleNanos);
      }
      this.stepPIO(cycles); // after a burst: the last instruction's cycles (the PIO slept before)
    }
  }

  _pioActive() { return this._active; }
}

export { FLASH_SIZE };
