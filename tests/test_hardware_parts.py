"""The printable parts render, refuse impossible measurements, and agree with their docs.

Two kinds of check:
- Static (always run): every parameter the docs name exists in the .scad files, with the same
  sample value, and every measurement the dock takes is documented, so hardware/README.md and
  hardware/parts/ cannot drift apart.
- Renders (need the `openscad` binary; skipped with the reason when it is absent; Debian:
  `apt-get install openscad`, which .ci/run does when it can): each part of each file renders to
  a non-empty STL without warnings, in each build variant, its size follows the parameters, and
  a measurement that cannot work stops the render with a message saying why.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PARTS = REPO / "hardware" / "parts"
README = REPO / "hardware" / "README.md"
BRING_UP = REPO / "docs" / "bring-up.md"
SCAD_FILES = ("dock.scad", "coupler.scad", "dice_panel.scad")
RENDER_TIMEOUT_S = 600  # a generous bound for a loaded 2-core machine; typical renders take 1-2 s

PARAM_LINE = re.compile(r"^(?P<name>[a-z_][a-z0-9_]*)\s*=\s*(?P<value>.+?);\s*(?://\s*(?P<doc>.*))?$")
DERIVED_MARKER = "// ---- derived"


def scad_parameters(name: str) -> dict[str, tuple[str, str]]:
    """Top-level parameters of a .scad file: name -> (default value, comment).

    The parameters are the plain assignments above the file's "derived" section (or, for a file
    without one, above its first module), which is what OpenSCAD's Customizer shows.
    """
    params: dict[str, tuple[str, str]] = {}
    for line in (PARTS / name).read_text(encoding="utf-8").splitlines():
        if line.startswith((DERIVED_MARKER, "module ", "function ")):
            break
        m = PARAM_LINE.match(line)
        if m:
            params[m["name"]] = (m["value"].strip(), (m["doc"] or "").strip())
    return params


def all_parameters() -> set[str]:
    return {p for f in SCAD_FILES for p in scad_parameters(f)}


def measurement_table() -> dict[str, str]:
    """hardware/README.md's measurement tables: parameter -> its sample value column.

    The tables of the section "Measuring a base": rows whose first cell is a `parameter`.
    """
    text = README.read_text(encoding="utf-8")
    start = re.search(r"^## .*Measuring a base", text, re.MULTILINE)
    assert start, "hardware/README.md: no section 'Measuring a base'"
    section = text[start.end():]
    end = re.search(r"^## ", section, re.MULTILINE)
    section = section[:end.start()] if end else section
    rows: dict[str, str] = {}
    for line in section.splitlines():
        m = re.match(r"^\| `(?P<name>[a-z_][a-z0-9_]*)` \|", line)
        if m:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[m["name"]] = cells[-1].strip("` ")
    return rows


def normalise(value: str) -> str:
    return re.sub(r"\s+", "", value)


# ---- static: docs and parts agree -----------------------------------------------------------

def test_the_dock_has_its_measurements_at_the_top() -> None:
    params = scad_parameters("dock.scad")
    for name in ("base_d", "ring_d", "ring_h", "combat_detents", "key_slots", "hub_d", "magnet_d",
                 "magnet_t", "shaft_d", "shaft_flat", "speed_pos", "spindle_d", "dock_floor"):
        assert name in params, f"dock.scad: parameter {name} missing"


def test_every_parameter_is_documented_in_place() -> None:
    for name in ("dock.scad", "dice_panel.scad"):
        undocumented = [p for p, (_, doc) in scad_parameters(name).items()
                        if not doc and p not in ("part", "key_slots", "speed_pos", "stand_pos")]
        assert not undocumented, f"{name}: parameters without a comment: {undocumented}"


def test_every_parameter_in_the_measurement_table_exists_with_the_same_sample() -> None:
    table = measurement_table()
    assert len(table) >= 15, "hardware/README.md: the measurement table is missing or short"
    params = scad_parameters("dock.scad")
    for name, sample in table.items():
        assert name in params, f"hardware/README.md names `{name}`, which dock.scad does not have"
        assert normalise(sample) == normalise(params[name][0]), (
            f"`{name}`: hardware/README.md says {sample}, dock.scad's default is {params[name][0]}")


def test_every_measurement_the_dock_takes_is_in_the_table() -> None:
    table = measurement_table()
    for name, (_, doc) in scad_parameters("dock.scad").items():
        if doc.startswith(("MEASURE", "COUNT")):
            assert name in table, (
                f"dock.scad takes {name} ({doc}) but hardware/README.md's table omits it")
    # the lines just above the three position lists carry their MEASURE notes
    for name in ("key_slots", "speed_pos", "stand_pos"):
        assert name in table


def test_the_sample_values_say_they_are_assumptions() -> None:
    text = (PARTS / "dock.scad").read_text(encoding="utf-8")
    assert "ASSUMED" in text and "NOT MEASURED" in text
    assert "ASSUMED" in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("doc", [README, BRING_UP], ids=lambda p: p.name)
def test_every_parameter_set_in_the_docs_exists(doc: Path) -> None:
    """`name = value` and `-D name=value` in the guides must name a real parameter."""
    text = doc.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_][a-z0-9_]*) = [^`]+`", text))
    named |= set(re.findall(r"-D\s+'?([a-z_][a-z0-9_]*)=", text))
    assert named, f"{doc.name}: no parameters named (has the format changed?)"
    unknown = named - all_parameters()
    assert not unknown, f"{doc.name} names parameters no .scad file has: {sorted(unknown)}"


def test_the_guides_link_each_other() -> None:
    assert "../docs/bring-up.md" in README.read_text(encoding="utf-8")
    assert "docs/bring-up.md" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "coupler.scad" in README.read_text(encoding="utf-8")


# ---- renders ----------------------------------------------------------------------------------

OPENSCAD = shutil.which("openscad")
needs_openscad = pytest.mark.skipif(
    OPENSCAD is None,
    reason="openscad is not installed (Debian/Ubuntu: apt-get install openscad); "
           "the .scad files were not rendered")


def scad_value(value: object) -> str:
    """A Python value as OpenSCAD source: "[..]" strings pass through as vectors."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value.startswith("[") else f'"{value}"'
    return str(value)


def render(scad: str, out: Path, **defines: object) -> subprocess.CompletedProcess[str]:
    assert OPENSCAD is not None
    args = [OPENSCAD, "-o", str(out)]
    # Coarse circles ($fn 24, not the print's 96): the same geometry code in a third of the
    # time; 24 facets keep a vertex at 0° and 180°, so a round part's width is still exact.
    for key, value in {"$fn": 24, **defines}.items():
        args += ["-D", f"{key}={scad_value(value)}"]
    return subprocess.run([*args, str(PARTS / scad)], capture_output=True, text=True,
                          timeout=RENDER_TIMEOUT_S, check=False)


def stl_bounds(path: Path) -> tuple[list[float], list[float]]:
    """(min xyz, max xyz) of an ASCII STL."""
    points = [tuple(map(float, m.groups())) for m in re.finditer(
        r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", path.read_text(encoding="utf-8"))]
    assert points, f"{path.name}: no facets"
    return ([min(p[i] for p in points) for i in range(3)],
            [max(p[i] for p in points) for i in range(3)])


def assert_clean_render(result: subprocess.CompletedProcess[str], out: Path) -> None:
    assert result.returncode == 0, result.stderr[-2000:]
    problems = [line for line in result.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    assert not problems, "\n".join(problems)
    assert out.stat().st_size > 1000
    stl_bounds(out)


VARIANTS: dict[str, dict[str, object]] = {
    "as5600 plane base": {},
    "encoder plane base": {"sensor": "encoder"},
    "as5600 character base": {"turns": "top", "speed_dial": False},
    "encoder character base": {"sensor": "encoder", "turns": "top", "speed_dial": False,
                               "hub_h": 2},
}

PARTS_OF = {
    "dock.scad": ("dock", "collar", "speed_arm"),
    "coupler.scad": ("combat", "speed"),
}


@needs_openscad
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("scad", list(PARTS_OF))
def test_every_part_renders_to_stl(scad: str, variant: str, tmp_path: Path) -> None:
    defines = VARIANTS[variant]
    for part in PARTS_OF[scad]:
        if part in ("speed_arm", "speed") and defines.get("speed_dial") is False:
            continue
        out = tmp_path / f"{part}.stl"
        assert_clean_render(render(scad, out, part=part, **defines), out)


@needs_openscad
def test_the_dice_panel_renders(tmp_path: Path) -> None:
    out = tmp_path / "panel.stl"
    # two dice with coarse circles: the same code as twelve, in a fraction of the time; the d10
    # ring's pockets and channels without its engraved numerals (they triple the CGAL time)
    assert_clean_render(render("dice_panel.scad", out, dice=2, columns=2, numerals=False,
                               **{"$fn": 8}), out)
    svg = tmp_path / "map.svg"
    result = render("dice_panel.scad", svg, part="wiring_map")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "<svg" in svg.read_text(encoding="utf-8")


@needs_openscad
def test_the_dock_is_sized_by_the_measurements(tmp_path: Path) -> None:
    out = tmp_path / "dock.stl"
    assert_clean_render(render("dock.scad", out, part="dock", base_d=70, ring_d=66, rim=10), out)
    lo, hi = stl_bounds(out)
    assert hi[0] - lo[0] == pytest.approx(70 + 2 * 10, abs=0.01)
    # the coupler: its pins stand key_pin_h = face_gap + key_slot_depth - 0.3 above its face
    out = tmp_path / "coupler.stl"
    assert_clean_render(render("coupler.scad", out, part="combat", key_slot_depth=2), out)
    lo, hi = stl_bounds(out)
    params = scad_parameters("dock.scad")
    magnet_t, recess = float(params["magnet_t"][0]), float(params["magnet_recess"][0])
    hub_h, face_gap = float(params["hub_h"][0]), float(params["face_gap"][0])
    coupler_h = recess + magnet_t + 1.2 + hub_h + 0.4
    assert hi[2] - lo[2] == pytest.approx(coupler_h + face_gap + 2 - 0.3, abs=0.01)


@needs_openscad
@pytest.mark.parametrize(("defines", "message"), [
    ({"dock_floor": 3.5}, "outside the AS5600's 0.5-3 mm"),
    ({"magnet_recess": 0, "dock_floor": 0.3}, "outside the AS5600's 0.5-3 mm"),
    ({"turns": "top"}, "the speed spindle rides on the top plate"),
    ({"turns": "top", "speed_dial": False, "hub_h": 0}, "must stand out at least 1 mm"),
    ({"sensor": "encoder", "enc_ppr": 20}, "is not 1-16 whole cycles per combat click"),
    ({"sensor": "encoder", "shaft_l": 10}, "the encoder shaft reaches only"),
    ({"sensor": "encoder", "enc_detents": 20}, "must be 0 (smooth) or a multiple"),
    ({"key_slots": "[[40, 0]]"}, "key_slots lie outside the ring"),
    ({"stand_pos": "[-12, -10]"}, "would hit the flight stand"),
    ({"sensor": "hall"}, "sensor: as5600 or encoder"),
])
def test_an_impossible_build_stops_with_the_reason(defines: dict[str, object], message: str,
                                                   tmp_path: Path) -> None:
    out = tmp_path / "x.stl"
    result = render("dock.scad", out, part="dock", **defines)
    assert result.returncode != 0, f"rendered although {defines} cannot work"
    assert message in result.stderr, result.stderr[-2000:]


def scad_part_choices(name: str) -> set[str]:
    """The values `part` may take in a .scad file: its Customizer list `// [a, b, c]`."""
    m = re.search(r'^part = "[a-z_]+"; // \[(?P<choices>[^\]]+)\]', (PARTS / name).read_text(
        encoding="utf-8"), re.MULTILINE)
    assert m, f"{name}: no `part = ...; // [choices]` line"
    return {c.strip() for c in m["choices"].split(",")}


def test_every_printed_part_in_the_bom_exists() -> None:
    """bom.csv (generated by dialtray.builder.hardware_docs) names real files and real parts."""
    bom = (REPO / "hardware" / "bom.csv").read_text(encoding="utf-8")
    printed = re.findall(r"hardware/parts/(?P<file>[a-z_]+\.scad)(?: \(part=(?P<part>[a-z_]+)\))?",
                         bom)
    assert len(printed) >= 5, "bom.csv lists fewer printed parts than the tray needs"
    for scad, part in printed:
        assert (PARTS / scad).is_file(), f"bom.csv names hardware/parts/{scad}, which is missing"
        if part:
            assert part in scad_part_choices(scad), f"bom.csv: {scad} has no part={part}"
    for part in ("collar", "combat", "speed", "speed_arm"):
        assert f"(part={part})" in bom, f"bom.csv does not list the printed {part}"
