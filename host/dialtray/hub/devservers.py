"""Local Mosquitto and PostgreSQL for development and tests (issue 17 "Set-up").

Both are Debian's packages (``scripts/install_test_tools.sh`` installs them when missing), run
from a temporary directory on a random loopback port and stopped by ``stop()`` (or the ``with``
block). PostgreSQL's ``initdb``/``postgres`` refuse to run as root, so as root they run as the
unprivileged ``postgres`` user (``runuser``). Nothing here touches the network beyond 127.0.0.1.

The broker ties each client id to its user name (``use_username_as_clientid``): a client
cannot take over another's session (the hub's or another table's) by naming its client id.
``Mosquitto`` keeps a password file (``mosquitto_passwd``) and an ACL file: each table's user may
publish only under ``dialtray/EVENT/t/USER/`` and read only ``dialtray/EVENT/cmd/USER/``; the hub's
user reads and writes the whole event. ``enroll`` adds a user and reloads the broker (SIGHUP).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


class ServerMissing(RuntimeError):
    """A server program is not installed; the message says which package brings it."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited (status {proc.returncode}) before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s")


def _which(name: str, package: str, dirs: list[Path] | None = None) -> str:
    for d in dirs or []:
        if (d / name).is_file():
            return str(d / name)
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if found is None:
        raise ServerMissing(f"{name} is not installed: install Debian's `{package}` package "
                            "(scripts/install_test_tools.sh does it as root)")
    return found


def missing() -> str | None:
    """Why the dev servers cannot run here, or None."""
    try:
        _which("mosquitto", "mosquitto")
        _which("mosquitto_passwd", "mosquitto")
        _which("initdb", "postgresql", PG_BIN_DIRS)
        _which("pg_ctl", "postgresql", PG_BIN_DIRS)
    except ServerMissing as e:
        return str(e)
    return None


class Mosquitto:
    """A broker on 127.0.0.1:``port`` requiring a password; ``kill``/``start`` keep the port and
    the users (a broker restart as the tables would see it)."""

    def __init__(self, event: str, root: Path, port: int | None = None) -> None:
        self.exe = _which("mosquitto", "mosquitto")
        self.passwd_exe = _which("mosquitto_passwd", "mosquitto")
        self.event = event
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.passwd = root / "passwd"
        self.acl = root / "acl"
        self.conf = root / "mosquitto.conf"
        self.users: dict[str, str] = {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.passwd.touch()
        self._write_acl()
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous false\n"
            "use_username_as_clientid true\n"
            "max_packet_size 262144\n"  # (the hub refuses records over 64 KiB anyway)
            f"password_file {self.passwd}\n"
            f"acl_file {self.acl}\n"
            "persistence false\n"
            "max_inflight_messages 1000\n"
            "max_queued_messages 100000\n"
            "set_tcp_nodelay true\n"  # (small publishes not held by Nagle's algorithm)
            f"log_dest file {root / 'mosquitto.log'}\n"
            "log_type error\nlog_type warning\nlog_type notice\n")

    def _write_acl(self) -> None:
        ev = self.event
        self.acl.write_text(
            "# the hub: the whole event\n"
            "user hub\n"
            f"topic readwrite dialtray/{ev}/#\n\n"
            "# every table (its user name is its id): its own topics only\n"
            f"pattern write dialtray/{ev}/t/%u/#\n"
            f"pattern read dialtray/{ev}/cmd/%u/#\n")
        os.chmod(self.acl, 0o644)

    def add_user(self, user: str, password: str) -> None:
        subprocess.run([self.passwd_exe, "-b", str(self.passwd), user, password], check=True,
                       capture_output=True)
        os.chmod(self.passwd, 0o644)
        self.users[user] = password
        self.reload()

    def reload(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGHUP)
            time.sleep(0.2)  # mosquitto rereads its password and ACL files on SIGHUP

    def start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (self.root / "pid").write_text(str(self.proc.pid))  # for ``reap_orphans``
        wait_port(self.port, 15, self.proc)

    def kill(self) -> None:
        """SIGKILL: the broker dies with whatever it held in memory."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Postgres:
    """A cluster in a temporary directory on 127.0.0.1:``port``: an owner role (``dialtray``,
    runs migrations) and the hub's role (``dialtray_hub``, only the rights the migrations grant)."""

    def __init__(self, root: Path, port: int | None = None) -> None:
        self.initdb = _which("initdb", "postgresql", PG_BIN_DIRS)
        self.pg_ctl = _which("pg_ctl", "postgresql", PG_BIN_DIRS)
        self.root = root
        self.port = port or free_port()
        self.data = root / "pgdata"
        self.owner_password = "owner-" + os.urandom(6).hex()
        self.hub_password = "hub-" + os.urandom(6).hex()
        self.as_root = os.geteuid() == 0

    def _run(self, argv: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(argv, check=True, capture_output=True, **kw)  # type: ignore[call-overload,no-any-return]

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        pwfile = self.root / "pw"
        pwfile.write_text(self.owner_password + "\n")
        if self.as_root:
            shutil.chown(pwfile, "postgres", "postgres")
        self._run([self.initdb, "-D", str(self.data), "-U", "dialtray", "-A", "scram-sha-256",
                   f"--pwfile={pwfile}", "-E", "UTF8", "--no-sync"])
        pwfile.unlink()
        for attempt in range(3):  # a random port may be taken between choosing and binding
            try:
                self._start()
                break
            except subprocess.CalledProcessError as e:
                log = (self.root / "pg.log").read_text(errors="replace")[-800:] \
                    if (self.root / "pg.log").exists() else ""
                if attempt == 2:
                    raise RuntimeError(f"PostgreSQL did not start: {log}") from e
                self.port = free_port()
        import psycopg

        with psycopg.connect(self.owner_dsn, autocommit=True) as c:
            c.execute("CREATE DATABASE dialtray_hub")
            c.execute(f"CREATE ROLE dialtray_hub LOGIN PASSWORD '{self.hub_password}'")

    def _start(self) -> None:
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run([self.pg_ctl, "-D", str(self.data), "-o", opts, "-l",
                   str(self.root / "pg.log"), "-w", "-t", "60", "start"])

    def down(self) -> None:
        """A restart's first half: every connection is cut (``-m fast``), the data kept;
        ``up()`` again. (Not ``immediate``: this cluster runs with ``synchronous_commit=off``
        for speed, so a crash would lose commits it had already confirmed — the hub's
        acknowledgements rest on PostgreSQL's durability, which a production server keeps.)"""
        self._run([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def up(self) -> None:
        self._start()

    def dsn(self, user: str, password: str, db: str = "dialtray_hub") -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{db}"

    @property
    def owner_dsn(self) -> str:
        return self.dsn("dialtray", self.owner_password, "postgres")

    @property
    def admin_dsn(self) -> str:
        """The owner on the hub's database: what ``dialtray hub migrate`` is given."""
        return self.dsn("dialtray", self.owner_password)

    @property
    def hub_dsn(self) -> str:
        return self.dsn("dialtray_hub", self.hub_password)

    def stop(self) -> None:
        if self.data.exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"])


PREFIX = "dialtray-hub-"
OWNER = "owner"  # in a DevServers directory: "PID START" of the process that started them


def _started(pid: int) -> str | None:
    """A process's start time (clock ticks since boot, /proc/PID/stat field 22): with the pid,
    it names the process even after the pid is reused. None: no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def reap_orphans(root: Path | None = None) -> list[Path]:
    """Stop and remove the servers of every DevServers directory whose owner is gone.

    PostgreSQL runs as a daemon (``pg_ctl`` detaches it), so a ``dialtray hub servers`` or
    a test killed with SIGKILL, where no ``atexit`` runs, would leave a cluster listening
    until the machine restarts. Each DevServers writes its owner (pid and start time); the
    next one to start stops what the dead left behind. Returns the directories reaped."""
    reaped = []
    for tmp in sorted(Path(root or tempfile.gettempdir()).glob(PREFIX + "*")):
        try:
            pid, start = (tmp / OWNER).read_text().split()
        except (OSError, ValueError):
            continue  # not ours, or still being set up
        if _started(int(pid)) == start:
            continue  # its owner lives
        pgdata = tmp / "pg" / "pgdata"
        _stop(pgdata / "postmaster.pid", str(pgdata), signal.SIGQUIT)  # PostgreSQL's immediate
        _stop(tmp / "mqtt" / "pid", str(tmp / "mqtt"), signal.SIGKILL)  # stop; the broker's
        shutil.rmtree(tmp, ignore_errors=True)
        reaped.append(tmp)
    return reaped


def _stop(pidfile: Path, mark: str, sig: int) -> None:
    """Signal the process named in ``pidfile`` if its command line still names ``mark`` (a pid
    of a process long dead may be another's now), and wait (up to 10 s) for it to go."""
    try:
        pid = int(pidfile.read_text().split()[0])
        if mark not in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            return
        os.kill(pid, sig)
    except (OSError, ValueError, IndexError):
        return
    end = time.monotonic() + 10
    while _started(pid) is not None and time.monotonic() < end:
        time.sleep(0.05)


class DevServers:
    """Both servers in one temporary directory; ``with DevServers("evt") as s: …``."""

    def __init__(self, event: str = "dev") -> None:
        reap_orphans()
        self.tmp = Path(tempfile.mkdtemp(prefix=PREFIX))
        os.chmod(self.tmp, 0o755)
        (self.tmp / OWNER).write_text(f"{os.getpid()} {_started(os.getpid())}\n")
        self.mqtt = Mosquitto(event, self.tmp / "mqtt")
        self.pg = Postgres(self.tmp / "pg")

    def start(self) -> DevServers:
        atexit.register(self.stop)  # also when the caller dies of an exception or sys.exit
        try:
            self.mqtt.start()
            self.pg.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if not self.tmp.exists():
            return  # stopped already
        self.mqtt.stop()
        self.pg.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> DevServers:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def guide(self, event: str, hub_password: str) -> str:
        """Where everything is and the next commands, for the person who started the servers
        (``dialtray hub servers``); the hub's broker user has ``hub_password``."""
        m, ev, pw, s = self.mqtt, event, hub_password, self
        pid = m.proc.pid if m.proc else "?"
        return (f"event {ev}: development servers on loopback (Ctrl-C stops both, deletes "
                f"{s.tmp})\n"
                f"broker     127.0.0.1:{m.port}   hub user 'hub', password {pw}\n"
                f"  config   {m.conf}  (client ids tied to user names)\n"
                f"  passwd   {m.passwd}\n"
                f"  acl      {m.acl}  (tables: dialtray/{ev}/t/USER/# and cmd/USER/#)\n"
                f"  reload   kill -HUP {pid}   (after adding a table's password)\n"
                f"database   {s.pg.hub_dsn}\n"
                f"  owner    {s.pg.admin_dsn}\n"
                f"next steps:\n"
                f"  export DIALTRAY_HUB_DB={s.pg.hub_dsn}\n"
                f"  dialtray hub --event {ev} enroll t01 --passwd {m.passwd} > t01.json"
                f" && kill -HUP {pid}\n"
                f"  DIALTRAY_HUB_PASSWORD={pw} dialtray hub --event {ev} run --broker "
                f"127.0.0.1:{m.port}\n"
                f"  dialtray play airaction --event mqtt://127.0.0.1:{m.port}/{ev} --creds "
                f"t01.json")
