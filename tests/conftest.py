"""Suite-wide ordering: the long end-to-end tests start first.

The suite runs on pytest-xdist workers (``-n auto --dist worksteal`` in pyproject). A long test
collected late starts when the other worker has almost nothing left, and the run waits for it
alone; started first, the short tests fill the other workers around it. Only the order
changes: every test still runs.
"""

from __future__ import annotations

import functools
import itertools
import os
import resource
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import chromium_path

# Every Python process of a run (the xdist workers, and the `dialtray` commands, consumers and
# trays the tests start) keeps its compiled bytecode in __pycache__ (git-ignored): with
# PYTHONDONTWRITEBYTECODE set, as on this project's machines, each of them compiled the project
# anew, 0.2-0.3 s of CPU a process. Set here, in the controller, before the workers start.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# One BLAS thread per test process (xdist workers and the programs tests start inherit it:
# they are started after this). OpenBLAS otherwise starts a thread per core in every worker,
# and on 2 shared cores they spin waiting for work: the vision tests' small matrix products
# (synthesis) cost ~1.5-2.5x the CPU with them (a STRESS slice: 7.8-13 s user vs 4.7-5.2 s).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# OpenCV likewise: its parallel loops (blurs, remaps, resizes) start a thread per core in every
# test process, and with two workers a core they only wait on each other: the vision tests cost
# ~6-9 % more CPU with them (test_live_loop + test_synthesis: 29.0 s with, 26.4 s without; the
# accuracy and camera-mistake tests 28.6 vs 26.9 s; at -n0, load ~7), mostly in futex waits.
os.environ.setdefault("OPENCV_FOR_THREADS_NUM", "1")


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C and Ctrl-\\ reach the programs the tests start, whatever started pytest.

    A shell without job control starts a background command (``pytest … &`` in a script) with
    SIGINT and SIGQUIT ignored, and an ignored signal stays ignored in every child after exec.
    Then `dialtray serve` never sees the Ctrl-C a test sends it as a person would, and a
    firmware sent SIGQUIT (a crash) never dies: tests that pass in the foreground fail after
    waiting. Each pytest process (controller and xdist workers) puts the defaults back."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGQUIT) is signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every worker's share of the tests starts with its longest; the longer tests are dealt
    out so that each share gets an even part of the work.

    ``--dist worksteal`` hands each worker a contiguous share of the collected list (the first
    third to one worker, the next to another…) and balances the shares by moving tests from the
    end of the longest queue. All the slow tests first in the list therefore all landed on one
    worker, which ran them one after another while the others finished the short tests and
    then waited for it; and a long test collected last (tests/vision's) started when the
    others had nothing left to run. So the tests with an estimate (``@pytest.mark.slow(cost=
    S)``, else tests/durations.tsv: ``durations``) are dealt out (longest estimate first, each
    to the share with the least work so far: ``worksteal_order``) and put at the front of their
    worker's share, the costliest first (a module sharing a fixture as one, in file order); the
    short tests fill the shares in their collected order, so what is stolen at the end is short.
    Every worker collects the same list and computes the same order (xdist requires it). Only
    the order changes: every test still runs."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    fast = [item for item in items if item.get_closest_marker("slow") is None]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    dist = getattr(config, "workerinput", {}).get("dialtray_dist")
    if workers < 2 or dist != "worksteal" or not slow:
        items[:] = slow + fast
        return
    known = durations()
    timed = slow + [item for item in fast if item.nodeid in known]
    items[:] = worksteal_order(timed, [item for item in fast if item.nodeid not in known],
                               workers)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(xdist, on the controller) Tell each worker how the tests are distributed: a worker's
    own ``--dist`` reads "no"."""
    node.workerinput["dialtray_dist"] = node.config.getvalue("dist")


def worksteal_order(slow: list[pytest.Item], fast: list[pytest.Item],
                    workers: int) -> list[pytest.Item]:
    """``slow + fast`` reordered so xdist's initial worksteal split (share k: what is left,
    divided by the workers still to serve) gives each worker an even part of the slow work,
    and each worker starts with its longest test: the longest tests of the suite (the soak,
    the 200 reboots, the blank-Pico flash…) start together on different workers, not one
    after another behind cheaper ones."""
    sizes, left = [], len(slow) + len(fast)
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    groups: dict[str, list[pytest.Item]] = {}
    for item in slow:
        groups.setdefault(deal_key(item), []).append(item)
    def cost(group: list[pytest.Item]) -> float:
        return sum(map(slow_estimate, group))

    shares: list[list[list[pytest.Item]]] = [[] for _ in sizes]
    load, count = [0.0] * workers, [0] * workers
    for group in sorted(groups.values(), key=cost, reverse=True):  # stable: ties keep order
        open_ = [k for k in range(workers) if count[k] + len(group) <= sizes[k]]
        k = min(open_ or range(workers), key=lambda k: load[k])
        shares[k].append(group)  # a module's shared-fixture tests keep their file order
        load[k] += cost(group)
        count[k] += len(group)
    ordered = [[item for group in sorted(share, key=cost, reverse=True)
                for item in group] for share in shares]
    rest = iter(fast)
    for k in range(workers):
        ordered[k].extend(itertools.islice(rest, max(0, sizes[k] - len(ordered[k]))))
    ordered[-1].extend(rest)  # (only when slow tests alone overfill a share)
    return [item for share in ordered for item in share]


def deal_key(item: pytest.Item) -> str:
    """What must run on one worker, one test after another: a module's tests when one of them
    uses a module- (class-, package-) scoped fixture (a rendered photo set, a served table, the
    module's Chromium), which a split would build twice; else the test alone. Such a module's
    tests run in the order they are written: its later tests may read what earlier ones left
    on the shared table (a ruling already stored), as they do in a plain ``pytest`` run."""
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", {}) if info is not None else {}
    shared = any(d.scope in ("module", "class", "package") for ds in defs.values() for d in ds)
    return item.nodeid.split("::")[0] if shared else item.nodeid


def slow_estimate(item: pytest.Item) -> float:
    """A test's cost for dealing them out: ``@pytest.mark.slow(cost=SECONDS)``, about its
    wall time in the suite on a quiet 2-core machine (the soak ~45 s; 5 s when not given);
    else its line in tests/durations.tsv; else 0."""
    marker = item.get_closest_marker("slow")
    if marker is not None:
        return float(marker.kwargs.get("cost", 5))
    return durations().get(item.nodeid, 0.0)


@functools.cache
def durations() -> dict[str, float]:
    """tests/durations.tsv (``seconds<TAB>test id`` a line, ``#`` a comment): the longer tests'
    seconds on a quiet 2-core machine, about, from a full run (scripts/test_durations.py
    writes it). A line for a test that is gone, or a test without one, changes only where it
    runs; a file that cannot be read deals out the slow tests alone, as before."""
    found: dict[str, float] = {}
    try:
        text = (Path(__file__).parent / "durations.tsv").read_text(encoding="utf-8")
    except OSError:
        return found
    for line in text.splitlines():
        seconds, _, test = line.partition("\t")
        try:
            if test and not line.startswith("#"):
                found[test] = float(seconds)
        except ValueError:
            continue
    return found


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers for every core.

    Most long tests wait on something slow by design (a virtual tray's MicroPython booting, a
    person's pace of clicking, a broker restarting) and leave their core idle meanwhile; more
    workers than cores run CPU-bound tests in those gaps. Every test waits for conditions,
    never for a rate, so sharing the CPU changes its time, not its result. Measured on a quiet
    2-core machine (session 15): 3 workers 352 s wall, 4 workers 297 s (both all passing;
    ~500 s of CPU either way, so past 4 the cores, not the waits, set the time).
    """
    return max(2, 2 * (os.cpu_count() or 1))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One real Chromium, driven by Playwright, for the page tests of a module (tests/ui and
    tests/hub). Shared by one module only, stopped when the worker moves on: while sync
    Playwright runs, its event loop is the main thread's running loop, so any other test on that
    worker calling ``asyncio.run`` failed ("cannot be called from a running event loop"); and a
    second sync Playwright started beside it fails too ("Sync API inside the asyncio loop")."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install playwright; part of the test extra)")
    exe = chromium_path()
    if exe is None:
        pytest.skip("no Chromium: run scripts/install_test_tools.sh (Debian's `chromium`) or "
                    "set DIALTRAY_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe,
                              args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ``DIALTRAY_TEST_CPU=FILE``, each test's wall and CPU seconds (set-up, call and
    tear-down; the worker's threads and every child process it waited for, the virtual trays
    and `dialtray` commands included) are appended to FILE as ``nodeid<TAB>wall<TAB>cpu<TAB>
    worker<TAB>own`` (the xdist worker, in the order it ran them: how the tests were dealt;
    ``own``: the part spent in the worker process itself, its threads and in-process servers
    included; the rest is the programs it started).
    ``--durations`` gives wall time only, and on 2 shared cores the suite's time is bound by
    CPU: this says which tests to make cheaper. Servers that detach (PostgreSQL) are not
    counted."""
    path = os.environ.get("DIALTRAY_TEST_CPU")
    if not path:
        yield
        return
    wall0, (own0, kids0) = time.monotonic(), _cpu_s()
    yield
    own1, kids1 = _cpu_s()
    wall, own, cpu = time.monotonic() - wall0, own1 - own0, own1 + kids1 - own0 - kids0
    with open(path, "a") as f:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "-")
        f.write(f"{item.nodeid}\t{wall:.2f}\t{cpu:.2f}\t{worker}\t{own:.2f}\n")


def _cpu_s() -> tuple[float, float]:
    """(this process' CPU seconds, its reaped children's)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime
