# mpytest — a tiny test runner for firmware tests that must run in the real MicroPython.
"""Run the test_* functions of MicroPython test modules under the MicroPython unix port.

Writing tests: put a module named ``test_<something>.py`` in tests/mpy/. Every top-level
function whose name starts with ``test_`` is a test; use plain ``assert``. Optional module-level
``setup()`` / ``teardown()`` run before / after every test (teardown even when the test fails).
``raise mpytest.SkipTest("why")`` skips a test. ``firmware/`` and ``tests/mpy/`` are on the
path, so ``from dialrig import dice`` and ``import mpytest`` work. Keep the module in the
MicroPython subset (no typing, no f-string format specs you have not tried, no pytest).
``mpytest.raises(OSError, fn, *args)`` returns the exception fn raised (fails if none), and
``mpytest.alloc(fn, n=100)`` returns the bytes allocated by n calls of fn() (after one warm-up
call, GC off), for zero-allocation checks: ``assert mpytest.alloc(sensor.read_angle) == 0``.

Running (pytest does this for you: tests/test_firmware_mpy.py makes one pytest test of each
MicroPython test, run in one micropython process per module)::

    MICROPYPATH=firmware:tests/mpy:.frozen micropython tests/mpy/mpytest.py test_dice
    ... mpytest.py test_dice test_roll_fair     only the named tests
    ... mpytest.py --list test_dice test_as5600 list the tests: "<module> <test>" per line

Output: for each test ``RUN <name>``, whatever the test prints, then ``PASS <name>``,
``SKIP <name>: <reason>`` or ``FAIL <name>`` followed by the traceback; at the end a summary
line ``== N passed, N failed, N skipped``. Exit status 0 when every test passed (or skipped),
1 when one failed, 2 when a module could not be imported (its traceback follows ``ERROR``).
"""

import gc
import sys


class SkipTest(Exception):
    pass


def raises(exc_type, fn, *args):
    """Call fn(*args); return the exc_type it raised, AssertionError if it raised nothing."""
    try:
        fn(*args)
    except exc_type as e:
        return e
    raise AssertionError("%s not raised" % exc_type.__name__)


def alloc(fn, n=100):
    """Bytes of heap allocated by n calls of fn() (no arguments: a star-call would allocate
    itself; pass a bound method or a lambda), after one warm-up call, with the GC off."""
    fn()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(n):
            fn()
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def _tests(mod):
    names = [k for k in dir(mod) if k.startswith("test_") and callable(getattr(mod, k))]
    names.sort()
    return names


def _import(name):
    try:
        return __import__(name)
    except Exception as e:  # report any import failure as a module error
        print("ERROR " + name)
        sys.print_exception(e)
        return None


def _run_one(mod, name):
    setup = getattr(mod, "setup", None)
    teardown = getattr(mod, "teardown", None)
    print("RUN " + name)
    gc.collect()
    try:
        try:
            if setup is not None:
                setup()
            getattr(mod, name)()
        finally:
            if teardown is not None:
                teardown()
    except SkipTest as e:
        print("SKIP %s: %s" % (name, e.args[0] if e.args else ""))
        return "skip"
    except Exception as e:  # a test failure of any kind
        print("FAIL " + name)
        sys.print_exception(e)
        return "fail"
    print("PASS " + name)
    return "pass"


def main(argv):
    if not argv:
        print("usage: mpytest.py [--list] module [test ...]")
        return 2
    if argv[0] == "--list":
        status = 0
        for modname in argv[1:]:
            mod = _import(modname)
            if mod is None:
                status = 2
                continue
            for name in _tests(mod):
                print(modname + " " + name)
        return status
    mod = _import(argv[0])
    if mod is None:
        return 2
    names = argv[1:] or _tests(mod)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for name in names:
        if not hasattr(mod, name):
            print("RUN " + name)
            print("FAIL " + name)
            print("no test named %s in %s" % (name, argv[0]))
            counts["fail"] += 1
            continue
        counts[_run_one(mod, name)] += 1
    print("== %d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    # Run through the importable module, so that tests doing `import mpytest` see the same
    # SkipTest class as the runner (the script itself is a separate module, __main__).
    import mpytest

    sys.exit(mpytest.main(sys.argv[1:]))
