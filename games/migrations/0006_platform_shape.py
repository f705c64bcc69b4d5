"""The platform keeps Game, Seat, MoveEvent: leagues and the daily puzzle now live in their
own apps (their tables unchanged), a daily attempt is a row of its own, and a game keeps the
key of its running clock."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_daily_puzzle_and_undo"),
        ("leagues", "0001_initial"),
        ("hextremadura", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="game", name="one_daily_attempt_each"),
        migrations.RemoveField(model_name="game", name="daily"),
        migrations.SeparateDatabaseAndState(database_operations=[], state_operations=[
            migrations.AlterField(
                model_name="game",
                name="league",
                field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                        related_name="games", to="leagues.league"),
            ),
            migrations.DeleteModel(name="Announcement"),
            migrations.DeleteModel(name="LeagueEntry"),
            migrations.DeleteModel(name="League"),
            migrations.DeleteModel(name="DailyPuzzle"),
        ]),
        migrations.AddField(model_name="game", name="clock", field=models.JSONField(blank=True, default=dict)),
    ]
