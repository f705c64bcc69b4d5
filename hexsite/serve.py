"""Several Daphne processes behind one listening socket: the site's local scale-out.

    python -m hexsite.serve [--host H] [--port P] [--processes N] [-- extra daphne arguments]

The launcher binds ``host:port`` once and starts N ``daphne --fd <fd>`` children that all
accept on that same socket: the kernel hands each new connection to one of them, so there is
no proxy in between and no sticky sessions are needed (every process reads the same
PostgreSQL, and channels-redis carries group messages between them). A child that exits
without being asked to is started again after a short pause; SIGTERM or SIGINT stops them all.

Defaults come from the environment: ``HEXSITE_HOST`` (127.0.0.1), ``HEXSITE_PORT`` (8000) and
``WEB`` (1 process). This module imports nothing of Django; ``make run WEB=2`` uses it through
the Procfile. On several machines, run one per machine behind the proxy (docs/deployment.md).
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
APPLICATION = "hexsite.asgi:application"
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
    """Starts the Daphne children on one inherited socket and keeps them running."""

    def __init__(self, sock: socket.socket, processes: int, daphne_args: list[str]):
        self.sock = sock
        self.count = processes
        self.daphne_args = daphne_args
        self.children: list[subprocess.Popen | None] = [None] * processes
        self.stopping = False

    def command(self) -> list[str]:
        domain = ":domain=INET6" if self.sock.family == socket.AF_INET6 else ""
        # Daphne's --fd builds "fd:fileno=N" (IPv4 only); the endpoint string also carries IPv6.
        endpoint = ["--fd", str(self.sock.fileno())] if not domain else ["-e", f"fd:fileno={self.sock.fileno()}{domain}"]
        return [DAPHNE, *endpoint, *self.daphne_args, APPLICATION]

    def start(self, index: int) -> None:
        env = dict(os.environ, HEXSITE_WEB_PROCESS=str(index))
        self.children[index] = subprocess.Popen(self.command(), pass_fds=(self.sock.fileno(),), env=env)

    def stop(self, *_signal) -> None:
        self.stopping = True
        for child in self.children:
            if child is not None and child.poll() is None:
                child.terminate()

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        signal.signal(signal.SIGHUP, self.stop)
        for index in range(self.count):
            self.start(index)
        host, port = self.sock.getsockname()[:2]
        say(f"{self.count} Daphne process{'es' if self.count > 1 else ''} on http://{host}:{port}/ "
            f"(pids {', '.join(str(c.pid) for c in self.children if c)})")
        while not self.stopping:
            for index, child in enumerate(self.children):
                if child is not None and child.poll() is not None and not self.stopping:
                    say(f"Daphne pid {child.pid} exited ({child.returncode}); starting another")
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
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        say(f"cannot listen on {args.host}:{args.port}: {error.strerror}")
        return 1
    return Supervisor(sock, args.processes, extra).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
