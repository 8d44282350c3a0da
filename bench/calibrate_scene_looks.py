"""Choose ``scene_looks.EXCLUDE`` and ``RIM_MAX`` with the encoder wrong on purpose.

    .venv/bin/python bench/calibrate_scene_looks.py [--profile stress|held_back]
        [--seeds 8801,8802] [--trays 10] [--photo-frames 24] [--jitter 0.04]

Each tray (8 docks of Air Action's planes, the virtual camera, the profile's scene) is filmed
as damage or healing walks its dials, every window at once: (1) every dial at a random click
``a``, then one click on (``a + s``, s = +-1), ``photo-frames`` frames each: the window's
photographs of them (kept only where the open read of their average names the click, as the
table keeps them); (2) one click further (``b = a + 2s``), a burst of ``MOST`` frames: where
the open read is unsure, ``judge`` with the encoder right (``b``: the confirmations it adds)
and wrong (every click of another print: must never confirm); (3) back one click to ``a + s``,
off its detent by up to ``jitter`` of a click (a real dial's play), a burst: the dial at a
photographed click. Here every close rival's exclusion of that photograph is measured along
the synthesis's direction (the null distribution: an impostor encoder's ``z``, whatever the
synthesis named), and ``judge`` is asked with every other click as the encoder's (must never
confirm).

Prints the largest impostor z and fit, the smallest true z, how many unsure bursts each
threshold confirms; writes bench/results/scene_looks.json. Use STRESS seeds and spent
held-back seeds (9901-9952), never fresh held-back ones.
"""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np
from benchout import print_table, write_results
from dialtray.vision import render_profiles as rp
from dialtray.vision import scene_looks as sl
from dialtray.vision import testset
from dialtray.vision import unseen_looks as ul
from dialtray.vision.burst import MOST
from dialtray.vision.layout import load_layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import CLICK
from dialtray.vision.scene import TrayScene
from dialtray.vision.virtual_camera import DialWorld, VirtualCamera, dock_positions

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "scene_looks.json"


def _frames(cam: VirtualCamera, reader: TrayReader, windows: dict[Any, Any], n: int
            ) -> dict[Any, sl.Frames]:
    out = {k: sl.Frames() for k in windows}
    for _ in range(n):
        _, frame = cam.read()
        reg = reader.follow(frame)
        for k, (centre, win, base) in windows.items():
            out[k].add(reg.crop(frame, centre, win, base))
    return out


def run_seed(seed: int, trays: int, profile: str, photo_frames: int, jitter: float,
             only: int | None = None) -> dict[str, Any]:
    cv2.setNumThreads(1)
    layout = load_layout()
    figures = testset.sample_figures("airaction")
    refs = {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
    out: dict[str, Any] = {"null": [], "true": [], "wrong_confirmed": [], "impostors": 0,
                           "unsure": 0, "confirmed": 0, "photos": 0, "windows": 0,
                           "cases": [], "wrong_open": 0, "big_null": [], "unseen_null": [],
                           "big_unseen": [], "by_prediction": 0,
                           "true_unseen": []}
    for walk in testset.walk_trays(layout, figures, seed, trays, getattr(rp, profile), jitter):
        t, docks, params, step = walk.tray, walk.docks, walk.params, walk.step
        if only is not None and t != only:
            continue
        scene = TrayScene(layout, docks, params, seed * 1000 + t)
        world = DialWorld(dock_positions(docks))
        cam = VirtualCamera(scene, world, 30.0, seed=seed * 7 + t)
        reader = TrayReader(layout, refs, reuse=False)
        windows = {}
        for dock, spec in docks.items():
            bt = layout.base_type(spec.base_type)
            for dial in spec.positions:
                windows[(dock, dial)] = (layout.places[dock], bt.windows[dial], bt.name)
        try:
            _, frame = cam.read()
            reader.follow(frame)
        except Exception:
            continue
        start = {k: int(docks[k[0]].positions[k[1]]) for k in windows}
        photos: dict[Any, dict[int, sl.Photo]] = {k: {} for k in windows}
        for phase in range(2):  # the start, then one step: each photographed
            if phase:
                for (dock, dial), s in step.items():
                    world.turn(dock, dial, s, 1e-6)
            shots = _frames(cam, reader, windows, photo_frames)
            for k, f in shots.items():
                c = reader.classifiers(docks[k[0]].figure)[k[1]]
                at = (start[k] + phase * step[k]) % len(c.faces)
                read = c.read(f.average())
                if read.status == CLICK and at in read.clicks:
                    photos[k][at] = sl.Photo(at, f.mean(), f.n)
                    out["photos"] += 1
        for (dock, dial), s in step.items():  # a second step: the burst to confirm
            world.turn(dock, dial, s, 1e-6)
        two = _frames(cam, reader, windows, MOST)
        for k, f in two.items():
            out["windows"] += 1
            c = reader.classifiers(docks[k[0]].figure)[k[1]]
            b = (start[k] + 2 * step[k]) % len(c.faces)
            read = c.read(f.average())
            what = f"seed {seed} tray {t} dock {k[0]} {docks[k[0]].figure} {k[1]}"
            if read.status == CLICK:
                out["wrong_open"] += b not in read.clicks
                continue
            out["unsure"] += 1
            v = sl.judge(c, f, photos[k], b, exclude=-np.inf, rim_max=np.inf, share=-np.inf)
            out["true"] += [[e.z, e.fit, e.rim] for e in v.rivals if e.source is None]
            out["true_unseen"] += [[e.share, e.z] for e in v.rivals if e.source is not None]
            good = sl.judge(c, f, photos[k], b)
            out["confirmed"] += good.confirmed
            out["by_prediction"] += good.confirmed and "predicted" in good.reason
            out["cases"].append(f"{what} truth {b} after {sorted(photos[k])}: "
                                f"{'confirmed' if good.confirmed else 'unsure'} ({good.reason})")
            _impostors(out, c, f, photos[k], b, what)
        for k, f in two.items():  # the dial at b, never photographed: predicted from others
            c = reader.classifiers(docks[k[0]].figure)[k[1]]
            _unseen_null(out, c, f, photos[k], (start[k] + 2 * step[k]) % len(c.faces),
                         f"seed {seed} tray {t} dock {k[0]} {docks[k[0]].figure} {k[1]}")
        for (dock, dial), s in step.items():  # back a step, a little off its detent
            world.turn(dock, dial, -s + walk.back[(dock, dial)], 1e-6)
        three = _frames(cam, reader, windows, MOST)
        for k, f in three.items():
            c = reader.classifiers(docks[k[0]].figure)[k[1]]
            a = (start[k] + step[k]) % len(c.faces)
            what = f"seed {seed} tray {t} dock {k[0]} {docks[k[0]].figure} {k[1]} back"
            if a in photos[k]:
                _null(out, c, f, photos[k][a], a, what)
            _impostors(out, c, f, photos[k], a, what)
            # ... and as if never photographed at a: its prediction from the others, and the
            # impostors' tests with only the others' photographs
            others = {i: p for i, p in photos[k].items()
                      if i not in c.click_groups.clicks(_group(c, a))}
            _unseen_null(out, c, f, others, a, what)
            if others != photos[k]:
                _impostors(out, c, f, others, a, what + " (a unphotographed)")
    return out


def _null(out: dict[str, Any], c: Any, f: sl.Frames, shot: sl.Photo, a: int, what: str
          ) -> None:
    """The dial at ``a``, photographed: every rival's exclusion of ``a``'s photograph along
    the synthesis's direction from it (an impostor encoder's test statistic)."""
    r = c.synthesise(f.average())
    if r is None or r.warp is None:
        return
    size = (c.mean_template.shape[1], c.mean_template.shape[0])
    mean = f.mean()
    cov = sl._noise_maps(f, mean, r.warp, size)
    best_is_a = r.best.kind == CLICK and a in c.click_groups.clicks(r.best.a)
    for rv in r.rivals:
        if rv.look.kind != CLICK:
            continue
        # towards the rival from the best look: the direction an encoder saying that
        # rival's click would be tested along (when the best is a itself)
        sign = -1.0 if best_is_a else 1.0
        z, fit, rim = sl.exclusion(mean, f.n, shot, sign * rv.difference, r.warp, size, cov,
                             sl.print_box(c))
        out["null"].append([z, fit, rim])
        if z >= sl.EXCLUDE / 2:
            out["big_null"].append(f"{what} at {a}, toward {rv.look.a}: z {z:.1f}, "
                                   f"fit {fit:.1f}, rim {rim:.1f}")


def _group(c: Any, click: int) -> int:
    """The grey group (the synthesis's click look) ``click`` prints in."""
    return int(c.group_of[c.click_groups.class_of[click]])


def _unseen_null(out: dict[str, Any], c: Any, f: sl.Frames, photos: dict[int, sl.Photo],
                 x: int, what: str) -> None:
    """The dial at ``x``, never photographed here: its photograph predicted from each other
    click's (``unseen_looks.py``), tested as an impostor encoder's rule would test it: along
    the difference to each look the synthesis finds within ``NEED`` of its best (``close``)
    and to every other click look (the null distribution of ``share`` and ``z``); ``ahead``:
    the synthesis put that look ahead of ``x`` (the rule tests a never-photographed rival
    only when the encoder's click leads it by synthesis: ``reachable`` = close and ahead)."""
    r = c.synthesise(f.average())
    if r is None or r.warp is None:
        return
    syn, groups = c.synthesis(), c.click_groups
    xg = _group(c, x)
    xlook = next(lk for lk in syn.looks if lk.kind == CLICK and lk.a == xg)
    looks = [(r.best, 0.0)] + [(rv.look, rv.z) for rv in r.rivals]
    lead = {lk.a: z for lk, z in reversed(looks) if lk.kind == CLICK}
    x_close = lead.get(xg, 99.0) < sl.NEED
    size, mean, box = syn.size, f.mean(), sl.print_box(c)
    cov = sl._noise_maps(f, mean, r.warp, size)
    for lk in syn.looks:
        if lk.kind != CLICK or lk.a == xg:
            continue
        close = x_close and lead.get(lk.a, 99.0) < sl.NEED
        ahead = lead.get(lk.a, 99.0) < lead.get(xg, 99.0)  # the impostor ahead of the truth
        for i, shot in photos.items():
            if i in groups.clicks(lk.a) or i in groups.clicks(xg):
                continue
            masks = ul.colour_masks(c.faces, c.window, syn.mean_template.shape, i,
                                    groups.clicks(lk.a) + groups.clicks(xg))
            p = ul.predicted_exclusion(mean, f.n, shot.mean, shot.frames,
                                       (syn.references[i], lk.picture, xlook.picture), r.warp,
                                       size, cov, lambda q: sl._nuisance(q, box), syn.basis,
                                       masks, box)
            out["unseen_null"].append([p.share, p.z, p.explained, float(close), float(ahead)])
            if p.share >= ul.SHARE / 2:
                out["big_unseen"].append(f"{what} at {x}, from {i}'s photo, toward "
                                         f"{groups.clicks(lk.a)}{' (close)' if close else ''}"
                                         f"{' (ahead)' if ahead else ''}: "
                                         f"share {p.share:.2f}, z {p.z:.1f}")


def _impostors(out: dict[str, Any], c: Any, f: sl.Frames, mine: dict[int, sl.Photo],
               truth: int, what: str) -> None:
    n = len(c.faces)
    group = set(c.click_groups.classes[c.click_groups.class_of[truth]])  # alike: the same
    for e in range(n):
        if e in group:
            continue
        out["impostors"] += 1
        v = sl.judge(c, f, mine, e)
        if v.confirmed:
            out["wrong_confirmed"].append(f"{what} truth {truth} encoder {e}: {v.reason}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", choices=("stress", "held_back"), default="stress")
    ap.add_argument("--seeds", default="8801,8802")
    ap.add_argument("--trays", type=int, default=10)
    ap.add_argument("--photo-frames", type=int, default=24)
    ap.add_argument("--jitter", type=float, default=0.04)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    with ProcessPoolExecutor(args.jobs) as ex:
        parts = list(ex.map(run_seed, seeds, [args.trays] * len(seeds),
                            [args.profile] * len(seeds), [args.photo_frames] * len(seeds),
                            [args.jitter] * len(seeds)))
    tot: dict[str, Any] = {k: ([] if isinstance(v, list) else 0) for k, v in parts[0].items()}
    for p in parts:
        for k, v in p.items():
            tot[k] = tot[k] + v
    null = np.array(tot["null"]).reshape(-1, 3)
    true = np.array(tot["true"]).reshape(-1, 3)
    unseen = np.array(tot["unseen_null"]).reshape(-1, 5)
    true_unseen = np.array(tot["true_unseen"]).reshape(-1, 2)
    close = unseen[:, 3] > 0
    reach = close & (unseen[:, 4] > 0)  # what judge would test: both close, the impostor ahead
    passing = (unseen[:, 0] >= ul.SHARE) & (unseen[:, 1] >= sl.EXCLUDE) & (
        unseen[:, 2] >= ul.EXPLAINED)
    rows = [
        ("windows (phase 2)", str(tot["windows"]), f"{args.profile} seeds {args.seeds} x "
         f"{args.trays} trays; photos kept {tot['photos']}"),
        ("null z (dial at the photo)", f"{len(null)}",
         f"max {null[:, 0].max():.2f}, p99.9 {np.percentile(null[:, 0], 99.9):.2f}, "
         f"sd {null[:, 0].std():.2f}" if len(null) else "-"),
        ("null fit / rim", "", f"max {null[:, 1].max():.2f} / {null[:, 2].max():.2f}, "
         f"p99 {np.percentile(null[:, 1], 99):.2f} / {np.percentile(null[:, 2], 99):.2f}"
         if len(null) else "-"),
        ("true z (photo of a rival)", f"{len(true)}",
         f"min {true[:, 0].min():.2f}, p10 {np.percentile(true[:, 0], 10):.2f}, "
         f"fit max {true[:, 1].max():.2f}, rim max {true[:, 2].max():.2f}"
         if len(true) else "-"),
        ("true share (rival predicted)", f"{len(true_unseen)}",
         f"min {true_unseen[:, 0].min():.2f}, median {np.median(true_unseen[:, 0]):.2f}, "
         f"z min {true_unseen[:, 1].min():.1f}" if len(true_unseen) else "-"),
        ("unsure bursts / confirmed by photos", f"{tot['unsure']} / {tot['confirmed']}",
         f"EXCLUDE {sl.EXCLUDE}, RIM_MAX {sl.RIM_MAX}"),
        ("  of them by prediction", str(tot["by_prediction"]),
         f"a rival never photographed, predicted (SHARE {ul.SHARE}, EXPLAINED {ul.EXPLAINED})"),
        ("unseen null share (close)", f"{int(unseen[:, 3].sum())}",
         f"max {unseen[close, 0].max():.2f}, p99 {np.percentile(unseen[close, 0], 99):.2f}; "
         f"passing the rule {int(np.sum(passing & close))}" if close.any() else "-"),
        ("unseen null share (reachable)", f"{int(reach.sum())}",
         f"max {unseen[reach, 0].max():.2f}; passing the rule {int(np.sum(passing & reach))}"
         if reach.any() else "-"),
        ("unseen null share (all)", f"{len(unseen)}",
         f"max {unseen[:, 0].max():.2f}, p99.9 {np.percentile(unseen[:, 0], 99.9):.2f}; "
         f"passing the rule {int(np.sum(passing))}" if len(unseen) else "-"),
        ("impostor encoders confirmed", f"{len(tot['wrong_confirmed'])} / {tot['impostors']}",
         "must be 0"),
        ("load average", " / ".join(f"{x:.1f}" for x in os.getloadavg()), ""),
    ]
    print_table(rows, 36, 12)
    for c in tot["wrong_confirmed"]:
        print("  WRONG:", c)
    print(f"  open reads wrong (a burst's average read as another click): {tot['wrong_open']}")
    for c in tot["big_null"][:30]:
        print("  null z >= EXCLUDE / 2:", c)
    for c in tot["big_unseen"][:30]:
        print("  unseen null share >= SHARE / 2:", c)
    for c in tot["cases"][:60]:
        print("  ", c)
    write_results(RESULTS, {"profile": args.profile, "seeds": seeds, "trays": args.trays,
                            "photo_frames": args.photo_frames, "jitter": args.jitter,
                            "exclude": sl.EXCLUDE, "rim_max": sl.RIM_MAX, **tot,
                            "load_average": [round(x, 1) for x in os.getloadavg()]})


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
