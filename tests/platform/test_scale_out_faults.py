"""More than one server, and crashes: the site as production runs it, in processes of its own.

Two Daphne processes, two Celery workers and two beats (one is a mistake production must
survive) over the test database (reached through a proxy that can cut it) and a private Redis
(that can be restarted). Clients speak real HTTP and WebSockets. Each test shows that nothing is
lost or doubled: every round's AI move and timeout exactly once, sequence numbers without gaps,
and the events replay to the state the site serves.
"""
from __future__ import annotations

import os
import signal
import threading
import time
import urllib.request
from datetime import timedelta
from urllib.parse import quote

import psutil
import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import live, services
from games.models import Game, MoveEvent, PendingNotification
from games.sites import warm_up_bots
from tests.platform.daphne_load import DAPHNE_APPLICATION_NAME
from tests.platform.stack import (RedisServer, SiteUser, Stack, TcpProxy, WatchSocket, assert_replays_to_cache,
                                  events_by_round, wait_until)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.processes]


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        database = dict(connection.settings_dict)
    tmp = tmp_path_factory.mktemp("stack")
    # The server as Django reaches it: TCP, or the embedded PostgreSQL's Unix socket directory.
    options = database.get("OPTIONS") or {}
    proxy = TcpProxy(database["HOST"] or options.get("host") or "127.0.0.1",
                     int(database["PORT"] or options.get("port") or 5432))
    credentials = quote(database["USER"] or "", safe="") + (f":{quote(database['PASSWORD'], safe='')}" if database["PASSWORD"] else "")
    url = f"postgresql://{credentials}@127.0.0.1:{proxy.port}/{database['NAME']}"
    # The bots' compiled code (Numba's cache in __pycache__) is made here, once: every worker
    # warms up before it is ready, and two workers compiling a cold cache at once on two cores
    # would only make each other slow.
    warm_up_bots()
    redis = RedisServer(tmp / "redis")
    redis.start()
    site = Stack(tmp, url, redis)
    site.proxy = proxy
    try:
        site.start_worker("w1")
        site.start_worker("w2")
        site.start_beat("beat1")
        site.start_beat("beat2")  # by mistake: every deadline and reminder must still apply once
        site.start_web("b")
        site.start_launcher("a", 2, 2)  # pages: gunicorn, 2 workers; sockets: 2 Daphnes on a port of their own
        site.wait_workers_ready("w1", "w2")
        yield site
    finally:
        site.stop()
        proxy.close()
        redis.stop()


@pytest.fixture(autouse=True)
def quiet_between_tests(stack, transactional_db):
    """Each test starts with the beats running and ends with the stack quiet: its games, some
    still playing on 3-second rounds, are ended, the beats held and the tasks drained before
    Django empties the tables (torn down before ``transactional_db``, which flushes). A process
    of the stack writing during that TRUNCATE deadlocks it, and the next test then starts on the
    last one's rows."""
    stack.release_beats()
    yield
    stack.hold_beats()
    Game.objects.filter(status=Game.Status.ACTIVE).update(status=Game.Status.CANCELLED)
    stack.wait_quiet()


def hextension(players, *, ai_seats=None, turn_seconds: int, creator=None) -> Game:
    count = len(players) + len(ai_seats or {})
    return services.create_game(kind="hextension", config={"players": count, "tiles_per_round": 2},
                                created_by=creator or players[0], players=players, ai_seats=ai_seats or {},
                                turn_seconds=turn_seconds, join=False)


def start_over_http(stack: Stack, web: str, host: SiteUser, game: Game) -> None:
    status, body = host.post(f"{stack.base_url(web)}/games/{game.pk}/start/", {}, htmx=False)
    assert status == 302, (status, body[:500], stack.logs())


def a_placement(game: Game, seat: int) -> dict:
    from games import state_store
    from games.hextension import engine

    game = Game.objects.get(pk=game.pk)
    view = engine.view(state_store.replay(game), seat)
    free = [cell for cell in engine.CELLS if cell not in view["seats"][seat]["board"]]
    return {"type": "place", "placements": dict(zip(view["drawn"], free))}


def assert_each_round_once(game: Game) -> list[tuple[int, int | None, str]]:
    """No seat has two AI moves or two timeouts in one round, and the events replay cleanly."""
    game = Game.objects.get(pk=game.pk)
    rows = events_by_round(game)
    automatic = [(round_, seat) for round_, seat, kind in rows if kind in ("ai", "timeout")]
    assert len(automatic) == len(set(automatic)), rows
    assert_replays_to_cache(game)
    return rows


def test_two_daphnes_serve_one_game_and_two_workers_double_nothing(stack, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hextension([ana, bo], ai_seats={2: "greedy"}, turn_seconds=3)
    ana_http, bo_http = SiteUser(ana), SiteUser(bo)
    watcher = WatchSocket(stack.base_url("b"), bo_http, game.pk)  # held by Daphne b
    start_over_http(stack, "a", ana_http, game)  # through Daphne a
    watcher.wait_for_version(0)

    for _attempt in range(5):  # a round may close on its 3-second timer first: then the next round
        version = Game.objects.get(pk=game.pk).version
        status, body = ana_http.move(stack.base_url("a"), game.pk, a_placement(game, 0), version)
        if status != 409:
            break
    assert status == 200, body[:500]
    moved = MoveEvent.objects.get(game=game, seat=0, kind="move")
    watcher.wait_for_version(moved.seq)  # Daphne a's announcement reached Daphne b's socket
    moved_round = next(r for r, s, k in events_by_round(Game.objects.get(pk=game.pk)) if k == "move")

    # Rounds go by on 2-second timers (bo never moves), with AI moves, both workers and both beats.
    wait_until(lambda: max(r for r, *_ in events_by_round(Game.objects.get(pk=game.pk))) >= moved_round + 2, 40,
               what="two more rounds")
    rows = assert_each_round_once(game)
    assert sorted((s, k) for r, s, k in rows if r == moved_round) == [(0, "move"), (1, "timeout"), (2, "ai")]
    final = Game.objects.get(pk=game.pk).version
    wait_until(lambda: (watcher.last_version() or 0) >= Game.objects.get(pk=game.pk).version, 20,
               what="the socket to show the latest version")
    assert watcher.last_version() >= final
    watcher.close()
    for worker in ("w1", "w2"):
        assert "succeeded" in stack.log(worker).read_text(), f"worker {worker} ran nothing"


def unacked_tasks(stack: Stack, game: Game, *, queued_too: bool = False) -> dict[str, str]:
    """The tasks of ``game`` that a worker has taken and not yet acknowledged (kombu's set),
    and with ``queued_too`` those waiting in the queue as well: task id -> task name."""
    import json

    import redis

    client = redis.Redis.from_url(stack.redis.url)
    try:
        messages = [json.loads(raw)[0] for raw in client.hvals("unacked")]
        if queued_too:
            messages += [json.loads(raw) for raw in client.lrange("celery", 0, -1)]
        return {message["headers"]["id"]: message["headers"]["task"] for message in messages
                if message["headers"].get("argsrepr", "").startswith(f"({game.pk},")}
    finally:
        client.close()


def test_a_worker_killed_holding_an_ai_move_and_a_timer_loses_and_doubles_nothing(stack, make_user):
    ana = make_user("ana")
    game = hextension([ana], ai_seats={1: "greedy"}, turn_seconds=3)
    start_over_http(stack, "a", SiteUser(ana), game)
    # The AI's task (a 1-second pause) and the turn timer, taken by the workers, not yet run.
    def both_held() -> dict[str, str] | None:
        tasks = unacked_tasks(stack, game)
        return tasks if set(tasks.values()) >= {"games.tasks.play_ai_move", "games.tasks.apply_timeouts"} else None

    # The test holds the game's row meanwhile: a task that comes due before its worker is killed
    # waits for the row and dies with the worker (on a busy machine the AI's pause could pass
    # between "held" and the kill, and its move was then applied: the test was flaky so).
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        held = wait_until(both_held, 10, 0.02, what="the workers to hold the AI move and the timer")
        for name in ("w1", "w2"):
            stack.kill(stack.workers[name])
    time.sleep(3.5)  # the AI's pause and the deadline pass with no worker alive
    assert MoveEvent.objects.filter(game=game).count() == 0
    stack.start_worker("w1")
    stack.start_worker("w2")
    stack.wait_workers_ready("w1", "w2")

    # The passed deadline (the killed timer, back after its visibility timeout, or beat's sweep)
    # times Ana out and plays the AI seat's move in the same write, unless the AI's own task (the
    # killed one, or the owed-move sweep's) comes first; whichever runs later finds nothing to do.
    wait_until(lambda: {(s, k) for r, s, k in events_by_round(Game.objects.get(pk=game.pk)) if r == 1}
               >= {(1, "ai"), (0, "timeout")}, 90, what="round 1's AI move and timeout")
    # The killed tasks themselves (not the next rounds' AI moves, which keep coming) are
    # delivered again and acknowledged: neither held by a worker nor back in the queue.
    wait_until(lambda: not held.keys() & unacked_tasks(stack, game, queued_too=True).keys(), 20,
               what="the killed tasks to be delivered again")
    time.sleep(1)
    rows = assert_each_round_once(game)
    assert sorted((s, k) for r, s, k in rows if r == 1) == [(0, "timeout"), (1, "ai")]


def test_a_redis_restart_loses_and_doubles_nothing_and_sockets_catch_up(stack, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hextension([ana, bo], turn_seconds=86400)  # no timer task: its deadline is the sweep's
    ana_http, bo_http = SiteUser(ana), SiteUser(bo)
    start_over_http(stack, "a", ana_http, game)
    watcher = WatchSocket(stack.base_url("b"), bo_http, game.pk)
    watcher.wait_for_version(0)
    game = Game.objects.get(pk=game.pk)
    seen_stamp = live.stamp_of(game)

    stack.redis.stop()  # queued tasks, cached states, rate limits and the channel layer are lost
    # A move during the outage: the database is the truth, so it is played.
    status, body = ana_http.move(stack.base_url("a"), game.pk, a_placement(game, 0), 0)
    assert status == 200, body[:800]
    assert list(MoveEvent.objects.filter(game=game).values_list("seat", "kind")) == [(0, "move")]
    wait_until(watcher.closed.is_set, 15, what="the socket to close when Redis goes")
    # Bo's deadline passes during the outage.
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    time.sleep(1.5)
    stack.redis.start()

    # The page's socket reconnects with the stamp of what it shows and gets what changed.
    reconnected = wait_until(lambda: _connect(stack, bo_http, game, seen_stamp), 30, 0.5,
                             what="the socket to reconnect")
    reconnected.wait_for_version(1)
    # The deadline sweep applies the timeout, once, and the socket is told.
    # Generous: beat and the workers reconnect with back-off, slowly on a busy machine (not a speed check).
    wait_until(lambda: MoveEvent.objects.filter(game=game, seat=1, kind="timeout").exists(), 120,
               what="bo's timeout after the outage")
    reconnected.wait_for_version(MoveEvent.objects.get(game=game, seat=1, kind="timeout").seq)
    reconnected.close()
    time.sleep(1.5)  # more sweeps
    rows = assert_each_round_once(game)
    assert [(r, s, k) for r, s, k in rows if r == 1] == [(1, 0, "move"), (1, 1, "timeout")]
    for worker in ("w1", "w2"):
        assert stack.workers[worker].poll() is None, stack.log(worker).read_text()[-3000:]


def _connect(stack: Stack, user: SiteUser, game: Game, stamp: str) -> WatchSocket | None:
    try:
        socket = WatchSocket(stack.base_url("b"), user, game.pk, stamp=stamp)
    except AssertionError:
        return None
    time.sleep(0.3)
    if socket.closed.is_set():
        return None
    return socket


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND application_name = %s AND wait_event_type = 'Lock'", [DAPHNE_APPLICATION_NAME])
        return cursor.fetchone()[0] > 0


def test_a_postgresql_restart_fails_requests_in_flight_cleanly_and_later_ones_succeed(stack, make_user):
    from django.db import connections

    ana, bo = make_user("ana"), make_user("bo")
    game = hextension([ana, bo], turn_seconds=86400)
    ana_http, bo_http = SiteUser(ana), SiteUser(bo)
    start_over_http(stack, "a", ana_http, game)
    move = a_placement(game, 0)
    answer: list = []

    # Ana's move is in flight, inside its transaction (waiting for the game's row) when the
    # server goes away.
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
        request = threading.Thread(target=lambda: answer.append(ana_http.move(stack.base_url("a"), game.pk, move, 0)))
        request.start()
        wait_until(_waiting_on_a_lock, 10, 0.05, what="the move to wait inside its transaction")
        stack.proxy.cut()
        request.join(30)
    finally:
        holder.rollback()
        holder.close()
    status, body = answer[0]
    assert status == 503, body[:800]
    assert "could not reach its database" in body
    assert MoveEvent.objects.filter(game=game).count() == 0  # nothing half-written

    # While it is down: a clear answer, not a hang.
    status, body = bo_http.move(stack.base_url("b"), game.pk, a_placement(game, 1), 0)
    assert status == 503 and "could not reach its database" in body

    stack.proxy.restore()  # back up: the same processes serve again, nobody restarted them
    assert ana_http.move(stack.base_url("a"), game.pk, move, 0)[0] == 200
    assert bo_http.move(stack.base_url("b"), game.pk, a_placement(game, 1), 0)[0] == 200
    # The workers and beats reconnect too: a passed deadline is applied, once.
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    wait_until(lambda: MoveEvent.objects.filter(game=game, kind="timeout").count() == 2, 120,
               what="round 2's timeouts")
    time.sleep(1.5)
    rows = assert_each_round_once(game)
    assert [(r, k) for r, s, k in rows] == [(1, "move"), (1, "move"), (2, "timeout"), (2, "timeout")]


def test_two_beats_apply_each_deadline_and_reminder_once(stack, make_user):
    from accounts.models import User

    players = [make_user(f"p{i}", email_notifications=User.EmailPreference.DIGEST) for i in range(4)]
    games = [hextension(players[i:i + 2], turn_seconds=86400) for i in (0, 2)]
    for game in games:
        services.start_game(game_id=game.pk)  # queued nothing the stack's workers see: the sweeps do it all
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=games[0].pk).update(remind_at=past)
    Game.objects.filter(pk=games[1].pk).update(deadline_at=past, remind_at=None)
    wait_until(lambda: MoveEvent.objects.filter(game=games[1], kind="timeout").count() == 2
               and PendingNotification.objects.filter(subject__startswith="Reminder").count() == 2, 30,
               what="the reminders and the timeouts")
    time.sleep(3)  # several more sweeps by each beat
    assert PendingNotification.objects.filter(subject__startswith="Reminder").count() == 2
    assert sorted(PendingNotification.objects.filter(subject__startswith="Reminder")
                  .values_list("user__username", flat=True)) == ["p0", "p1"]
    assert MoveEvent.objects.filter(game=games[1], kind="timeout").count() == 2
    assert MoveEvent.objects.filter(game=games[0]).count() == 0
    assert_each_round_once(games[1])


def test_the_game_sockets_have_a_daphne_and_a_port_of_their_own(stack, make_user):
    """The page served on the site's port opens its socket on the sockets' port, where only the
    sockets' Daphne listens; a move posted on the site's port reaches it."""
    launcher = psutil.Process(stack.webs["a"][0].pid)
    by_role = {child.environ()["HEXSITE_WEB_PROCESS"]: child for child in launcher.children()}
    assert sorted(by_role) == ["sockets0", "sockets1", "web"] and len(by_role["web"].children()) == 2
    port = stack.socket_ports["a"]
    assert port != stack.webs["a"][1]
    listening = {c.laddr.port for c in by_role["sockets0"].net_connections() if c.status == "LISTEN"}
    assert port in listening and stack.webs["a"][1] not in listening
    ana, bo = make_user("ana"), make_user("bo")
    game = hextension([ana, bo], turn_seconds=3600)
    ana_http = SiteUser(ana)
    start_over_http(stack, "a", ana_http, game)
    status, page = ana_http.get(f"{stack.base_url('a')}/games/{game.pk}/")
    assert status == 200 and f'data-socket-port="{port}"' in page
    request = urllib.request.Request(f"{stack.base_url('a')}/games/{game.pk}/", headers={"Cookie": ana_http.cookie})
    with urllib.request.urlopen(request) as answer:  # the page's policy lets it connect there
        policy = answer.headers["Content-Security-Policy"]
    assert f"ws://127.0.0.1:{port}" in policy or "ws://127.0.0.1:*" in policy, policy
    socket = WatchSocket(stack.base_url("a"), ana_http, game.pk, stamp=live.stamp_of(Game.objects.get(pk=game.pk)),
                         port=port)
    try:
        status, body = ana_http.move(stack.base_url("a"), game.pk, a_placement(game, 0), 0)
        assert status == 200, body[:300]
        socket.wait_for_version(1)
    finally:
        socket.close()


def test_the_launcher_shares_each_port_between_its_processes_and_replaces_a_dead_one(stack, make_user):
    """Pages: gunicorn replaces a killed worker while the other answers. Sockets: two Daphnes
    accept on one port; the other answers while the launcher starts a new one."""
    launcher = psutil.Process(stack.webs["a"][0].pid)
    by_role = {child.environ()["HEXSITE_WEB_PROCESS"]: child for child in launcher.children()}
    user = SiteUser(make_user("ana"))
    pages, page_workers = f"{stack.base_url('a')}/games/", by_role["web"].children()
    os.kill(page_workers[0].pid, signal.SIGKILL)
    assert all(user.get(pages)[0] == 200 for _ in range(6))
    wait_until(lambda: len(by_role["web"].children()) == 2
               and page_workers[0].pid not in {c.pid for c in by_role["web"].children()}, 30,
               what="gunicorn to start a worker in place of the dead one")
    # The socket Daphnes serve the same application: plain requests show which one answers.
    sockets_port = f"http://127.0.0.1:{stack.socket_ports['a']}/games/"
    daphnes = [by_role["sockets0"], by_role["sockets1"]]
    assert all(user.get(sockets_port)[0] == 200 for _ in range(6))
    os.kill(daphnes[0].pid, signal.SIGKILL)
    assert all(user.get(sockets_port)[0] == 200 for _ in range(6))  # the other one answers on the same port
    wait_until(lambda: len(launcher.children()) == 3 and daphnes[0].pid not in {c.pid for c in launcher.children()},
               20, what="a new Daphne in place of the dead one")
    os.kill(daphnes[1].pid, signal.SIGKILL)  # now only the new one can answer
    wait_until(lambda: user.get(sockets_port)[0] == 200, 90, 0.3, what="the new Daphne to answer")
    assert "daphne pid" in stack.log("a").read_text() and "exited (-9); starting another" in stack.log("a").read_text()
