"""Leagues move out of the platform app, keeping their tables."""

import django.db.models.deletion
import games.models
from django.conf import settings
from django.db import migrations, models


MOVED_MODELS = ("league", "leagueentry", "announcement")


def move_content_types(apps, schema_editor):
    """Permissions (``organise_leagues``) and admin history follow the models to this app."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MOVED_MODELS).update(app_label="leagues")


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="leagues", model__in=MOVED_MODELS).update(app_label="games")


class Migration(migrations.Migration):
    """The league models move here from the platform app: their tables stay as they are
    (pinned ``db_table``), only Django's idea of where they live changes."""

    initial = True

    dependencies = [
        ("games", "0005_daily_puzzle_and_undo"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(move_content_types, move_content_types_back),
        migrations.SeparateDatabaseAndState(database_operations=[], state_operations=[
        migrations.CreateModel(
            name='League',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('description', models.TextField(blank=True)),
                ('tiles_per_round', models.PositiveSmallIntegerField(default=2)),
                ('round_hours', models.PositiveIntegerField(default=72, help_text='Hours each round may take.')),
                ('season_games', models.PositiveSmallIntegerField(default=5)),
                ('entry', models.CharField(choices=[('open', 'Open: anyone may join'), ('approval', 'By approval of the organiser'), ('invitation', 'By invitation link only')], default='open', max_length=12)),
                ('schedule', models.CharField(choices=[('sequential', 'One game after another'), ('parallel', 'All games at once')], default='sequential', max_length=12)),
                ('starts_at', models.DateTimeField(help_text='The season starts by itself at this time.')),
                ('status', models.CharField(choices=[('enrolling', 'Taking entries'), ('running', 'Season running'), ('paused', 'Paused'), ('finished', 'Season finished')], db_index=True, default='enrolling', max_length=12)),
                ('invite_token', models.CharField(default=games.models.new_invite_token, editable=False, max_length=32, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('organiser', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='organised_leagues', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'games_league',
                'ordering': ['-starts_at'],
                'permissions': [('organise_leagues', 'Can organise Hextension leagues')],
            },
        ),
        migrations.CreateModel(
            name='Announcement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('text', models.TextField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('author', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='announcements', to='leagues.league')),
            ],
            options={
                'db_table': 'games_announcement',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='LeagueEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('pending', 'Waiting for approval'), ('approved', 'Playing'), ('declined', 'Declined'), ('removed', 'Removed by the organiser')], default='pending', max_length=10)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='leagues.league')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='league_entries', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'games_leagueentry',
                'ordering': ['league', 'created_at'],
                'constraints': [models.UniqueConstraint(fields=('league', 'user'), name='league_entry_once')],
            },
        ),
        ]),
    ]
