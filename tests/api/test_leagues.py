"""Leagues through the API (issue 47, organisers): an organiser's script runs a whole season
through the API only, readers see a league as its pages show it (a private one is not found by
strangers), and each refusal: its status, the page's sentence, nothing written."""
from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from api import schemas
from api.models import Scope
from games import services
from games.leagues import services as leagues
from games.leagues import standings
from games.leagues.models import Announcement, League, LeagueEntry
from games.models import Game
from games.services import adjudication
from tests.api.conftest import ApiClient, token_for
from tests.api.test_endpoints import problem

pytestmark = pytest.mark.django_db


def client_of(user, scopes=(Scope.READ, Scope.ORGANISE), language: str | None = None) -> ApiClient:
    client = ApiClient(token_for(user, scopes=scopes), language=language)
    client.user = user
    return client


def new_league(orga, **fields) -> League:
    defaults = dict(name="Spring league", tiles_per_round=2, round_hours=48, season_games=1,
                    entry=League.Entry.APPROVAL, schedule=League.Schedule.PARALLEL,
                    starts_at=timezone.now() + timedelta(days=3))
    return leagues.create_league(organiser=orga, **{**defaults, **fields})


def running(orga, make_user, names=("ana", "bo"), **fields) -> tuple[League, Game]:
    league = new_league(orga, entry=League.Entry.OPEN, **fields)
    for name in names:
        leagues.enter_league(league_id=league.pk, user=make_user(name))
    (game,) = leagues.start_season(league_id=league.pk, by_user=orga)
    return league, game


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


# --- the organiser's script ----------------------------------------------------------------------


def test_an_organiser_runs_a_whole_season_through_the_api(orga, make_user, django_capture_on_commit_callbacks):
    api = client_of(orga)
    starts = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    created = api.post("/leagues", {"name": "API league", "entry": "approval", "schedule": "sequential",
                                    "season_games": 2, "tiles_per_round": 3, "starts_at": starts.isoformat()})
    assert created.status_code == 201, created.content
    league = League.objects.get(pk=created.json()["id"])
    assert (league.organiser, league.entry, league.schedule, league.season_games, league.tiles_per_round,
            league.round_hours, league.starts_at) == (orga, "approval", "sequential", 2, 3, 72, starts)
    assert created.json()["you"] == {"organiser": True, "entry": None}
    assert created.json()["seasons"] == [{"number": 1, "status": "enrolling", "started_at": None}]

    # Players ask to join on the pages (the services); the organiser decides through the API.
    ana, bo, cy, dee, eve = (make_user(name) for name in ("ana", "bo", "cy", "dee", "eve"))
    for user in (ana, bo, cy, dee, eve):
        leagues.enter_league(league_id=league.pk, user=user)
    entries = api.get(f"/leagues/{league.pk}/entries").json()["entries"]
    assert [(e["player"], e["status"]) for e in entries] == [(n, "pending") for n in ("ana", "bo", "cy", "dee", "eve")]
    ids = {e["player"]: e["id"] for e in entries}
    for name in ("ana", "bo", "cy"):
        approved = api.post(f"/leagues/{league.pk}/entries/{ids[name]}/approve")
        assert approved.status_code == 200 and approved.json()["status"] == "approved", approved.content
    declined = api.post(f"/leagues/{league.pk}/entries/{ids['eve']}/decline")
    assert declined.json() == {**declined.json(), "player": "eve", "status": "declined"}
    assert leagues.players(league) == [ana, bo, cy]

    started = api.post(f"/leagues/{league.pk}/start")
    assert started.status_code == 200, started.content
    season = started.json()
    assert season["status"] == "running" and season["started_at"] and [g["number"] for g in season["games"]] == [1]
    first = Game.objects.get(pk=season["games"][0]["id"])
    assert first.league == league and first.status == Game.Status.ACTIVE
    assert season["games"][0]["url"].endswith(f"/games/{first.pk}/") and season["standings"]["rows"] == []

    due = first.deadline_at
    extended = api.post(f"/leagues/{league.pk}/extend", {"game": first.pk, "hours": 5})
    assert extended.status_code == 200, extended.content
    first.refresh_from_db()
    assert abs((first.deadline_at - due) - timedelta(hours=5)) < timedelta(seconds=30)
    assert extended.json() == {"game": first.pk, "deadline_at": first.deadline_at.isoformat()}

    paused = api.post(f"/leagues/{league.pk}/pause")
    assert paused.json()["status"] == "paused" and Game.objects.get(pk=first.pk).status == Game.Status.PAUSED
    assert api.post(f"/leagues/{league.pk}/resume").json()["status"] == "running"
    assert Game.objects.get(pk=first.pk).status == Game.Status.ACTIVE

    # dee waits for approval: she may replace bo; cy is removed, the strong AI plays his seat.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        replaced = api.post(f"/leagues/{league.pk}/replace", {"player": "bo", "replacement": "dee"})
        removed = api.post(f"/leagues/{league.pk}/remove", {"player": "cy"})
    assert replaced.json() == {"seats": 1} and removed.json() == {"seats": 1}, (replaced.content, removed.content)
    assert list(first.seats.order_by("index").values_list("user__username", "ai_level")) == [
        ("ana", ""), ("dee", ""), (None, "strong")]
    assert {m.to[0] for m in mail.outbox} >= {bo.email, cy.email, dee.email}

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        posted = api.post(f"/leagues/{league.pk}/announcements", {"text": "Round two opens on Monday."})
    assert posted.status_code == 201 and posted.json()["author"] == "orga"
    assert Announcement.objects.get(league=league).text == "Round two opens on Monday."
    assert {m.to[0] for m in mail.outbox} == {ana.email, dee.email}  # the season's players now

    # The games are played (here: ended by the staff with their scores); the season goes on by itself.
    root = make_user("root", is_staff=True)
    adjudication.end_game(game_id=first.pk, by_user=root, reason="Played", scores=[90, 70, 80])
    services.game_finished(game_id=first.pk)
    second = league.games.get(season_index=2)
    assert list(second.seats.order_by("index").values_list("user__username", flat=True)) == ["ana", "dee"]
    adjudication.end_game(game_id=second.pk, by_user=root, reason="Played", scores=[60, 75])
    services.game_finished(game_id=second.pk)

    season = api.get(f"/leagues/{league.pk}/seasons/1").json()
    assert season["status"] == "finished" and [g["status"] for g in season["games"]] == ["finished", "finished"]
    table = standings.league_standings(League.objects.get(pk=league.pk))
    assert season["standings"]["games"] == [1, 2] == table.game_numbers
    assert [(r["rank"], r["name"], r["username"], r["ai"], r["scores"], r["match_points"], r["percentage"],
             r["total_score"], r["best_game"], r["nmrs"]) for r in season["standings"]["rows"]] == [
        (row.rank, row.name, None if row.is_ai else row.name, row.is_ai, row.per_game, row.match_points,
         round(row.percentage, 1), row.total_score, row.best_game, row.nmr) for row in table.rows]
    by_name = {r["name"]: r for r in season["standings"]["rows"]}
    assert by_name["AI (strong), seat 3"]["ai"] and by_name["AI (strong), seat 3"]["scores"] == [80, None]
    assert by_name["ana"]["match_points"] == 2.0 and by_name["dee"]["scores"] == [70, 75]

    # The exports are the league page's, byte for byte.
    exported = api.get(f"/leagues/{league.pk}/standings.csv")
    assert exported.status_code == 200 and exported["Content-Type"].startswith("text/csv")
    page_export = Client().get(reverse("league_standings_csv", args=[league.pk]))
    assert exported.content == page_export.content
    assert csv_rows(exported.content.decode())[0][:4] == ["rank", "player", "game 1", "game 2"]
    assert any(row[1] == "AI (strong), seat 3" for row in csv_rows(exported.content.decode()))
    boards = api.get(f"/leagues/{league.pk}/boards.csv")
    assert boards.content == Client().get(reverse("league_boards_csv", args=[league.pk])).content
    assert csv_rows(boards.content.decode())[0] == ["game", "player", "cell", "tile"]

    read = api.get(f"/leagues/{league.pk}").json()
    assert read["status"] == "finished" and read["seasons"][0]["status"] == "finished"
    assert [a["text"] for a in read["announcements"]] == ["Round two opens on Monday."]
    assert set(read["settings"]) == set(schemas.league_settings_names()) >= {"tiles_per_round", "round_hours"}
    assert {name: read["settings"][name] for name in ("tiles_per_round", "round_hours", "season_games", "schedule")} == {
        "tiles_per_round": 3, "round_hours": 72, "season_games": 2, "schedule": "sequential"}


# --- reading --------------------------------------------------------------------------------------


def test_readers_see_what_the_pages_show_and_a_private_league_is_not_found_by_strangers(orga, make_user):
    public = new_league(orga, name="Public")
    private = new_league(orga, name="Private", entry=League.Entry.INVITATION)
    ana, bo, stranger = make_user("ana"), make_user("bo"), make_user("stranger")
    leagues.enter_league(league_id=private.pk, user=ana, token=private.invite_token)
    waiting = leagues.enter_league(league_id=public.pk, user=bo)
    leagues.enter_league(league_id=public.pk, user=ana)
    leagues.decide_entry(league_id=public.pk, entry_id=LeagueEntry.objects.get(league=public, user=ana).pk,
                         by_user=orga, approve=True)
    as_ana, as_stranger = client_of(ana, scopes=(Scope.READ,)), client_of(stranger, scopes=(Scope.READ,))

    assert {lg["name"] for lg in as_ana.get("/leagues").json()["leagues"]} == {"Public", "Private"}
    listed = as_stranger.get("/leagues").json()
    assert [lg["name"] for lg in listed["leagues"]] == ["Public"]
    assert listed["leagues"][0]["private"] is False and (listed["page"], listed["pages"], listed["next_page"]) == (1, 1, None)
    for path in ("", "/seasons/1", "/entries", "/standings.csv", "/boards.csv"):
        refused = problem(as_stranger.get(f"/leagues/{private.pk}{path}"), 404)
        assert refused["detail"] == "There is no such league."
        assert as_ana.get(f"/leagues/{private.pk}{path}").status_code == 200, path

    # Entries: a reader sees the players and their own entry; the organiser sees every one.
    assert [(e["player"], e["status"]) for e in as_stranger.get(f"/leagues/{public.pk}/entries").json()["entries"]] == [
        ("ana", "approved")]
    as_bo = client_of(bo, scopes=(Scope.READ,))
    assert [(e["player"], e["status"]) for e in as_bo.get(f"/leagues/{public.pk}/entries").json()["entries"]] == [
        ("bo", "pending"), ("ana", "approved")]
    assert as_bo.get(f"/leagues/{public.pk}").json()["you"] == {"organiser": False, "entry": "pending"}
    assert {e["id"] for e in client_of(orga).get(f"/leagues/{public.pk}/entries").json()["entries"]} == {
        waiting.pk, LeagueEntry.objects.get(league=public, user=ana).pk}


def test_the_league_list_is_paginated_by_page(orga, make_user, monkeypatch):
    from api import leagues as api_leagues

    monkeypatch.setattr(api_leagues, "PAGE_SIZE", 2)
    for number in range(5):
        new_league(orga, name=f"League {number}", starts_at=timezone.now() + timedelta(days=number + 1))
    api = client_of(make_user(), scopes=(Scope.READ,))
    first, last = api.get("/leagues").json(), api.get("/leagues", data={"page": "3"}).json()
    assert [lg["name"] for lg in first["leagues"]] == ["League 4", "League 3"]
    assert (first["count"], first["pages"], first["next_page"]) == (5, 3, 2)
    assert [lg["name"] for lg in last["leagues"]] == ["League 0"] and last["next_page"] is None
    assert api.get("/leagues", data={"page": "4"}).json()["leagues"] == []
    for bad in ("0", "two", "-1"):
        assert "page must be a whole number" in problem(api.get("/leagues", data={"page": bad}), 400)["detail"]


# --- refusals -----------------------------------------------------------------------------------------


def test_without_the_organise_scope_every_organiser_call_is_refused_naming_it(orga, make_user):
    league = new_league(orga)
    entry = leagues.enter_league(league_id=league.pk, user=make_user("ana"))
    api = client_of(orga, scopes=(Scope.READ, Scope.PLAY, Scope.BOT))
    for path, body in [("/leagues", {"name": "X", "starts_at": "2030-01-01T10:00:00+00:00"}),
                       (f"/leagues/{league.pk}/start", None), (f"/leagues/{league.pk}/pause", None),
                       (f"/leagues/{league.pk}/entries/{entry.pk}/approve", None),
                       (f"/leagues/{league.pk}/announcements", {"text": "hello"})]:
        refused = problem(api.post(path, body), 403)
        assert refused["scope"] == "organise" and "organise" in refused["detail"], path
    assert League.objects.count() == 1 and LeagueEntry.objects.get(pk=entry.pk).status == "pending"
    assert not Announcement.objects.exists()
    assert api.get(f"/leagues/{league.pk}").status_code == 200  # reading needs read only


def test_only_the_organiser_runs_a_league_with_the_pages_sentences(orga, make_user):
    league = new_league(orga)
    entry = leagues.enter_league(league_id=league.pk, user=make_user("ana"))
    other = make_user("other")
    other.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    api = client_of(other)
    for path, body in [(f"/leagues/{league.pk}/start", None), (f"/leagues/{league.pk}/entries/{entry.pk}/approve", None),
                       (f"/leagues/{league.pk}/announcements", {"text": "hello"}),
                       (f"/leagues/{league.pk}/extend", {"game": 1, "hours": 2}),
                       (f"/leagues/{league.pk}/remove", {"player": "ana"})]:
        assert problem(api.post(path, body), 403)["detail"] == "Only the organiser of this league can do that.", path
    assert LeagueEntry.objects.get(pk=entry.pk).status == "pending" and not Announcement.objects.exists()

    not_organiser = client_of(make_user("plain"))
    refused = problem(not_organiser.post("/leagues", {"name": "Mine", "starts_at": "2030-01-01T10:00:00+00:00"}), 403)
    assert refused["detail"].startswith("Only organisers can create leagues") and League.objects.count() == 1

    # A private league: not found, even with the organise scope.
    private = new_league(orga, entry=League.Entry.INVITATION)
    assert problem(api.post(f"/leagues/{private.pk}/start"), 404)["detail"] == "There is no such league."

    german = client_of(other, language="de")
    other.language = "de"
    other.save(update_fields=["language"])
    assert problem(german.post(f"/leagues/{league.pk}/start"), 403)["detail"] == "Nur der Veranstalter dieser Liga kann das tun."


@pytest.mark.parametrize("path, body, detail", [
    ("/extend", {"game": 1}, "needs the field hours"),
    ("/extend", {"game": 1, "hours": 0}, "hours must be a whole number from 1 to 336"),
    ("/extend", {"game": 1, "hours": "two"}, "hours must be a whole number from 1 to 336"),
    ("/replace", {"player": "ana"}, "needs the field replacement"),
    ("/replace", {"player": "ana", "replacement": "zed"}, "There is no player with the username zed."),
    ("/remove", {"player": "ana", "colour": "red"}, "has no field 'colour'"),
    ("/remove", {"player": "   "}, "player must be a username"),
    ("/announcements", {"text": ""}, "text must be"),
    ("/announcements", {"text": "   "}, "Write something to announce."),
])
def test_a_malformed_body_is_refused_with_a_readable_detail(orga, make_user, path, body, detail):
    league, game = running(orga, make_user)
    before = (Game.objects.get(pk=game.pk).deadline_at, list(game.seats.values_list("user", "ai_level")))
    refused = problem(client_of(orga).post(f"/leagues/{league.pk}{path}", body), 400)
    assert detail in refused["detail"]
    assert (Game.objects.get(pk=game.pk).deadline_at, list(game.seats.values_list("user", "ai_level"))) == before
    assert not Announcement.objects.exists()


def test_a_body_that_is_not_json_and_a_bad_new_league(orga):
    api = client_of(orga)
    assert "JSON object" in problem(api.post("/leagues", raw="{name"), 400)["detail"]
    assert "starts_at" in problem(api.post("/leagues", {"name": "X", "starts_at": "next tuesday"}), 400)["detail"]
    assert "round_hours must be" in problem(api.post("/leagues", {"name": "X", "starts_at": "2030-01-01T10:00:00Z",
                                                                  "round_hours": 0}), 400)["detail"]
    assert not League.objects.exists()


def test_a_state_the_page_refuses_is_refused_with_its_status(orga, make_user):
    league = new_league(orga)
    api = client_of(orga)
    entry = leagues.enter_league(league_id=league.pk, user=make_user("ana"))
    alone = problem(api.post(f"/leagues/{league.pk}/start"), 400)  # as the page: one approved player is too few
    assert alone["detail"] == "A season needs at least two approved players."
    assert problem(api.post(f"/leagues/{league.pk}/pause"), 409)["detail"] == "Only a running season can be paused."
    assert problem(api.post(f"/leagues/{league.pk}/resume"), 409)["detail"] == "This league is not paused."
    api.post(f"/leagues/{league.pk}/entries/{entry.pk}/approve")
    again = problem(api.post(f"/leagues/{league.pk}/entries/{entry.pk}/decline"), 409)
    assert "Only entries waiting for approval" in again["detail"]
    assert LeagueEntry.objects.get(pk=entry.pk).status == "approved"
    assert problem(api.post(f"/leagues/{league.pk}/entries/999999/approve"), 404)["detail"] == (
        "There is no such entry in this league.")

    leagues.enter_league(league_id=league.pk, user=make_user("bo"))
    late = leagues.enter_league(league_id=league.pk, user=make_user("cy"))
    assert api.post(f"/leagues/{league.pk}/entries/{LeagueEntry.objects.get(league=league, user__username='bo').pk}/approve").status_code == 200
    assert api.post(f"/leagues/{league.pk}/start").status_code == 200
    assert problem(api.post(f"/leagues/{league.pk}/start"), 409)["detail"] == "This league's season has already started."
    assert problem(api.post(f"/leagues/{league.pk}/entries/{late.pk}/approve"), 409)
    assert league.games.count() == 1 and LeagueEntry.objects.get(pk=late.pk).status == "pending"

    # Only a player of the season is replaced (the page's sentence), and a game of another league is not extended.
    not_playing = problem(api.post(f"/leagues/{league.pk}/replace", {"player": "cy", "replacement": "ana"}), 400)
    assert not_playing["detail"] == ("cy is not a player of this season: only a player of the season can be replaced "
                                     "or removed.")
    other, other_game = running(orga, make_user, names=("dee", "eve"))
    assert problem(api.post(f"/leagues/{league.pk}/extend", {"game": other_game.pk, "hours": 3}), 404)["detail"] == (
        "That game is not in this league.")
    assert problem(api.get(f"/leagues/{league.pk}/seasons/2"), 404)["detail"].startswith("This league has no season 2")
    assert problem(api.get("/leagues/999999"), 404)["detail"] == "There is no such league."

    adjudication.end_game(game_id=league.games.get().pk, by_user=make_user("root", is_staff=True), reason="x",
                          scores=[1, 2])
    services.game_finished(game_id=league.games.get().pk)
    over = problem(api.post(f"/leagues/{league.pk}/remove", {"player": "ana"}), 400)
    assert over["detail"] == "The season is over: nobody can be replaced or removed now."
    extend = problem(api.post(f"/leagues/{league.pk}/extend", {"game": league.games.get().pk, "hours": 3}), 409)
    assert extend["detail"] == "Only a running round's deadline can be extended."


def test_organiser_calls_count_against_the_tokens_action_limit(orga, make_user):
    league = new_league(orga)
    api = client_of(orga)
    with override_settings(API_RATE_LIMITS={"move": (2, 60)}):
        assert api.post(f"/leagues/{league.pk}/announcements", {"text": "one"}).status_code == 201
        assert api.post(f"/leagues/{league.pk}/announcements", {"text": "two"}).status_code == 201
        refused = api.post(f"/leagues/{league.pk}/announcements", {"text": "three"})
    assert problem(refused, 429) and int(refused["Retry-After"]) > 0
    assert Announcement.objects.count() == 2


def test_no_token_is_401():
    answer = ApiClient().get("/leagues")
    assert problem(answer, 401) and answer["WWW-Authenticate"].startswith("Bearer")


def test_the_document_describes_the_league_operations():
    answer = Client().get("/api/v1/openapi.json")
    document = answer.json()
    paths = document["paths"]
    assert paths["/leagues"]["post"]["x-scope"] == "organise" and paths["/leagues"]["get"]["x-scope"] == "read"
    assert paths["/leagues/{id}/entries/{entry}/approve"]["post"]["x-scope"] == "organise"
    assert paths["/leagues/{id}/standings.csv"]["get"]["responses"]["200"]["content"] == {
        "text/csv": {"schema": {"type": "string", "description": "CSV, a header row first"}}}
    extend = paths["/leagues/{id}/extend"]["post"]
    assert extend["requestBody"]["content"]["application/json"]["schema"]["required"] == ["game", "hours"]
    assert {"403", "404", "409"} <= set(extend["responses"])
    season = paths["/leagues/{id}/seasons/{number}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert season["schema"] == {"$ref": "#/components/schemas/Season"}
    body = paths["/leagues"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["name", "starts_at"] and body["properties"]["round_hours"] == {
        "type": "integer", "minimum": 1, "maximum": 336, "default": 72}
    for name in ("League", "LeaguePage", "Season", "Standings", "StandingRow", "Entries", "Entry", "Announcement"):
        assert name in document["components"]["schemas"]


def test_a_running_seasons_answers_and_exports_never_show_an_open_rounds_placements(orga, make_user):
    from tests.support.factories import hextension_place

    league, game = running(orga, make_user)
    ana, bo = (type(orga).objects.get(username=name) for name in ("ana", "bo"))
    placed = hextension_place(game, ana, 0)  # bo has not placed: the round stays open
    readers = {"bo": client_of(bo, scopes=(Scope.READ,)), "stranger": client_of(make_user("stranger"), scopes=(Scope.READ,)),
               "orga": client_of(orga)}

    def seen(client) -> str:
        return "\n".join(client.get(f"/leagues/{league.pk}{path}").content.decode()
                         for path in ("", "/seasons/1", "/entries", "/standings.csv", "/boards.csv"))

    def ana_rows(client) -> set[tuple[str, str]]:
        rows = csv_rows(client.get(f"/leagues/{league.pk}/boards.csv").content.decode())[1:]
        return {(cell, tile) for _game, player, cell, tile in rows if player == "ana"}

    for name, client in readers.items():
        assert ana_rows(client) == set(), name
        text = seen(client)
        assert not any(f'"{tile}": "{cell}"' in text or f'"{cell}": "{tile}"' in text for tile, cell in placed.items())
    hextension_place(game, bo, 1)  # the round closes: its boards are everyone's to see (the positive control)
    assert ana_rows(readers["stranger"]) == {(cell, tile) for tile, cell in placed.items()}
