"""Moderation use cases: the only code that writes reports, sanctions, blocks and records.

Players report and block. Moderators (``moderation.moderate_users``) act, one function per
action; every action writes one ``ModerationRecord`` (who, when, what, why, on whom) in the
same transaction, and after commit e-mails the user it concerns. Acting on a report closes it
and tells its reporter the outcome (not the details).

A moderator acts on ordinary users only. Whatever concerns a staff account (a staff member or
a superuser: a sanction, a warning, a rename, their chat message, a report or flag about them,
lifting their sanction) needs a superuser (``staff_refusal``); the check runs before an action
and again where its record is written, so no action escapes it.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import User
from games import ratelimit
from games.errors import BadMove, GameError, GameNotActive, GameNotFound, NotYourSeat, RateLimited
from games.models import ChatMessage, Game, Seat
from games.services import adjudication, chat, lifecycle, notifications
from games.services.moves import _seats_changed, lock_game
from games.sites import get_site
from moderation import sanctions
from moderation.models import Block, Flag, ModerationRecord, Report, Sanction

PERMISSION = "moderation.moderate_users"
MAX_REPORT_CHARS = 1000
REPORT_RATE = (5, 3600)  # reports per reporter, per seconds
MAX_DAYS = 3650
# Play bans for stalling grow with each earlier one (Lichess-style): 1, 3, 7, 14, then 30 days.
STALLING_BAN_DAYS = (1, 3, 7, 14, 30)
Action = ModerationRecord.Action


def can_moderate(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.is_staff and user.has_perm(PERMISSION))


def _moderator(actor) -> None:
    if not can_moderate(actor):
        raise NotYourSeat(_("Only moderators can do that."))


def staff_refusal(actor, user) -> str | None:
    """Why ``actor`` may not act on ``user``, or None: staff accounts are for superusers."""
    if user is None or actor is None or getattr(actor, "is_superuser", False):
        return None
    if user.is_staff or user.is_superuser:
        return (_("%(name)s is a staff account: only a superuser can act on a staff account. "
                  "Moderators act on ordinary users only.") % {"name": user.public_name})
    return None


def _may_act_on(actor, user) -> None:
    refusal = staff_refusal(actor, user)
    if refusal:
        raise NotYourSeat(refusal)


def _reason(reason: str) -> str:
    reason = chat.clean_text(reason or "")
    if not reason:
        raise BadMove(_("Give the reason for this action."))
    return reason[:2000]


def _days(days) -> int:
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise BadMove(_("Give the number of days as a whole number from 1 to %(max)s.") % {"max": MAX_DAYS})
    return days


# --- players: reports and blocks -----------------------------------------------------------


def file_report(*, reporter, target, reason: str, text: str = "", game: Game | None = None,
                chat_message: ChatMessage | None = None) -> Report:
    """A player reports another. One open report per reporter, target and reason; rate limited."""
    if reporter is None or not reporter.is_authenticated:
        raise NotYourSeat(_("Log in to report a player."))
    if target is None or not target.is_active:
        raise GameNotFound(_("There is no such player."))
    if target.pk == reporter.pk:
        raise BadMove(_("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise BadMove(_("Choose a reason among those listed."))
    text = chat.clean_text(text)
    if len(text) > MAX_REPORT_CHARS:
        raise BadMove(_("A report has at most %(max)s characters; this one has %(count)s.")
                      % {"max": MAX_REPORT_CHARS, "count": len(text)})
    if chat_message is not None:
        if chat_message.author_id != target.pk:
            raise BadMove(_("That message was not written by this player."))
        game = chat_message.game
    limit, window = REPORT_RATE
    if not ratelimit.hit("report", str(reporter.pk), limit, window):
        raise RateLimited(_("You have sent many reports in a short time; wait a while before the next."),
                          retry_after=window)
    already = GameNotActive(_("You have already reported %(name)s for this reason; staff will look at it.")
                            % {"name": target.public_name})
    if Report.objects.filter(reporter=reporter, target=target, reason=reason, status=Report.Status.OPEN).exists():
        raise already
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=reporter, target=target, reason=reason, text=text, game=game,
                                         chat_message=chat_message)
    except IntegrityError:  # the same report sent twice at once: the constraint keeps one
        raise already from None


def block(*, blocker, blocked) -> Block:
    if blocked.pk == blocker.pk:
        raise BadMove(_("You cannot block yourself."))
    return Block.objects.get_or_create(blocker=blocker, blocked=blocked)[0]


def unblock(*, blocker, blocked) -> None:
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


# --- staff: one function per action ---------------------------------------------------------


def _record(actor, action: str, reason: str, *, target=None, report=None, game=None, chat_message=None,
            sanction=None, **details) -> ModerationRecord:
    _may_act_on(actor, target)  # every action is recorded here: none acts on staff without a superuser
    return ModerationRecord.objects.create(actor=actor, action=action, reason=reason, target_user=target,
                                           report=report, game=game, chat_message=chat_message,
                                           sanction=sanction, details=details)


def _report(report_id: int | None, target=None) -> Report | None:
    """An open report, locked, that the action answers (None: an action from a user's page)."""
    if report_id is None:
        return None
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise GameNotFound(_("There is no such report."))
    if report.status != Report.Status.OPEN:
        raise GameNotActive(_("This report is already closed."))
    if target is not None and report.target_id != target.pk:
        raise BadMove(_("This report is about another player."))
    return report


def _close_report(report: Report | None, actor, outcome: str) -> None:
    if report is None:
        return
    report.status, report.outcome = Report.Status.CLOSED, outcome
    report.closed_at, report.closed_by = timezone.now(), actor
    report.save(update_fields=["status", "outcome", "closed_at", "closed_by"])
    transaction.on_commit(lambda: _tell_reporter(report))


# A report's reason inside a sentence ("… your report about Bo (abuse in chat)").
REASON_WORDS = {
    Report.Reason.CHAT_ABUSE: gettext_lazy("abuse in chat"),
    Report.Reason.CHEATING: gettext_lazy("cheating or multiple accounts"),
    Report.Reason.STALLING: gettext_lazy("stalling or leaving games"),
    Report.Reason.OFFENSIVE_NAME: gettext_lazy("offensive name"),
    Report.Reason.OTHER: pgettext_lazy("a report's reason, inside a sentence", "other"),
}
# A sanction inside a sentence ("The moderators have lifted this sanction: muted in chat.").
SANCTION_WORDS = {
    Sanction.Kind.MUTE: gettext_lazy("muted in chat"),
    Sanction.Kind.PLAY_BAN: gettext_lazy("banned from play"),
    Sanction.Kind.SUSPENSION: gettext_lazy("account suspended"),
    Sanction.Kind.CLOSURE: gettext_lazy("account closed"),
}


def _tell_reporter(report: Report) -> None:
    reporter = report.reporter
    with notifications.in_language_of(reporter):
        outcome = (_("Staff have looked into it and taken action.") if report.outcome == Report.Outcome.ACTIONED
                   else _("Staff have looked into it and found nothing that calls for action."))
        reason = REASON_WORDS.get(report.reason) or report.get_reason_display().lower()
        thanks = _("Thank you for your report about %(name)s (%(reason)s).") % {
            "name": report.target.public_name, "reason": reason}
        # Translators: the subject of an e-mail, after "hexsite: ".
        subject = _("Your report has been closed")
        body = f"{thanks}\n{outcome}\n\n" + _("Your reports: %(url)s") % {"url": _url("my_reports")} + "\n"
    _mail(reporter, subject, body)


def _url(name: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse(name)


def _mail(user: User, subject: str, body: str) -> None:
    notifications.account_notice(user, subject, body)


def _notify(user: User, subject: str, body: str) -> None:
    """E-mail ``user`` after commit; the caller writes ``subject`` and ``body`` inside
    ``notifications.in_language_of(user)``, in the user's language."""
    transaction.on_commit(lambda: _mail(user, subject, body))


def _reason_line(reason: str) -> str:
    return _("Reason: %(reason)s") % {"reason": reason}


def dismiss(*, actor, report_id: int, reason: str) -> Report:
    _moderator(actor)
    reason = _reason(reason)
    with transaction.atomic():
        report = _report(report_id)
        _record(actor, Action.DISMISS, reason, target=report.target, report=report, game=report.game,
                chat_message=report.chat_message)
        _close_report(report, actor, Report.Outcome.DISMISSED)
    return report


def warn(*, actor, user: User, reason: str, report_id: int | None = None) -> ModerationRecord:
    _moderator(actor)
    _may_act_on(actor, user)
    reason = _reason(reason)
    with transaction.atomic():
        report = _report(report_id, user)
        record = _record(actor, Action.WARN, reason, target=user, report=report)
        _close_report(report, actor, Report.Outcome.ACTIONED)
        with notifications.in_language_of(user):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(user, _("a warning from the moderators"),
                    _("The moderators of hexsite warn you.") + f"\n{_reason_line(reason)}\n\n"
                    + _("Please keep to the site's rules; a further breach may lead to a mute or a ban.") + "\n")
    return record


def _sanction(actor, user: User, kind: str, action: str, reason: str, days: int | None, report_id,
              **details) -> Sanction:
    report = _report(report_id, user)
    ends_at = timezone.now() + timedelta(days=days) if days else None
    sanction = Sanction.objects.create(user=user, kind=kind, reason=reason, ends_at=ends_at, created_by=actor,
                                       report=report)
    _record(actor, action, reason, target=user, report=report, sanction=sanction,
            **({"days": days} if days else {}), **details)
    _close_report(report, actor, Report.Outcome.ACTIONED)
    return sanction


def mute(*, actor, user: User, days: int, reason: str, report_id: int | None = None) -> Sanction:
    """No chat for ``days`` days; a post is refused with until when and why."""
    _moderator(actor)
    _may_act_on(actor, user)
    reason, days = _reason(reason), _days(days)
    with transaction.atomic():
        sanction = _sanction(actor, user, Sanction.Kind.MUTE, Action.MUTE, reason, days, report_id)
        with notifications.in_language_of(user):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(user, _("you are muted in chat"),
                    sanctions.until(sanction, _("The moderators have muted you in game chat until %(when)s."),
                                    _("The moderators have muted you in game chat until further notice."))
                    + f"\n{_reason_line(reason)}\n")
    return sanction


def default_ban_days(user: User) -> int:
    """The escalating default of a play ban: longer after each earlier one."""
    earlier = Sanction.objects.filter(user=user, kind=Sanction.Kind.PLAY_BAN).count()
    return STALLING_BAN_DAYS[min(earlier, len(STALLING_BAN_DAYS) - 1)]


def play_ban(*, actor, user: User, reason: str, days: int | None = None, report_id: int | None = None) -> Sanction:
    """No new games or league entries for ``days`` days (default: escalating); games already
    running go on."""
    _moderator(actor)
    _may_act_on(actor, user)
    reason = _reason(reason)
    days = _days(days) if days is not None else default_ban_days(user)
    with transaction.atomic():
        sanction = _sanction(actor, user, Sanction.Kind.PLAY_BAN, Action.PLAY_BAN, reason, days, report_id)
        with notifications.in_language_of(user):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(user, _("you are banned from play"),
                    sanctions.until(sanction,
                                    _("The moderators have banned you from play until %(when)s: you cannot create or "
                                      "join games or enter leagues meanwhile. Games you are playing go on."),
                                    _("The moderators have banned you from play until further notice: you cannot "
                                      "create or join games or enter leagues meanwhile. Games you are playing go on."))
                    + f"\n{_reason_line(reason)}\n")
    return sanction


def suspend(*, actor, user: User, days: int, reason: str, report_id: int | None = None) -> Sanction:
    """The account is locked for ``days`` days; its games go on with the AI in its seats."""
    _moderator(actor)
    _may_act_on(actor, user)
    reason, days = _reason(reason), _days(days)
    if user.is_superuser or user.pk == actor.pk:
        raise NotYourSeat(_("A moderator cannot suspend themselves or a superuser."))
    with transaction.atomic():
        sanction = _sanction(actor, user, Sanction.Kind.SUSPENSION, Action.SUSPEND, reason, days, report_id)
        _deactivate(user)
        with notifications.in_language_of(user):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(user, _("your account is suspended"),
                    sanctions.until(sanction,
                                    _("The moderators have suspended your account until %(when)s. Your running games "
                                      "go on with the AI in your seat."),
                                    _("The moderators have suspended your account until further notice. Your running "
                                      "games go on with the AI in your seat."))
                    + f"\n{_reason_line(reason)}\n")
    _hand_games_to_ai(user)
    return sanction


def close_account(*, actor, user: User, reason: str, report_id: int | None = None) -> Sanction:
    """The account is closed for good; its games go on with the AI in its seats."""
    _moderator(actor)
    _may_act_on(actor, user)
    reason = _reason(reason)
    if user.is_superuser or user.pk == actor.pk:
        raise NotYourSeat(_("A moderator cannot close their own account or a superuser's."))
    with transaction.atomic():
        sanction = _sanction(actor, user, Sanction.Kind.CLOSURE, Action.CLOSE, reason, None, report_id)
        _deactivate(user)
        with notifications.in_language_of(user):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(user, _("your account is closed"),
                    _("The moderators have closed your account. Your running games go on with the AI in your seat.")
                    + f"\n{_reason_line(reason)}\n")
    _hand_games_to_ai(user)
    return sanction


def _deactivate(user: User) -> None:
    User.objects.filter(pk=user.pk).update(is_active=False)
    user.is_active = False


def _hand_games_to_ai(user: User) -> None:
    """Games not started: the user leaves (a host's game is called off). Games in play with
    others: an AI stands in for the seat (the game's stand-in level, else its strongest)."""
    seats = Seat.objects.filter(user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE,
                                                             Game.Status.PAUSED])
    for game_id in sorted(set(seats.values_list("game_id", flat=True))):
        try:
            _leave_or_hand_over(game_id, user)
        except GameError:
            continue  # the game moved on meanwhile (it started, or ended): nothing to hand over


def _leave_or_hand_over(game_id: int, user: User) -> None:
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.OPEN:
        if game.created_by_id == user.pk:
            lifecycle.cancel_game(game_id=game_id, by_user=user)
        else:
            lifecycle.leave_game(game_id=game_id, user=user)
        return
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED) or game.seats.count() < 2:
            return
        site = get_site(game.kind)
        level = site.standin_level or site.engine.ai_levels()[-1]
        if game.seats.select_for_update().filter(user=user, standin_level="").update(standin_level=level):
            _seats_changed(game)


def lift(*, actor, sanction_id: int, reason: str) -> Sanction:
    """End a sanction early; a suspended or closed account opens again."""
    _moderator(actor)
    reason = _reason(reason)
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().filter(pk=sanction_id).first()
        if sanction is None:
            raise GameNotFound(_("There is no such sanction."))
        if not sanction.is_active():
            raise GameNotActive(_("This sanction is no longer in force."))
        sanction.lifted_at = timezone.now()
        sanction.save(update_fields=["lifted_at"])
        _record(actor, Action.LIFT, reason, target=sanction.user, sanction=sanction)
        if sanction.kind in (Sanction.Kind.SUSPENSION, Sanction.Kind.CLOSURE):
            _reactivate_unless_still_locked(sanction.user)
        with notifications.in_language_of(sanction.user):
            words = {"sanction": SANCTION_WORDS.get(sanction.kind) or sanction.get_kind_display().lower()}
            # Translators: the subject of an e-mail, after "hexsite: "; the sanction as in "muted in chat".
            _notify(sanction.user, _("%(sanction)s: lifted") % words,
                    _("The moderators have lifted this sanction: %(sanction)s.") % words + "\n")
    return sanction


def _reactivate_unless_still_locked(user: User) -> None:
    if not any(sanctions.active(user, kind) for kind in (Sanction.Kind.SUSPENSION, Sanction.Kind.CLOSURE)):
        User.objects.filter(pk=user.pk).update(is_active=True)


def reopen_ended_suspensions(now=None) -> int:
    """Beat: accounts whose suspension has run out open again (closed ones stay closed)."""
    now = now or timezone.now()
    ended = Sanction.objects.filter(kind=Sanction.Kind.SUSPENSION, lifted_at__isnull=True, ends_at__lte=now,
                                    user__is_active=False).values_list("user_id", flat=True)
    reopened = 0
    for user in User.objects.filter(pk__in=set(ended)):
        with transaction.atomic():
            _reactivate_unless_still_locked(user)
            reopened += 1
    return reopened


def rename(*, actor, user: User, new_name: str, reason: str, report_id: int | None = None) -> ModerationRecord:
    """Replace an offensive display name (empty: the username shows)."""
    _moderator(actor)
    _may_act_on(actor, user)
    reason = _reason(reason)
    new_name = chat.clean_text(new_name or "")
    if len(new_name) > 40:
        raise BadMove(_("A display name has at most 40 characters."))
    with transaction.atomic():
        report = _report(report_id, user)
        old = User.objects.select_for_update().values_list("display_name", flat=True).get(pk=user.pk)
        User.objects.filter(pk=user.pk).update(display_name=new_name)
        user.display_name = new_name
        record = _record(actor, Action.RENAME, reason, target=user, report=report, old_name=old, new_name=new_name)
        _close_report(report, actor, Report.Outcome.ACTIONED)
        with notifications.in_language_of(user):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(user, _("your display name was changed"),
                    _("The moderators changed your display name from \"%(old)s\" to \"%(new)s\".")
                    % {"old": old, "new": user.public_name} + f"\n{_reason_line(reason)}\n")
    return record


def hide_message(*, actor, message_id: int, reason: str, report_id: int | None = None) -> ChatMessage:
    """Hide a chat message from the players; it stays stored for staff."""
    _moderator(actor)
    reason = _reason(reason)
    with transaction.atomic():
        message = chat.hide_message(message_id=message_id, by_user=actor)
        report = _report(report_id, message.author)
        _record(actor, Action.HIDE_MESSAGE, reason, target=message.author, report=report, game=message.game,
                chat_message=message)
        _close_report(report, actor, Report.Outcome.ACTIONED)
        with notifications.in_language_of(message.author):
            # Translators: the subject of an e-mail, after "hexsite: ".
            _notify(message.author, _("a chat message of yours was hidden"),
                    _("The moderators hid your message in %(game)s: \"%(text)s\"")
                    % {"game": message.game, "text": message.text[:200]} + f"\n{_reason_line(reason)}\n")
    return message


def abort_game(*, actor, game_id: int, reason: str, report_id: int | None = None) -> Game:
    """Call off a game in play: no result, no ratings (a staff event in its store)."""
    _moderator(actor)
    reason = _reason(reason)
    with transaction.atomic():
        report = _report(report_id)
        game = adjudication.abort_game(game_id=game_id, by_user=actor, reason=reason)
        _record(actor, Action.ABORT_GAME, reason, target=report.target if report else None, report=report,
                game=game)
        _close_report(report, actor, Report.Outcome.ACTIONED)
    return game


def end_game(*, actor, game_id: int, scores: list[int], reason: str, report_id: int | None = None) -> Game:
    """End a game in play with the scores staff decide (a staff event in its store)."""
    _moderator(actor)
    reason = _reason(reason)
    with transaction.atomic():
        report = _report(report_id)
        game = adjudication.end_game(game_id=game_id, by_user=actor, reason=reason, scores=scores)
        _record(actor, Action.END_GAME, reason, target=report.target if report else None, report=report,
                game=game, scores=scores, ranks=game.result["ranks"])
        _close_report(report, actor, Report.Outcome.ACTIONED)
    return game


def clear_flag(*, actor, flag_id: int, reason: str) -> Flag:
    _moderator(actor)
    reason = _reason(reason)
    with transaction.atomic():
        flag = Flag.objects.select_for_update().filter(pk=flag_id, cleared_at__isnull=True).first()
        if flag is None:
            raise GameNotActive(_("This flag is already cleared."))
        flag.cleared_at = timezone.now()
        flag.save(update_fields=["cleared_at"])
        _record(actor, Action.FLAG_CLEARED, reason, target=flag.user, kind=flag.kind)
    return flag
