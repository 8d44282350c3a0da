// dialtray dock: holds one figure's clix base over its dial sensors.
//
// One dock per figure. The clix base sits in a round pocket; under each dial's hub a printed
// magnet holder clips onto the hub and turns with the dial, and an AS5600 breakout board sits in
// a cavity below, its chip pressed against a thin floor right under the magnet. The floor sets
// the air gap, so the gap is right by construction: the AS5600 datasheet gives 0.5-3 mm as the
// typical range (bigger magnets allow more), and the AGC register (shown by the self-test)
// tells you where in its range the field is.
//
// Units: millimetres. Parametric: MEASURE YOUR BASE with calipers and change the "clix base"
// block below; the defaults are a starting point, not a survey of every Crimson Skies base.
//
// Print the dock as modelled, pocket up: the cavities open onto the bed and their ceilings
// bridge 23 mm, which PLA and PETG do cleanly. 0.2 mm layers, 3 walls. Print the holder standing
// on its floor with 0.1 or 0.2 mm layers, so the floor under the magnet is exactly
// `holder_floor` thick.
//
// part = "dock" | "holder" | "both" (both: the dock with the holders shown in place, for a look)

part = "dock"; // [dock, holder, both]

/* [Clix base: measure yours] */
base_d = 60;          // outer diameter of the figure's clix base
pocket_depth = 4;     // how deep the base sits in the dock
// Dial hub centres on the base's underside, from the base centre: [x, y]. Combat first, then
// speed; delete the speed entry for a figure without a speed dial.
dial_hubs = [[-13, 0], [13, 0]];
hub_d = 8;            // diameter of the dial's hub (the part under the base that turns)
hub_h = 2.0;          // how far the hub stands out below the base: the clip grips that much.
                      // A flush hub: set 0 and glue the holder on, centred with the target.

/* [Magnet (diametrically magnetised disc)] */
magnet_d = 6;
magnet_t = 2.5;

/* [Fits] */
fit = 0.3;            // clearance of loose fits (magnet pocket, holder in its well)
grip = 0.15;          // interference of the clip on the hub (radius)
wall = 1.2;

/* [Air gap] */
holder_floor = 0.4;   // plastic under the magnet (two 0.2 mm layers)
holder_clearance = 0.3; // between the turning holder and the dock floor
dock_floor = 0.8;     // plastic between the holder's well and the chip

/* [AS5600 breakout board] */
board_w = 23;         // the common square breakout; measure yours
board_l = 23;
board_t = 1.6;
chip_h = 1.5;         // SOIC-8 body height above the board
chip_offset = [0, 0]; // chip centre from the board centre
cable_w = 6;          // channel for the 4-core lead to the multiplexer
cable_h = 3;

/* [Dock] */
rim = 6;              // frame around the base pocket
dock_label = "0";     // engraved on the front: which dock this is

$fn = 96;

// ---- derived ----------------------------------------------------------------------------------
air_gap = holder_floor + holder_clearance + dock_floor;
assert(air_gap >= 0.5 && air_gap <= 3, str("air gap ", air_gap, " mm is outside AS5600's 0.5-3 mm"));

holder_d = max(magnet_d, hub_d) + 2 * wall;
holder_h = holder_floor + magnet_t + hub_h;
well_d = holder_d + 2 * fit;
well_depth = holder_h + holder_clearance; // the whole holder hangs below the base
cavity_h = board_t + chip_h + cable_h;            // under the floor: board, chip, cable room
dock_w = base_d + 2 * rim;
dock_h = pocket_depth + well_depth + dock_floor + cavity_h;

// ---- parts ------------------------------------------------------------------------------------

// Magnet holder: a cup with the magnet at the bottom and a slit collar that clips onto the hub.
// The collar keeps the magnet on the dial's axis: the AS5600 wants it within 0.25 mm of the
// chip centre for a 6 mm magnet, which is why the magnet is not just glued on by eye.
module magnet_holder() {
    difference() {
        cylinder(d = holder_d, h = holder_h);
        // magnet pocket above the thin floor (press fit plus a drop of glue)
        translate([0, 0, holder_floor]) cylinder(d = magnet_d + fit, h = magnet_t + 0.01);
        // collar bore, slightly under the hub size so it grips
        translate([0, 0, holder_floor + magnet_t]) cylinder(d = hub_d - 2 * grip, h = hub_h + 0.01);
        // four slits make the collar springy
        if (hub_h > 0)
            for (a = [0, 90, 180, 270])
                rotate(a) translate([0, -0.4, holder_floor + magnet_t + 0.4]) cube([holder_d, 0.8, hub_h]);
    }
}

// The cavity below one dial: board, chip window up to the floor, and the cable channel out.
module sensor_cavity(hub) {
    translate([hub[0], hub[1], 0]) {
        // board pocket, open from below
        translate([chip_offset[0] - (board_w + fit) / 2, chip_offset[1] - (board_l + fit) / 2, -0.01])
            cube([board_w + fit, board_l + fit, cavity_h - chip_h + 0.01]);
        // chip window: the chip rises into it and touches the floor's underside
        translate([-(5 + fit) / 2, -(6 + fit) / 2, cavity_h - chip_h - 0.01])
            cube([5 + fit, 6 + fit, chip_h + 0.02]);
    }
}

module cable_channel(hub) {
    // from under the dial straight out of the back of the dock
    translate([hub[0] - cable_w / 2, hub[1], -0.01]) cube([cable_w, dock_w, cable_h]);
}

module dock() {
    difference() {
        translate([-dock_w / 2, -dock_w / 2, 0]) cube([dock_w, dock_w, dock_h]);
        // the base pocket
        translate([0, 0, dock_h - pocket_depth]) cylinder(d = base_d + 2 * fit, h = pocket_depth + 0.01);
        // finger notches to lift the figure out, leaving 2 mm of rim outside them
        for (s = [-1, 1])
            translate([s * base_d / 2, 0, dock_h - pocket_depth])
                scale([(rim - 2) / 9, 1, 1]) cylinder(d = 18, h = pocket_depth + 0.01);
        for (hub = dial_hubs) {
            // the holder's well: the holder turns freely in it
            translate([hub[0], hub[1], dock_h - pocket_depth - well_depth])
                cylinder(d = well_d, h = well_depth + 0.01);
            sensor_cavity(hub);
            cable_channel(hub);
        }
        // dock number on the front face
        translate([0, -dock_w / 2 + 0.6, dock_h / 2]) rotate([90, 0, 0])
            linear_extrude(1) text(dock_label, size = min(6, dock_h * 0.6), halign = "center", valign = "center");
    }
}

if (part == "dock") dock();
if (part == "holder") magnet_holder();
if (part == "both") {
    dock();
    for (hub = dial_hubs)
        translate([hub[0], hub[1], dock_h - pocket_depth - holder_h])
            color("orange") magnet_holder();
}

echo(str("air gap magnet to chip: ", air_gap, " mm; dock height ", dock_h, " mm"));
