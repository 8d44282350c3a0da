// dialtray dice panel: 12 LED dice of 7 pips each, one WS2812B per pip, and the d10 ring.
//
// Each die is a square face with the 7 pip positions a d6 can light (the 3x3 grid minus top and
// bottom middle). From below, each pip has a pocket for a WS2812B on a 10 mm round breakout,
// and a wiring channel runs the chain in firmware order: die 0 pip 0 first, then pip 1..6, then
// die 1, ... (LED index = die * 7 + pip). The pip numbers are those of dialrig.dice:
//
//     1 . 2        0 centre, 1 top left, 2 top right, 3 middle left, 4 middle right,
//     3 0 4        5 bottom left, 6 bottom right
//     5 . 6
//
// The d10 ring (issue 15; dialrig.dice RING_LEDS): 10 more WS2812B in a circle below the dice,
// last on the chain (LED index = dice * 7 + k). Ring LED k sits beside the engraved numeral k + 1,
// clockwise from the top; a d10 face f lights LEDs 0..f-1, so the lit arc ends at the numeral f.
//
// Units: millimetres. Print face down in white or natural PLA/PETG: the `diffuser` skin over
// each pip (two or three layers) glows evenly and hides the LED; a darker top colour (filament
// change after the diffuser layers) makes the unlit dice read as dice.
//
// part = "panel" | "wiring_map" (the panel seen from below with every LED index, to print on
// paper and follow while soldering)

part = "panel"; // [panel, wiring_map]

/* [Dice] */
dice = 12;            // up to dialrig.config.MAX_DICE
columns = 4;          // dice per row (4 x 3 fits a 220 mm bed); die 0 is top left
die_size = 40;        // square face
die_gap = 4;          // between faces
corner_r = 4;         // rounded face corners
pip_pitch = 12;       // distance between neighbouring pip centres (>= LED board size)
pip_d = 8;            // the lit window on top

/* [LEDs] */
led_board_d = 10.2;   // WS2812B round breakout diameter plus fit
led_board_t = 1.6;    // the breakout board's thickness
led_h = 1.6;          // the 5050 package above its board
diffuser = 0.6;       // plastic over the LED (print face down: the first layers)
channel_w = 4;        // wiring channel between pips, underside
wall = 2;             // least plastic between a pocket and the face edge

/* [d10 ring] */
ring = true;          // fit the ten-LED d10 ring below the dice
ring_leds = 10;       // dialrig.dice.RING_LEDS
ring_r = 20;          // radius of the LED centres
numeral_size = 5;     // engraved numerals 1..10 outside the ring
numerals = true;      // engrave them (false: a quicker test render, or numerals printed on paper)

/* [Panel] */
panel_margin = 6;     // plain border around the dice
thickness = diffuser + led_h + led_board_t + 2.4; // room for wires behind the boards

$fn = 48;

// ---- derived ----------------------------------------------------------------------------------
rows = ceil(dice / columns);
pitch = die_size + die_gap;
ring_reach = ring_r + led_board_d / 2 + 2 + numeral_size * 1.6; // centre to the numerals' edge
ring_l = ring ? 2 * ring_reach + die_gap : 0;
panel_w = max(columns * pitch - die_gap, ring ? 2 * ring_reach : 0) + 2 * panel_margin;
panel_l = rows * pitch - die_gap + 2 * panel_margin + ring_l;
assert(!ring || 2 * PI * ring_r / ring_leds >= led_board_d + 1, "ring_r too small for its LEDs");
assert(pip_pitch >= led_board_d, "pips closer than the LED boards: raise pip_pitch or die_size");
assert(die_size >= 2 * pip_pitch + led_board_d + 2 * wall, "die_size too small for its pips");

// Pip p's position on a face, in pip pitches, in dialrig.dice order (x right, y up).
PIPS = [[0, 0], [-1, 1], [1, 1], [-1, 0], [1, 0], [-1, -1], [1, -1]];

// Centre of die i, seen from above: row 0 is the far row, die 0 at its left.
function die_centre(i) = [panel_margin + (i % columns) * pitch + die_size / 2,
                          panel_l - panel_margin - floor(i / columns) * pitch - die_size / 2];

function pip_centre(i, p) = die_centre(i) + pip_pitch * PIPS[p];

// The ring below the dice; LED k clockwise from the top (k = 0 at 12 o'clock).
ring_centre = [panel_w / 2, panel_margin + ring_reach];
function ring_angle(k) = 90 - 360 / ring_leds * k;
function ring_led(k) = ring_centre + ring_r * [cos(ring_angle(k)), sin(ring_angle(k))];
function ring_numeral(k) = ring_centre + (ring_r + led_board_d / 2 + 1 + numeral_size * 0.8) *
                           [cos(ring_angle(k)), sin(ring_angle(k))];

module rounded_square(size, r) {
    offset(r) square(size - 2 * r, center = true);
}

module panel() {
    difference() {
        cube([panel_w, panel_l, thickness]);
        for (i = [0 : dice - 1]) {
            c = die_centre(i);
            // a shallow outline groove so each die reads as a die
            translate([c[0], c[1], thickness - 0.6])
                linear_extrude(0.61) difference() {
                    rounded_square(die_size, corner_r);
                    rounded_square(die_size - 1.2, corner_r - 0.6);
                }
            for (p = [0 : 6]) {
                q = pip_centre(i, p);
                // LED board pocket from below, stopping `diffuser` under the top
                translate([q[0], q[1], -0.01]) cylinder(d = led_board_d, h = thickness - diffuser);
            }
            // chain channel: pip 0 -> 1 -> ... -> 6 of this die
            for (p = [0 : 5]) channel(pip_centre(i, p), pip_centre(i, p + 1));
            // and on to pip 0 of the next die
            if (i < dice - 1) channel(pip_centre(i, 6), pip_centre(i + 1, 0));
            // die number on the underside, mirrored so it reads from below
            translate([c[0], c[1] - die_size / 2 + 3, -0.01]) mirror([1, 0, 0])
                linear_extrude(0.6) text(str(i), size = 3, halign = "center");
        }
        if (ring) {
            for (k = [0 : ring_leds - 1]) {
                q = ring_led(k);
                translate([q[0], q[1], -0.01]) cylinder(d = led_board_d, h = thickness - diffuser);
                if (k < ring_leds - 1) channel(ring_led(k), ring_led(k + 1));
                // the numeral k + 1 engraved on top, read from above
                n = ring_numeral(k);
                if (numerals) translate([n[0], n[1], thickness - 0.6])
                    linear_extrude(0.61) text(str(k + 1), size = numeral_size, halign = "center",
                                              valign = "center");
            }
            if (dice > 0) channel(pip_centre(dice - 1, 6), ring_led(0)); // the chain goes on
        }
        // the cable entry for DIN, VSYS and GND at die 0
        e = die_centre(0);
        translate([-0.01, e[1] - channel_w, -0.01]) cube([e[0], 2 * channel_w, 3]);
    }
}

// A wiring channel in the underside between two pip centres.
module channel(a, b) {
    hull() {
        translate([a[0], a[1], -0.01]) cylinder(d = channel_w, h = 2.4);
        translate([b[0], b[1], -0.01]) cylinder(d = channel_w, h = 2.4);
    }
}

// Seen from below (mirrored): every pip with its chain index, to follow while soldering.
module wiring_map() {
    mirror([1, 0, 0]) {
        difference() {
            square([panel_w, panel_l]);
            translate([0.5, 0.5]) square([panel_w - 1, panel_l - 1]);
        }
        for (i = [0 : dice - 1]) for (p = [0 : 6]) {
            q = pip_centre(i, p);
            translate(q) {
                difference() { circle(d = led_board_d); circle(d = led_board_d - 0.6); }
                mirror([1, 0, 0]) text(str(i * 7 + p), size = 2.6, halign = "center", valign = "center");
            }
        }
        if (ring) for (k = [0 : ring_leds - 1]) translate(ring_led(k)) {
            difference() { circle(d = led_board_d); circle(d = led_board_d - 0.6); }
            mirror([1, 0, 0]) text(str(dice * 7 + k), size = 2.6, halign = "center", valign = "center");
        }
    }
}

if (part == "panel") panel();
if (part == "wiring_map") wiring_map();

echo(str(dice, " dice, ", dice * 7 + (ring ? ring_leds : 0), " LEDs, panel ", panel_w, " x ", panel_l, " x ", thickness, " mm"));
