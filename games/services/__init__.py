"""Use cases of the game platform: the only code that writes games, seats and events.

- ``lifecycle``: opening, joining and starting games;
- ``moves``: the one write path (``append_events``) and everything that goes through it:
  players' moves, undo, AI moves, timeouts;
- ``clocks``: deadlines per turn and phase, pausing and resuming them;
- ``after_game``: reminders, progress e-mails and what follows the end of a game;
- ``ratings``, ``notifications``: site-wide ratings and e-mail;
- ``chat``: a game's chat; ``adjudication``: staff abort a game or decide its result (a
  ``staff`` event in its store).

Row locks are always taken in one order: League, then Game (by id), then Seat
(docs/architecture.md, "Locks").
"""
from games.services.ai_sweep import sweep_owed_ai_moves
from games.services.after_game import game_finished, notify_progress, send_due_reminders
from games.services.clocks import is_correspondence, pause_clock, resume_clock, set_clock
from games.services.lifecycle import (
    cancel_game, create_game, join_game, leave_game, rematch, set_seat, start_game, update_settings,
)
from games.services.moves import (
    Applied, Progress, apply_timeouts, lock_game, play_ai_move, resign_game, schedule_ai_moves, submit_move,
    sweep_deadlines, take_seat_back, undo_last_move,
)

__all__ = [
    "Applied", "Progress", "apply_timeouts", "cancel_game", "create_game", "game_finished", "is_correspondence", "join_game", "leave_game",
    "lock_game", "notify_progress", "pause_clock", "play_ai_move", "rematch", "resign_game", "resume_clock", "schedule_ai_moves",
    "send_due_reminders", "set_clock", "set_seat", "sweep_owed_ai_moves", "start_game", "submit_move", "sweep_deadlines", "take_seat_back", "undo_last_move", "update_settings",
]
