"""Several Daphne processes behind one listening socket: the site's local scale-out.

    python -m hexsite.serve [--host H] [--port P] [--processes N]
                            [--socket-processes M [--socket-port Q]] [-- extra daphne arguments]

The launcher binds ``host:port`` once and starts N ``daphne --fd <fd>`` children that all
accept on that same socket: the kernel hands each new connection to one of them, so there is
no proxy in between and no sticky sessions are needed (every process reads the same
PostgreSQL, and channels-redis carries group messages between them). A child that exits
without being asked to is started again after a short pause; SIGTERM or SIGINT stops them all.

With ``--socket-processes M`` (M > 0) the game sockets get processes of their own: M more
Daphnes on a second port (``--socket-port``, by default the next one), and every page points
its socket there (``LIVE_SOCKET_PORT`` in the children's environment, unless it is set
already: behind a proxy that routes ``/ws/`` it is set empty, and pages use their own origin).
Then a move or a page is never served by a process that is drawing pushes for 200 sockets.

Defaults come from the environment: ``HEXSITE_HOST`` (127.0.0.1), ``HEXSITE_PORT`` (8000),
``WEB`` (1 process), ``SOCKETS`` (0: the same processes serve both) and
``HEXSITE_SOCKET_PORT``. This module imports nothing of Django; ``make run WEB=2`` uses it
through the Procfile. On several machines, run one per machine behind the proxy
(docs/deployment.md).
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

DAPHNE = str(Path(sys.executable).with_name("daphne"))
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
APPLICATION = "hexsite.asgi:application"
WSGI_APPLICATION = "hexsite.wsgi:application"
# Threads per gunicorn worker. Full pages are drawn PAGE_SLOTS at a time (hexsite/admission.py) and
# wait for a slot holding a thread but no database connection, so there are threads to spare for
# the writes that go past them; the connections in use stay under DATABASE_POOL_MAX (10).
PAGE_THREADS = 32
KEEP_ALIVE_SECONDS = 300
RESTART_PAUSE_SECONDS = 1.0
STOP_TIMEOUT_SECONDS = 20


def say(message: str) -> None:
    print(f"hexsite.serve: {message}", flush=True)


def listening_socket(host: str, port: int, backlog: int = 1024) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.set_inheritable(True)
    return sock


class Supervisor:
    """Starts the Daphne children, each on its group's inherited socket, and keeps them running.

    ``groups``: (listening socket, how many processes, name) for each group; the first serves
    HTTP (and sockets, unless a second group is given for them). With ``pages_by_gunicorn`` the
    first group is one gunicorn (WSGI, threaded workers) with that many workers instead."""

    def __init__(self, groups: list[tuple[socket.socket, int, str]], daphne_args: list[str],
                 env: dict[str, str] | None = None, pages_by_gunicorn: bool = False):
        self.slots = []
        for number, (sock, count, name) in enumerate(groups):
            if number == 0 and pages_by_gunicorn:
                self.slots.append((sock, name, self.gunicorn(sock, count)))
            else:
                self.slots += [(sock, f"{name}{i}", self.daphne(sock, daphne_args)) for i in range(count)]
        self.env = dict(os.environ if env is None else env)
        self.children: list[subprocess.Popen | None] = [None] * len(self.slots)
        self.stopping = False

    @staticmethod
    def daphne(sock: socket.socket, daphne_args: list[str]) -> list[str]:
        domain = ":domain=INET6" if sock.family == socket.AF_INET6 else ""
        # Daphne's --fd builds "fd:fileno=N" (IPv4 only); the endpoint string also carries IPv6.
        endpoint = ["--fd", str(sock.fileno())] if not domain else ["-e", f"fd:fileno={sock.fileno()}{domain}"]
        return [DAPHNE, *endpoint, *daphne_args, APPLICATION]

    @staticmethod
    def gunicorn(sock: socket.socket, workers: int) -> list[str]:
        """Pages (everything but the sockets) under WSGI: gunicorn's workers reuse their threads,
        where Django under ASGI starts a thread for every request. More options:
        GUNICORN_CMD_ARGS (gunicorn reads it), e.g. --forwarded-allow-ips behind a proxy."""
        return [GUNICORN, "--bind", f"fd://{sock.fileno()}", "--workers", str(workers), "--worker-class", "gthread",
                "--threads", str(PAGE_THREADS), "--graceful-timeout", "20",
                # Idle keep-alive connections are left for the client to close (browsers keep
                # them for minutes): a server that closes one as a request arrives on it resets
                # that request, and a browser does not send a POST again.
                "--keep-alive", str(KEEP_ALIVE_SECONDS), WSGI_APPLICATION]

    def start(self, index: int) -> None:
        sock, name, command = self.slots[index]
        env = dict(self.env, HEXSITE_WEB_PROCESS=name)
        self.children[index] = subprocess.Popen(command, pass_fds=(sock.fileno(),), env=env)

    def stop(self, *_signal) -> None:
        self.stopping = True
        for child in self.children:
            if child is not None and child.poll() is None:
                child.terminate()

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        signal.signal(signal.SIGHUP, self.stop)
        for index in range(len(self.slots)):
            self.start(index)
        described: dict[tuple[socket.socket, str], list[str]] = {}
        for (sock, _, command), child in zip(self.slots, self.children):
            described.setdefault((sock, Path(command[0]).name), []).append(str(child.pid) if child else "?")
        for (sock, program), pids in described.items():
            host, port = sock.getsockname()[:2]
            what = "the pages and the game sockets" if len({s for s, _ in described}) == 1 else (
                "the pages" if sock is self.slots[0][0] else "the game sockets")
            say(f"{program} for {what} on {host}:{port} (pid{'s' if len(pids) > 1 else ''} {', '.join(pids)})")
        while not self.stopping:
            for index, child in enumerate(self.children):
                if child is not None and child.poll() is not None and not self.stopping:
                    say(f"{Path(self.slots[index][2][0]).name} pid {child.pid} exited ({child.returncode}); "
                        "starting another")
                    time.sleep(RESTART_PAUSE_SECONDS)
                    if not self.stopping:
                        self.start(index)
            time.sleep(0.2)
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        for child in self.children:
            if child is None:
                continue
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        return 0


def main(argv: list[str]) -> int:
    extra: list[str] = []
    if "--" in argv:
        argv, extra = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("HEXSITE_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("HEXSITE_PORT", "8000")))
    parser.add_argument("--processes", type=int, default=int(os.environ.get("WEB", "1") or 1),
                        help="Daphne processes sharing the socket (default: $WEB or 1)")
    parser.add_argument("--socket-processes", type=int, default=int(os.environ.get("SOCKETS", "0") or 0),
                        help="Daphne processes of their own for the game sockets, on --socket-port "
                             "(default: $SOCKETS or 0, the HTTP processes serve them)")
    parser.add_argument("--socket-port", type=int, default=int(os.environ.get("HEXSITE_SOCKET_PORT", "0") or 0),
                        help="the sockets' port (default: $HEXSITE_SOCKET_PORT or the next after --port)")
    parser.add_argument("--pages", choices=["gunicorn", "daphne"], default=os.environ.get("HEXSITE_PAGES", "gunicorn"),
                        help="what serves the pages when the sockets have processes of their own: one gunicorn "
                             "with --processes threaded WSGI workers (default), or Daphnes ($HEXSITE_PAGES)")
    args = parser.parse_args(argv)
    if args.processes < 1 or args.socket_processes < 0:
        parser.error("--processes must be at least 1, --socket-processes at least 0")
    ports = [(args.port, args.processes, "web")]
    env = dict(os.environ)
    if args.socket_processes:
        socket_port = args.socket_port or args.port + 1
        ports.append((socket_port, args.socket_processes, "sockets"))
        env.setdefault("LIVE_SOCKET_PORT", str(socket_port))  # set (even empty) by a proxy's set-up: kept
    groups = []
    for port, count, name in ports:
        try:
            groups.append((listening_socket(args.host, port), count, name))
        except OSError as error:
            say(f"cannot listen on {args.host}:{port} ({name}): {error.strerror}"
                + (" (set HEXSITE_SOCKET_PORT, or SOCKETS=0 to serve sockets on the site's port)" if name == "sockets" else ""))
            return 1
    return Supervisor(groups, extra, env, pages_by_gunicorn=bool(args.socket_processes) and args.pages == "gunicorn").run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
