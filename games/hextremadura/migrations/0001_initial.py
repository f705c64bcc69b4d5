"""Hextremadura's daily puzzle, moved from the platform app, and its attempts."""

import django.db.models.deletion
import games.models
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model="dailypuzzle").update(app_label="hextremadura")


def move_content_type_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="hextremadura", model="dailypuzzle").update(app_label="games")


def record_attempts(apps, schema_editor):
    """Each daily game so far becomes its player's attempt (it was ``Game.daily``)."""
    Game = apps.get_model("games", "Game")
    DailyAttempt = apps.get_model("hextremadura", "DailyAttempt")
    DailyAttempt.objects.bulk_create(
        DailyAttempt(puzzle_id=puzzle_id, user_id=user_id, game_id=game_id)
        for game_id, puzzle_id, user_id in Game.objects.filter(daily__isnull=False, created_by__isnull=False)
        .values_list("pk", "daily_id", "created_by_id")
    )


def forget_attempts(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for attempt in apps.get_model("hextremadura", "DailyAttempt").objects.all():
        Game.objects.filter(pk=attempt.game_id).update(daily_id=attempt.puzzle_id)


class Migration(migrations.Migration):
    """The daily puzzle moves here from the platform app (its table stays), and a player's
    attempt becomes a row of its own instead of a column of every game."""

    initial = True

    dependencies = [
        ("games", "0005_daily_puzzle_and_undo"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(move_content_type, move_content_type_back),
        migrations.SeparateDatabaseAndState(database_operations=[], state_operations=[
            migrations.CreateModel(
                name='DailyPuzzle',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('date', models.DateField(unique=True)),
                    ('seed', models.BigIntegerField(default=games.models.new_secret_seed, editable=False)),
                    ('par', models.PositiveSmallIntegerField(blank=True, help_text="The solver's score on this shuffle.", null=True)),
                ],
                options={
                    'db_table': 'games_dailypuzzle',
                    'ordering': ['-date'],
                },
            ),
        ]),
        migrations.CreateModel(
            name='DailyAttempt',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='daily_attempt', to='games.game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='daily_attempts', to=settings.AUTH_USER_MODEL)),
                ('puzzle', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='attempts', to='hextremadura.dailypuzzle')),
            ],
            options={
                'ordering': ['puzzle', 'game'],
                'constraints': [models.UniqueConstraint(fields=('puzzle', 'user'), name='one_daily_attempt_each_player')],
            },
        ),
        migrations.RunPython(record_attempts, forget_attempts),
    ]
