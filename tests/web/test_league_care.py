"""What organisers, their players and visitors meet on the league pages (issue 49): who may be
replaced, a replaced player told on their open page, no rematch of a league game, standings
that say what their percentage is and show the AI's seats, a confirmation before what cannot
be undone, refused input kept beside its field, the right words for a request to join, times in
the viewer's zone, and public leagues readable by anyone."""
from __future__ import annotations

import json
import re
import zoneinfo
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import consumers, live, realtime, selectors
from games.leagues import services as leagues
from games.leagues import standings
from games.leagues.models import League, LeagueEntry
from games.models import Game
from games.services import adjudication

pytestmark = pytest.mark.django_db


def _league(orga, **fields) -> League:
    defaults = dict(name="Spring league", tiles_per_round=2, round_hours=48, season_games=1, entry=League.Entry.APPROVAL,
                    schedule=League.Schedule.PARALLEL, starts_at=timezone.now() + timedelta(days=3))
    return leagues.create_league(organiser=orga, **{**defaults, **fields})


def _entered(league, orga, users, approve=True) -> None:
    for user in users:
        entry = leagues.enter_league(league_id=league.pk, user=user)
        if entry.status == LeagueEntry.Status.PENDING and approve:
            leagues.decide_entry(league_id=league.pk, entry_id=entry.pk, by_user=orga, approve=True)


def _running(orga, make_user, names=("ana", "bo"), waiting=()) -> tuple[League, Game, list]:
    """A started season of ``names``; ``waiting`` asked to join and wait for approval."""
    league = _league(orga)
    users = [make_user(name) for name in names]
    _entered(league, orga, users)
    _entered(league, orga, [make_user(name) for name in waiting], approve=False)
    (game,) = leagues.start_season(league_id=league.pk, by_user=orga)
    return league, game, users


def _regions(frames: list[str]) -> dict[str, str]:
    out = {}
    for frame in frames:
        out.update({region["id"]: region["html"] for region in json.loads(frame)["regions"]})
    return out


def _shown_page(game: Game, user) -> consumers.Page:
    page = consumers.Page()
    assert consumers.catch_up(game.pk, user, page, page_stamp=live.stamp_of(Game.objects.get(pk=game.pk))) == []
    return page


# --- 1. only a player of the season is replaced, by someone who asked to join -----------------------

def test_only_a_player_of_the_season_is_replaced_and_only_by_someone_who_asked_to_join(
        client, orga, make_user, django_capture_on_commit_callbacks):
    league = _league(orga)
    ana, bo, cy, dee, eve = (make_user(name) for name in ("ana", "bo", "cy", "dee", "eve"))
    _entered(league, orga, [ana, bo])
    leagues.enter_league(league_id=league.pk, user=cy)  # waiting for approval
    declined = leagues.enter_league(league_id=league.pk, user=dee)
    leagues.decide_entry(league_id=league.pk, entry_id=declined.pk, by_user=orga, approve=False)
    (game,) = leagues.start_season(league_id=league.pk, by_user=orga)
    client.force_login(orga)
    url = reverse("league_replace", args=[league.pk])

    not_playing = client.post(url, {"player": "dee", "replacement": "eve", "confirm": "1"})
    assert not_playing.status_code == 400
    assert "dee is not a player of this season" in not_playing.content.decode()
    never_asked = client.post(url, {"player": "ana", "replacement": "eve", "confirm": "1"})
    assert never_asked.status_code == 400 and "eve has not asked to join this league" in never_asked.content.decode()
    already = client.post(url, {"player": "ana", "replacement": "bo", "confirm": "1"})
    assert already.status_code == 400 and "bo already plays in this league" in already.content.decode()
    assert LeagueEntry.objects.get(league=league, user=dee).status == LeagueEntry.Status.DECLINED
    assert not LeagueEntry.objects.filter(league=league, user=eve).exists()
    assert game.seats.get(index=0).user == ana

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {"player": "ana", "replacement": "cy", "confirm": "1"})
    assert done.status_code == 302
    assert LeagueEntry.objects.get(league=league, user=cy).status == LeagueEntry.Status.APPROVED
    assert LeagueEntry.objects.get(league=league, user=ana).status == LeagueEntry.Status.REMOVED
    assert game.seats.get(index=0).user == cy
    told = {message.to[0]: message.subject for message in mail.outbox}
    assert "you replace ana" in told[cy.email] and "no longer play" in told[ana.email]


# --- 3. the replaced player's open page loses the form, and says why ---------------------------------

def test_a_replaced_players_open_page_loses_the_placement_form_and_says_why(client, orga, make_user, monkeypatch,
                                                                           django_capture_on_commit_callbacks):
    league, game, (ana, bo) = _running(orga, make_user, waiting=["cy"])
    cy = type(ana).objects.get(username="cy")
    page = _shown_page(game, ana)
    client.force_login(ana)
    assert 'id="hx-form"' in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    announced = []
    monkeypatch.setattr(realtime, "announce_version", lambda game_id, version: announced.append(game_id))

    with django_capture_on_commit_callbacks(execute=True):
        leagues.replace_player(league_id=league.pk, by_user=orga, old_user=ana, new_user=cy)
    assert announced == [game.pk]  # the open pages are told at once
    pushed = _regions(consumers.catch_up(game.pk, ana, page))
    assert 'id="hx-form"' not in pushed["hx-play"]
    assert "You no longer play this game: the league's organiser has handed your seat" in pushed["hx-play"]
    assert page.stamp != live.stamp_of(game)  # a page reconnecting with the old stamp is sent it too
    reloaded = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="hx-form"' not in reloaded and "You no longer play this game" in reloaded
    client.force_login(bo)  # the others see nothing of it
    assert "You no longer play this game" not in client.get(reverse("game_detail", args=[game.pk])).content.decode()


# --- 4. a league game has no rematch --------------------------------------------------------------

def test_a_finished_league_game_offers_no_rematch(client, orga, make_user):
    league, game, (ana, bo) = _running(orga, make_user)
    adjudication.end_game(game_id=game.pk, by_user=make_user("root", is_staff=True), reason="Both left", scores=[10, 5])
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Rematch with the same seats" not in page and reverse("game_rematch", args=[game.pk]) not in page
    refused = client.post(reverse("game_rematch", args=[game.pk]))
    assert refused.status_code == 409 and "A league game has no rematch" in refused.content.decode()
    assert not Game.objects.filter(rematch_of=game).exists()


# --- 5. standings: a legend, and the AI's seats -------------------------------------------------------

def test_standings_say_what_the_percentage_is_and_show_the_ai_seats(client, orga, make_user):
    league, game, (ana, bo, cy) = _running(orga, make_user, ("ana", "bo", "cy"))
    leagues.replace_player(league_id=league.pk, by_user=orga, old_user=cy)  # removed: the AI plays seat 3
    adjudication.end_game(game_id=game.pk, by_user=make_user("root", is_staff=True), reason="Stalled", scores=[100, 50, 50])
    table = standings.league_standings(league)
    assert [(row.name, row.percentage, row.is_ai) for row in table.rows] == [
        ("ana", 100.0, False), ("bo", 25.0, False), ("AI (strong), seat 3", 25.0, True)]
    page = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert "AI (strong), seat 3" in page
    assert "as a share of the most you could have had" in page and "get 25% each" in page
    csv_text = client.get(reverse("league_standings_csv", args=[league.pk])).content.decode()
    assert "AI (strong), seat 3" in csv_text


# --- 6. a confirmation before what cannot be undone ----------------------------------------------------

def _confirm_form(response) -> dict:
    """The hidden fields of a confirmation page's form (its button posts them again)."""
    page = response.content.decode()
    assert response.status_code == 200 and 'name="confirm" value="1"' in page, page[:2000]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))


def test_start_pause_decline_and_remove_ask_first_and_say_what_will_happen(client, orga, make_user):
    league = _league(orga)
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    _entered(league, orga, [ana, bo])
    pending = leagues.enter_league(league_id=league.pk, user=cy)
    client.force_login(orga)

    decline = reverse("league_decide", args=[league.pk, pending.pk])
    asked = client.post(decline, {"decision": "decline"})
    assert "cannot enter this league again" in asked.content.decode()
    pending.refresh_from_db()
    assert pending.status == LeagueEntry.Status.PENDING
    assert client.post(decline, _confirm_form(asked)).status_code == 302
    pending.refresh_from_db()
    assert pending.status == LeagueEntry.Status.DECLINED

    start = reverse("league_start", args=[league.pk])
    asked = client.post(start)
    assert "Entries close" in asked.content.decode() and not league.games.exists()
    assert client.post(start, _confirm_form(asked)).status_code == 302 and league.games.count() == 1

    pause = reverse("league_pause", args=[league.pk])
    asked = client.post(pause, {"paused": "1"})
    assert "clock stops" in asked.content.decode()
    league.refresh_from_db()
    assert league.status == League.Status.RUNNING
    assert client.post(pause, _confirm_form(asked)).status_code == 302
    league.refresh_from_db()
    assert league.status == League.Status.PAUSED
    assert client.post(pause, {"paused": "0"}).status_code == 302  # resuming undoes nothing: no question

    remove = reverse("league_replace", args=[league.pk])
    asked = client.post(remove, {"player": "bo", "replacement": ""})
    assert "The strong AI plays bo&#x27;s seat in 1 unfinished game to its end." in asked.content.decode()
    assert league.games.get().seats.get(index=1).user == bo
    assert client.post(remove, _confirm_form(asked)).status_code == 302
    assert league.games.get().seats.get(index=1).ai_level == leagues.AI_STAND_IN


# --- 7. refused organiser input comes back beside its field ------------------------------------------

def _beside(page: str, message: str, field_id: str) -> bool:
    """The message is shown right before the field: no other control between them."""
    at, field_at = page.find(message), page.find(f'id="{field_id}"')
    if at == -1 or field_at == -1 or at > field_at:
        return False
    return re.search(r"<(input|textarea|select)\b", page[at:page.rfind("<", 0, field_at)]) is None


def test_refused_organiser_input_is_shown_beside_its_field_and_kept(client, orga, make_user):
    league, game, (ana, bo) = _running(orga, make_user)
    client.force_login(orga)

    unknown = client.post(reverse("league_replace", args=[league.pk]), {"player": "nobody", "replacement": ""})
    page = unknown.content.decode()
    assert unknown.status_code == 400 and "That did not work" not in page
    assert _beside(page, "There is no player with the username nobody.", "id_player")
    assert 'value="nobody"' in page and 'id="season-title"' in page  # the organiser's page, what was typed kept

    zero = client.post(reverse("league_extend", args=[league.pk]), {"game": game.pk, "hours": "0"})
    page = zero.content.decode()
    assert zero.status_code == 400 and "That did not work" not in page
    assert _beside(page, "Give a number of hours from 1 to 336.", f"id_hours_{game.pk}")
    assert re.search(rf'name="hours" value="0"[^>]*id="id_hours_{game.pk}"', page)

    empty = client.post(reverse("league_announce", args=[league.pk]), {"text": "   "})
    page = empty.content.decode()
    assert empty.status_code == 400 and "That did not work" not in page
    assert _beside(page, "Write something to announce.", "id_text")

    htmx = client.post(reverse("league_extend", args=[league.pk]), {"game": game.pk, "hours": "0"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 400 and htmx.json() == {"type": "error", "message": "Give a number of hours from 1 to 336."}

    # A refused action, not a field: said in its own section of the organiser's page.
    lonely = _league(orga, name="Too small")
    _entered(lonely, orga, [ana])
    refused = client.post(reverse("league_start", args=[lonely.pk]), {"confirm": "1"})
    page = refused.content.decode()
    assert refused.status_code == 400 and "That did not work" not in page
    season = page[page.index('id="season-title"'):page.index('id="entries-title"')]
    assert "A season needs at least two approved players." in season


# --- 9. the words for a request to join ----------------------------------------------------------------

def test_asking_to_join_an_approval_league_says_it_waits_for_approval(client, orga, make_user):
    league = _league(orga)
    client.force_login(make_user("ana"))
    page = client.post(reverse("league_enter", args=[league.pk]), follow=True).content.decode()
    assert "You have entered the league." not in page
    assert "You have asked to join the league" in page and "Waiting for approval" in page


# --- 12. times in the viewer's zone, with the zone ----------------------------------------------------

def test_times_are_in_the_viewers_zone_with_the_zone_shown(client, orga, make_user):
    league, game, (ana, bo) = _running(orga, make_user)
    leagues.announce(league_id=league.pk, by_user=orga, text="Welcome")
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    ana.timezone = "Europe/Berlin"
    ana.save(update_fields=["timezone"])
    due = timezone.localtime(game.deadline_at, berlin)
    client.force_login(ana)
    page = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert f"{due:%H:%M} {due.tzname()}</time>" in page  # the game's deadline
    announced = timezone.localtime(league.announcements.get().created_at, berlin)
    assert f"{announced:%H:%M} {announced.tzname()}</time>" in page
    assert len(re.findall(r"\d\d:\d\d CES?T</time>", page)) == 3  # the season's start too
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert f"{due:%H:%M} {due.tzname()}</time>" in dashboard  # every page: the list of one's games too

    # A drawing of the status bar is shared by seats alike, never across time zones.
    game = selectors.game_snapshot(game.pk).game
    with timezone.override(berlin):
        in_berlin = live.draw(live.LiveView(game, ana), live.STATUS).html
    with timezone.override(zoneinfo.ZoneInfo("UTC")):
        in_utc = live.draw(live.LiveView(game, bo), live.STATUS).html
    assert f"{due:%H:%M} {due.tzname()}" in in_berlin
    assert f"{timezone.localtime(game.deadline_at, zoneinfo.ZoneInfo('UTC')):%H:%M} UTC" in in_utc


# --- 13. public leagues for anyone, private ones for those in them --------------------------------------

def test_public_leagues_are_read_by_anyone_and_private_ones_by_those_in_them(client, orga, make_user):
    public, game, (ana, bo) = _running(orga, make_user)
    private = _league(orga, name="Friends only", entry=League.Entry.INVITATION)
    leagues.enter_league(league_id=private.pk, user=ana, token=private.invite_token)

    listing = client.get(reverse("league_list"))
    assert listing.status_code == 200
    assert "Spring league" in listing.content.decode() and "Friends only" not in listing.content.decode()
    for name in ("league_detail", "league_standings_csv", "league_boards_csv"):
        assert client.get(reverse(name, args=[public.pk])).status_code == 200, name
        refused = client.get(reverse(name, args=[private.pk]))
        assert refused.status_code == 302 and reverse("account_login") in refused["Location"], name
    assert "Log in to join" not in client.get(reverse("league_detail", args=[public.pk])).content.decode()  # started

    client.force_login(bo)  # signed in, not in the private league
    assert client.get(reverse("league_detail", args=[private.pk])).status_code == 403
    assert client.get(reverse("league_standings_csv", args=[private.pk])).status_code == 403
    assert "Friends only" not in client.get(reverse("league_list")).content.decode()
    client.force_login(ana)
    assert client.get(reverse("league_detail", args=[private.pk])).status_code == 200
    assert "Friends only" in client.get(reverse("league_list")).content.decode()
