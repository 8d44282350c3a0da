// dialtray dock: holds one figure's clix base over the sensors of its dials.
//
// THE ONE PLACE FOR YOUR MEASUREMENTS. Every parameter of the dock and of the couplers is at the
// top of this file; coupler.scad includes this file and reads them from here. The defaults are
// SAMPLE VALUES, ASSUMED, NOT MEASURED from a real Crimson Skies base: measure one of your bases
// with calipers (hardware/README.md, "Measuring a base") and replace every value marked
// MEASURE before printing more than one trial dock.
//
// How a base couples to a sensor (hardware/README.md, "How a base meets its sensor"):
// a clix base is a top plate (the figure is glued to it; the L-shaped window shows the stats)
// on a dial ring (the rotating disc under the base, the combat dial). A click turns one against
// the other. The dock holds ONE of them still, in ONE orientation (a clip-on anchor collar with
// a tab), and a keyed coupler follows the OTHER one: the coupler carries the AS5600's magnet
// (the chip sits under the dock floor) or sits on the incremental encoder's D-shaft.
//   turns = "ring": the top plate is held; the coupler's pins sit in recesses under the ring;
//                   you turn the ring through the finger notches. Needed for plane bases: the
//                   speed spindle rides on the top plate, so the top must stay still for the
//                   speed arm above the spindle to read it.
//   turns = "top":  the ring is held in the pocket; the coupler grips the centre post seen
//                   from below; you turn the top plate. Aces character bases (no speed dial).
// The speed dial (a spindle on top of a plane's base) gets its own coupler, a cap pushed onto
// the spindle, read from above by a sensor in the speed arm.
//
// Units: millimetres. Angles: degrees, counter-clockwise seen from above, 0 = to the right,
// 90 = the back of the dock (the dock number is engraved on the front).
//
// part = "dock"      the dock body, one per figure (print as modelled, pocket up, 0.2 mm layers)
//        "collar"    the anchor collar, clipped onto the held part of the base (print flat)
//        "speed_arm" the arm holding the speed dial's sensor (lay it on its side to print)
//        "assembly"  everything in place with the base drawn as ghosts, to check the fit
// The couplers are printed from coupler.scad.

part = "dock"; // [dock, collar, speed_arm, assembly]

/* [Build] */
sensor = "as5600";        // [as5600, encoder] what reads the dials (hardware/README.md §1)
turns = "ring";           // [ring, top] which part of the base the player turns in the dock
speed_dial = true;        // the base has a speed spindle on top (Air Action plane bases)
dock_label = "0";         // engraved on the front: which dock this is (0-7)

/* [Top plate: MEASURE (defaults are assumptions)] */
base_d = 60;              // MEASURE: outer diameter of the top plate (the part the figure is on)
top_t = 3;                // MEASURE: thickness of the top plate at its rim

/* [Combat dial ring: MEASURE (defaults are assumptions)] */
ring_d = 58;              // MEASURE: outer diameter of the dial ring (the disc under the base)
ring_h = 4;               // MEASURE: height of the ring, table to the underside of the top plate
combat_detents = 12;      // COUNT: clicks in one full turn of the combat dial
hub_d = 5;                // MEASURE: diameter of the centre post (rivet) seen from below
hub_h = 1;                // MEASURE: how far the post stands out below the ring (0 = flush)
// MEASURE: recesses in the ring's underside the coupler's pins drop into, [radius, angle]:
// the angle CLOCKWISE as seen looking at the underside (base upside down on the table), as the
// protractor of hardware/README.md numbers its ticks. Use an uneven pattern (or a single slot)
// so the ring can sit on the coupler one way only.
key_slots = [[16, 0], [16, 140]];
key_slot_w = 3;           // MEASURE: the narrowest width of those recesses
key_slot_depth = 1.5;     // MEASURE: their depth

/* [Speed dial spindle: MEASURE (defaults are assumptions)] */
// MEASURE: the spindle's centre from the base centre, [x, y], seen from above with the
// collar's tab pointing to the back of the dock (x to the right, y to the back).
speed_pos = [-16, -14];
spindle_d = 8;            // MEASURE: spindle (knob) diameter where the cap will grip it
spindle_h = 5;            // MEASURE: how far the spindle stands above the top plate
speed_detents = 12;       // COUNT: clicks in one full turn of the speed dial
// MEASURE: the figure's flight stand where it meets the top plate; the speed arm must clear it
stand_pos = [0, 0];
stand_d = 10;             // MEASURE: the stand's diameter at its foot

/* [Magnet (AS5600): diametrically magnetised disc] */
magnet_d = 6;             // the AS5600 is designed around a 6 mm disc
magnet_t = 2.5;           // its thickness (the usual 6 x 2.5 mm AS5600 magnet)
magnet_recess = 0.2;      // how far the magnet sits inside its pocket: it never drags

/* [Incremental encoder (sensor = "encoder")] */
enc_ppr = 24;             // quadrature cycles per revolution (data sheet: "pulses")
enc_detents = 0;          // the encoder's own detents; 0 = smooth (best: the dial clicks)
shaft_d = 6;              // MEASURE: shaft diameter
shaft_flat = 4.5;         // MEASURE: D-shaft, from the flat to the far side of the round
shaft_l = 20;             // MEASURE: shaft length from the mounting face (body top)
enc_bushing_d = 7;        // threaded bushing (M7 on EC11-style encoders)
enc_bushing_h = 7;        // MEASURE: bushing length from the mounting face
enc_nut_d = 11;           // the bushing nut across its corners
enc_body_w = 12.5;        // MEASURE: body width, without the pins
enc_body_l = 13.5;        // MEASURE: body length
enc_body_h = 6.5;         // MEASURE: body height, mounting face to the back
enc_pins_h = 5;           // solder pins below the body
enc_plate = 2;            // plastic the encoder is bolted through (under the bushing's thread)
shaft_clear = 0.5;        // between the nut and the coupler

/* [AS5600 breakout board] */
board_w = 23;             // MEASURE your board: the common square breakout
board_l = 23;             // MEASURE: its other side
board_t = 1.6;            // circuit board thickness
chip_h = 1.5;             // SOIC-8 body height above the board
chip_offset = [0, 0];     // chip centre from the board centre, seen from the chip side
chip_w = 5;               // SOIC-8 body footprint
chip_l = 6.2;             // (5 x 6.2 mm with a little room)

/* [Fits and gaps] */
fit = 0.3;                // clearance of parts that slide or turn
spin_fit = 0.2;           // radial play of a coupler in its well (the magnet's off-axis error)
grip = 0.15;              // interference of a clip (collar on a plate, cap on a spindle)
wall = 1.6;               // walls of couplers, collars and pods (4 lines of 0.4 mm)
face_gap = 0.4;           // between a coupler's face and the base above it
top_lift = 0.6;           // how far the top plate stands above the dock surface
dock_floor = 0.8;         // plastic between a magnet's well and the AS5600 chip
speed_gap = 0.5;          // between the speed cap and the speed arm's floor

/* [Anchor collar] */
collar_wall = 1.6;        // the collar's ring: thin enough to spring over the plate
collar_h = 2.5;           // at most the height of the part it clips onto
tab_w = 5;                // the collar's tab, across
tab_l = 4;                // how far the tab reaches out
anchor_angle = 90;        // where the tab points: 90 = the back of the dock

/* [Dock] */
rim = 9;                  // frame around the pocket
finger_d = 18;            // finger notches at both sides (turn the ring, lift the figure out)
arm_w = 8;                // speed arm cross-section
peg_d = 5;                // speed arm peg into the dock
peg_h = 6;                // its depth into the dock
cable_w = 6;              // channel for the 4-core lead to the multiplexer
cable_h = 3;              // (and room for the wires under the board)

$fn = 96;

// ---- derived ---------------------------------------------------------------------------------
// The coupler's envelope: coupler.scad builds inside it, the dock leaves room for it.
function pattern_r() = max([for (k = key_slots) k[0]]);
key_pin_d = key_slot_w - fit;
key_pin_h = face_gap + key_slot_depth - 0.3;            // tip 0.3 mm short of the recess floor
coupler_web = 1.2;                                       // solid layer between the two ends
grip_depth = hub_h > 0 ? hub_h + 0.4 : 0;                // collar bore, or room for the rivet
combat_grip_d = turns == "ring" ? 2 * pattern_r() + key_pin_d + 2 * wall : hub_d + 2 * wall;
sensor_end_d = sensor == "as5600" ? magnet_d + 2 * wall : shaft_d + 2 * wall;
coupler_d = max(combat_grip_d, sensor_end_d, hub_d + 2 * wall);
bushing_above = enc_bushing_h - enc_plate;               // bushing thread above the plate
shaft_engage = shaft_l - enc_bushing_h - shaft_clear;    // shaft inside the coupler
sensor_end_h = sensor == "as5600" ? magnet_recess + magnet_t : shaft_engage;
coupler_h = sensor_end_h + coupler_web + grip_depth;
// the speed cap: a coupler upside down, its bore on the spindle, its sensor end up
cap_d = max(spindle_d + 2 * wall, sensor_end_d);
cap_bore = spindle_h - 0.5;                              // its rim clears the top plate
cap_h = cap_bore + coupler_web + sensor_end_h + (sensor == "encoder" ? 0.5 : 0);

// air gap, magnet to chip: the coupler rests on its well floor (smallest gap), or is lifted
// by a clip on the post by up to face_gap (largest)
air_gap_min = magnet_recess + dock_floor;
air_gap_max = air_gap_min + (turns == "top" ? face_gap : 0);
speed_air_gap = magnet_recess + speed_gap + dock_floor;

// levels (z) of the dock
well_d = coupler_d + 2 * spin_fit;
enc_drop = sensor == "encoder" ? bushing_above + shaft_clear : 0;   // coupler rides on the shaft
well_depth = enc_drop + coupler_h + face_gap;
held_d = turns == "ring" ? base_d : ring_d;              // what the collar clips onto
collar_d = held_d + 2 * collar_wall;
pocket_d = turns == "ring" ? ring_d + 2 * fit : collar_d + 2 * fit;
pocket_depth = ring_h - top_lift;
floor_t = sensor == "as5600" ? dock_floor : enc_plate;
cavity_h = sensor == "as5600" ? board_t + chip_h + cable_h : enc_body_h + enc_pins_h + cable_h;
dock_h = cavity_h + floor_t + well_depth + pocket_depth;
dock_w = max(base_d, pocket_d) + 2 * rim;
z_pocket = dock_h - pocket_depth;                        // the ring's underside
z_top = dock_h + top_lift + top_t;                       // upper face of the top plate
speed_xy = [cos(anchor_angle - 90) * speed_pos[0] - sin(anchor_angle - 90) * speed_pos[1],
            sin(anchor_angle - 90) * speed_pos[0] + cos(anchor_angle - 90) * speed_pos[1]];
stand_xy = [cos(anchor_angle - 90) * stand_pos[0] - sin(anchor_angle - 90) * stand_pos[1],
            sin(anchor_angle - 90) * stand_pos[0] + cos(anchor_angle - 90) * stand_pos[1]];
z_cap_top = z_top + spindle_h - cap_bore + cap_h;        // the cap rests on the spindle's top
pod_w = (sensor == "as5600" ? max(board_w, board_l) : max(enc_body_w, enc_body_l)) + 2 * wall;
pod_h = sensor == "as5600" ? dock_floor + chip_h + board_t + cable_h : enc_plate + enc_body_h;
z_pod = z_cap_top + (sensor == "as5600" ? speed_gap : bushing_above + shaft_clear);
speed_dir = norm(speed_xy) > 0 ? speed_xy / norm(speed_xy) : [0, -1];
post_r = max(base_d, pocket_d) / 2 + collar_wall + fit + arm_w / 2 + 1;
post_xy = speed_dir * post_r;
speed_sensed = speed_dial && turns == "ring";

// ---- checks: a wrong measurement stops the render with the reason ----------------------------
assert(ring_d <= base_d + 10 && ring_d >= 10, "ring_d: measure the dial ring's outer diameter");
assert(pocket_depth >= 1, str("ring_h ", ring_h, " leaves a pocket under 1 mm: re-measure"));
assert(collar_h <= (turns == "ring" ? top_t : pocket_depth),
       "collar_h is taller than the part the collar clips onto");
assert(sensor != "as5600" || (air_gap_min >= 0.5 && air_gap_max <= 3),
       str("air gap ", air_gap_min, "-", air_gap_max, " mm is outside the AS5600's 0.5-3 mm"));
assert(sensor != "as5600" || !speed_dial || (speed_air_gap >= 0.5 && speed_air_gap <= 3),
       str("speed air gap ", speed_air_gap, " mm is outside the AS5600's 0.5-3 mm"));
assert(sensor == "as5600" || sensor == "encoder", "sensor: as5600 or encoder");
assert(turns == "ring" || turns == "top", "turns: ring or top");
assert(turns == "ring" || hub_h >= 1,
       "turns = \"top\" grips the centre post: it must stand out at least 1 mm (hub_h)");
assert(turns == "top" || len(key_slots) >= 1, "turns = \"ring\" needs at least one key slot");
assert(turns == "top" || 2 * pattern_r() + key_pin_d < ring_d - 4,
       "key_slots lie outside the ring: radius is from the ring's centre");
assert(well_d < ring_d - 2, "the coupler is wider than the ring: it would not sit under it");
assert(!(speed_dial && turns == "top"),
       "the speed spindle rides on the top plate: with turns = \"top\" it would move under its sensor; use turns = \"ring\" for plane bases");
assert(sensor != "encoder" || shaft_engage >= 4,
       str("the encoder shaft reaches only ", shaft_engage, " mm into the coupler (4 needed): longer shaft, or thinner enc_plate"));
assert(sensor != "encoder" || shaft_flat < shaft_d, "shaft_flat is measured across the D: less than shaft_d");
assert(sensor != "encoder" || (enc_ppr % combat_detents == 0 && enc_ppr / combat_detents <= 16),
       str("enc_ppr ", enc_ppr, " is not 1-16 whole cycles per combat click (", combat_detents, ")"));
assert(sensor != "encoder" || !speed_sensed || enc_ppr % speed_detents == 0,
       str("enc_ppr ", enc_ppr, " is not whole cycles per speed click (", speed_detents, ")"));
assert(sensor != "encoder" || enc_detents == 0 || enc_detents % combat_detents == 0,
       "the encoder's own detents must be 0 (smooth) or a multiple of the dial's clicks");
assert(!speed_sensed || norm(speed_xy - stand_xy) >= stand_d / 2 + pod_w / 2 + 1,
       "the speed arm's sensor pod would hit the flight stand: a smaller sensor board, or measure stand_pos/speed_pos again");
assert(rim >= collar_wall + tab_l + wall + 1, "rim too narrow for the anchor tab");
assert(!speed_sensed || max(abs(post_xy[0]), abs(post_xy[1])) + arm_w / 2 <= dock_w / 2,
       "the speed arm's post falls outside the dock: raise rim");

// ---- the dock ---------------------------------------------------------------------------------
module dock() {
    difference() {
        union() {
            translate([-dock_w / 2, -dock_w / 2, 0]) cube([dock_w, dock_w, dock_h]);
            if (turns == "ring") anchor_fork();
        }
        translate([0, 0, z_pocket]) cylinder(d = pocket_d, h = pocket_depth + 0.01);
        if (turns == "top") anchor_notch();
        // finger notches at both sides, down to the pocket floor: turn the ring, lift the base
        for (s = [-1, 1])
            translate([s * pocket_d / 2, 0, z_pocket])
                scale([(rim - 2) / (finger_d / 2), 1, 1]) cylinder(d = finger_d, h = pocket_depth + 0.01);
        // the coupler's well, and under it the sensor
        translate([0, 0, z_pocket - well_depth]) cylinder(d = well_d, h = well_depth + 0.01);
        if (sensor == "as5600") as5600_cavity(); else encoder_cavity();
        // the cable leaves through the back
        translate([-cable_w / 2, 0, -0.01]) cube([cable_w, dock_w, cable_h]);
        if (speed_sensed) translate([post_xy[0], post_xy[1], dock_h - peg_h]) cylinder(d = peg_d + fit, h = peg_h + 0.01);
        translate([0, -dock_w / 2 + 0.6, dock_h / 2]) rotate([90, 0, 0])
            linear_extrude(1) text(dock_label, size = min(6, dock_h * 0.5), halign = "center", valign = "center");
    }
}

// AS5600: the board pocket opens onto the bed; the chip rises into a window and touches the
// underside of the floor, dock_floor under the magnet.
module as5600_cavity() {
    translate([-chip_offset[0] - (board_w + fit) / 2, -chip_offset[1] - (board_l + fit) / 2, -0.01])
        cube([board_w + fit, board_l + fit, cavity_h - chip_h + 0.01]);
    translate([-(chip_w + fit) / 2, -(chip_l + fit) / 2, cavity_h - chip_h - 0.02])
        cube([chip_w + fit, chip_l + fit, chip_h + 0.03]);
}

// Encoder: the body hangs under the plate, the bushing comes up through it, its nut in the well.
module encoder_cavity() {
    translate([-(enc_body_w + fit) / 2, -(enc_body_l + fit) / 2, -0.01])
        cube([enc_body_w + fit, enc_body_l + fit, cavity_h + 0.01]);
    translate([0, 0, cavity_h - 0.01]) cylinder(d = enc_bushing_d + fit, h = enc_plate + 0.02);
}

// turns = "ring": two posts on the dock surface catch the collar's tab (the top plate's collar).
module anchor_fork() {
    r = collar_d / 2 + tab_l / 2;
    rotate(anchor_angle) translate([r, 0, dock_h - 0.01])
        for (s = [-1, 1]) translate([-tab_l / 2, s * ((tab_w + fit) / 2 + wall / 2) - wall / 2, 0])
            cube([tab_l, wall, top_lift + collar_h]);
}

// turns = "top": a notch in the pocket wall takes the tab of the ring's collar.
module anchor_notch() {
    rotate(anchor_angle) translate([0, -(tab_w + fit) / 2, z_pocket])
        cube([collar_d / 2 + tab_l + fit, tab_w + fit, pocket_depth + 0.01]);
}

// ---- the anchor collar: clips onto the held part, its tab sets the one orientation ----------
module collar() {
    difference() {
        union() {
            cylinder(d = collar_d, h = collar_h);
            translate([0, -tab_w / 2, 0]) cube([collar_d / 2 + tab_l, tab_w, collar_h]);
        }
        translate([0, 0, -0.01]) cylinder(d = held_d - 2 * grip, h = collar_h + 0.02);
        // a slit opposite the tab lets it spring over the plate
        translate([-collar_d / 2 - 0.01, -0.5, -0.01]) cube([collar_wall + 0.5, 1, collar_h + 0.02]);
    }
}

// ---- the speed arm: a post beside the base and a pod over the spindle's cap ----------------
module speed_arm() {
    difference() {
        union() {
            translate([post_xy[0], post_xy[1], 0]) {
                translate([0, 0, dock_h - peg_h]) cylinder(d = peg_d, h = peg_h);
                translate([-arm_w / 2, -arm_w / 2, dock_h]) cube([arm_w, arm_w, z_pod + pod_h - dock_h]);
            }
            // the beam, from the post to the pod, no lower than the pod: the cap turns under it
            hull() for (xy = [post_xy, speed_xy])
                translate([xy[0] - arm_w / 2, xy[1] - arm_w / 2, z_pod]) cube([arm_w, arm_w, pod_h]);
            at_pod() translate([-pod_w / 2, -pod_w / 2, 0]) cube([pod_w, pod_w, pod_h]);
        }
        at_pod() pod_cut();
    }
}

module at_pod() {
    translate([speed_xy[0], speed_xy[1], z_pod]) rotate(atan2(speed_dir[1], speed_dir[0])) children();
}

// The pod: AS5600 board face down, its chip dock_floor above the cap's magnet (the board goes
// in from above, the cable leaves upwards); or the encoder upside down, its bushing down
// through enc_plate and its shaft into the cap.
module pod_cut() {
    if (sensor == "as5600") {
        translate([-(chip_w + fit) / 2, -(chip_l + fit) / 2, dock_floor])
            cube([chip_w + fit, chip_l + fit, chip_h + 0.01]);
        // face down: seen from above the board is mirrored, so its centre is at (+x, -y)
        translate([chip_offset[0] - (board_w + fit) / 2, -chip_offset[1] - (board_l + fit) / 2, dock_floor + chip_h])
            cube([board_w + fit, board_l + fit, pod_h]);
    } else {
        translate([0, 0, -0.01]) cylinder(d = enc_bushing_d + fit, h = enc_plate + 0.02);
        translate([-(enc_body_w + fit) / 2, -(enc_body_l + fit) / 2, enc_plate])
            cube([enc_body_w + fit, enc_body_l + fit, pod_h]);
    }
}

// ---- assembly: the dock with ghosts of the base, couplers and arm --------------------------
module assembly() {
    dock();
    if (speed_sensed) color("steelblue") speed_arm();
    translate([0, 0, turns == "ring" ? dock_h + top_lift : z_pocket])
        rotate(anchor_angle) color("orange") collar();
    %translate([0, 0, z_pocket]) cylinder(d = ring_d, h = ring_h);
    %translate([0, 0, dock_h + top_lift]) cylinder(d = base_d, h = top_t);
    %translate([0, 0, z_pocket - face_gap - coupler_h]) cylinder(d = coupler_d, h = coupler_h);
    if (speed_sensed) {
        %translate([speed_xy[0], speed_xy[1], z_top]) cylinder(d = spindle_d, h = spindle_h);
        %translate([speed_xy[0], speed_xy[1], z_cap_top - cap_h]) cylinder(d = cap_d, h = cap_h);
        %translate([stand_xy[0], stand_xy[1], z_top]) cylinder(d = stand_d, h = 40);
    }
}

if (part == "dock") dock();
if (part == "collar") collar();
if (part == "speed_arm") { assert(speed_sensed, "no speed arm: speed_dial is false (or turns = \"top\")"); speed_arm(); }
if (part == "assembly") assembly();

echo(str("dialtray dock: sensor ", sensor, ", turns ", turns,
         sensor == "as5600" ? str(", air gap ", air_gap_min,
                                  air_gap_max > air_gap_min ? str("-", air_gap_max) : "", " mm",
                                  speed_sensed ? str(", speed gap ", speed_air_gap, " mm") : "")
                            : str(", shaft ", shaft_engage, " mm into the coupler, ",
                                  enc_ppr / combat_detents, " cycles per combat click"),
         "; dock ", dock_w, " x ", dock_w, " x ", dock_h, " mm; coupler ", coupler_d, " x ",
         coupler_h, " mm"));
