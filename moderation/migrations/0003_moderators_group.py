"""The Moderators group: exactly what moderation needs, so no moderator has to be a superuser.

They read users, games, seats, chat and the moderation tables, act through the moderation
actions (``moderation.moderate_users``) and hide chat messages. They cannot change a user (no
password, permission or group change), nor add, change or delete anything of play.
"""
from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("moderation", "report", "view_report"),
    ("moderation", "report", "moderate_users"),
    ("moderation", "sanction", "view_sanction"),
    ("moderation", "moderationrecord", "view_moderationrecord"),
    ("moderation", "block", "view_block"),
    ("moderation", "flag", "view_flag"),
    ("accounts", "user", "view_user"),
    ("games", "game", "view_game"),
    ("games", "seat", "view_seat"),
    ("games", "chatmessage", "view_chatmessage"),
]


def create_group(apps, schema_editor):
    for app_config in apps.get_app_configs():  # permissions are made after migrations otherwise
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.set([
        Permission.objects.get(content_type__app_label=app, content_type__model=model, codename=codename)
        for app, model, codename in PERMISSIONS
    ])


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_record_append_only"),
        ("accounts", "0001_initial"),
        ("games", "0011_game_rematch"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_group, remove_group)]
