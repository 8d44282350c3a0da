// dialtray couplers: the keyed parts that make a sensor turn with a dial.
//
// Every measurement is a parameter at the top of dock.scad (this file includes it): set your
// base's values THERE, once, and both files follow. From the command line pass the same -D
// values to both, e.g.  openscad -D ring_d=56 -D 'part="speed"' -o speed.stl coupler.scad
//
// Two couplers per plane base, one per character base, one kind per sensor:
//
//   part = "combat"  sits in the dock's well under the base.
//       turns = "ring": pins on its face drop into the recesses under the dial ring
//                       (key_slots), so it turns with the ring; the uneven pattern lets the ring
//                       sit on it one way only, so the magnet's angle always means the same click.
//       turns = "top":  a slit collar clips onto the centre post seen from below (hub_d,
//                       hub_h) and turns with the top plate.
//   part = "speed"   a cap pushed onto the speed spindle on top of a plane's base (a slit collar,
//                    spindle_d/spindle_h), read from above by the sensor in the speed arm.
//
//   sensor = "as5600":  the sensor end holds the diametric magnet (magnet_d x magnet_t) in a
//                       pocket open towards the chip; press it in with a drop of superglue,
//                       magnet_recess below the face, and let it cure before use.
//   sensor = "encoder": the sensor end is a D-bore for the encoder's shaft (shaft_d,
//                       shaft_flat), as deep as the shaft reaches: the coupler rests on the
//                       shaft's tip at the height the dock was designed for.
//
// Print both ends as modelled: the sensor end (combat) or the bore (speed) on the bed, 0.1 or
// 0.15 mm layers for the pins and bores. Print spares: a coupler that wobbles makes a dial
// read off-centre (calibration's residual shows it).

include <dock.scad>

part = "combat"; // [combat, speed, both]

// ---- the D-shaft bore, open at z = 0, pointing up --------------------------------------------
module d_bore(depth) {
    bore_d = shaft_d + fit / 2;
    intersection() {
        translate([0, 0, -0.01]) cylinder(d = bore_d, h = depth + 0.01);
        // the flat: everything further than (shaft_flat - shaft_d / 2) from the axis on one side
        translate([-bore_d / 2, -bore_d / 2, -0.02])
            cube([bore_d, shaft_flat + fit / 4, depth + 0.03]);
    }
}

// The sensor end, cut into a part whose end face is at z = 0.
// extra: a deeper bore, so that a part resting on something else never rides on the shaft.
module sensor_end_cut(extra = 0) {
    if (sensor == "as5600")
        translate([0, 0, -0.01]) cylinder(d = magnet_d + fit / 2, h = magnet_recess + magnet_t + 0.01);
    else
        d_bore(sensor_end_h + extra);
}

// A slit collar bore gripping a post of diameter d, depth h, open at z = 0.
module collar_cut(d, h, outer_d) {
    translate([0, 0, -0.01]) cylinder(d = d - 2 * grip, h = h + 0.01);
    for (a = [0, 90, 180, 270])
        rotate(a) translate([0, -0.4, -0.01]) cube([outer_d, 0.8, h - 0.4]);
}

module combat_coupler() {
    difference() {
        cylinder(d = coupler_d, h = coupler_h);
        sensor_end_cut();
        translate([0, 0, coupler_h - grip_depth]) {
            if (turns == "top") collar_cut(hub_d, grip_depth + 0.01, coupler_d);
            else if (grip_depth > 0) cylinder(d = hub_d + 2 * fit, h = grip_depth + 0.01);
        }
    }
    // key pins. key_slots are clockwise seen from below the ring; turned upright, a clockwise
    // angle seen from below is counter-clockwise seen from above (plus a half turn, which does
    // not matter: the coupler turns freely until the ring drops onto it)
    if (turns == "ring")
        for (k = key_slots) rotate(k[1]) translate([k[0], 0, coupler_h - 0.01]) {
            cylinder(d = key_pin_d, h = key_pin_h - 0.5 + 0.01);
            translate([0, 0, key_pin_h - 0.5 + 0.01]) cylinder(d1 = key_pin_d, d2 = key_pin_d - 1, h = 0.5);
        }
}

module speed_cap() {
    difference() {
        cylinder(d = cap_d, h = cap_h);
        collar_cut(spindle_d, cap_bore, cap_d);
        // the cap rests on the spindle, not on the encoder's shaft tip: 0.5 mm to spare
        translate([0, 0, cap_h]) mirror([0, 0, 1]) sensor_end_cut(extra = 0.5);
    }
}

if (part == "combat") combat_coupler();
if (part == "speed") { assert(speed_dial, "no speed cap: speed_dial is false"); speed_cap(); }
if (part == "both") {
    combat_coupler();
    if (speed_dial) translate([coupler_d / 2 + cap_d / 2 + 3, 0, 0]) speed_cap();
}

echo(str("dialtray couplers: combat ", coupler_d, " x ", coupler_h, " mm",
         speed_dial ? str(", speed cap ", cap_d, " x ", cap_h, " mm") : ""));
