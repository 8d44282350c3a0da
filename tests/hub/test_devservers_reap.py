"""`dialtray hub servers` (and every test's servers) killed with SIGKILL leave no PostgreSQL
behind: pg_ctl detaches the cluster, so no dying parent takes it along and no ``atexit`` runs.
The next ``DevServers`` stops what a dead owner left (``devservers.reap_orphans``), and never
touches the servers of an owner still alive."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from dialtray.hub import devservers

START = """
import sys
from dialtray.hub.devservers import DevServers
s = DevServers("reap").start()
print(s.tmp, flush=True)
sys.stdin.read()
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temporary directory the servers' own users may enter (pytest's tmp_path sits under
    a root-only directory; the broker and PostgreSQL drop root)."""
    d = Path(tempfile.mkdtemp(prefix="reap-"))
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_servers_of_a_killed_owner_are_stopped_and_removed(open_tmp: Path) -> None:
    if devservers.missing():
        pytest.skip(devservers.missing() or "")
    tmp_path = open_tmp
    env = dict(os.environ, TMPDIR=str(tmp_path))
    p = subprocess.Popen([sys.executable, "-c", START], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env)
    try:
        tmp = Path(p.stdout.readline().strip())  # type: ignore[union-attr]
        assert tmp.is_dir() and tmp.parent == tmp_path, tmp
        pg = int((tmp / "pg" / "pgdata" / "postmaster.pid").read_text().split()[0])
        broker = int((tmp / "mqtt" / "pid").read_text())
        # a live owner's servers are left alone
        assert devservers.reap_orphans(tmp_path) == []
        assert _alive(pg) and _alive(broker)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(30)
    assert _alive(pg), "PostgreSQL died with its owner: nothing to reap (the test proves nothing)"
    assert devservers.reap_orphans(tmp_path) == [tmp]
    assert not _alive(pg) and not _alive(broker)
    assert not tmp.exists()


def test_a_pid_reused_by_another_program_is_not_signalled(tmp_path: Path) -> None:
    """The dead owner's broker pid now names a process that is not its broker: left alone."""
    other = subprocess.Popen(["sleep", "60"])
    try:
        tmp = tmp_path / (devservers.PREFIX + "old")
        (tmp / "mqtt").mkdir(parents=True)
        (tmp / devservers.OWNER).write_text("999999999 1\n")  # an owner long gone
        (tmp / "mqtt" / "pid").write_text(str(other.pid))
        assert devservers.reap_orphans(tmp_path) == [tmp]
        assert other.poll() is None and not tmp.exists()
    finally:
        other.kill()
        other.wait()
