import pytest
from django.contrib.auth.models import Group


@pytest.fixture
def moderators_group(db):
    """The group the data migration made (a flush of an earlier transactional test empties
    auth tables: then the migration's own function makes it again, as on a fresh database)."""
    group = Group.objects.filter(name="Moderators").first()
    if group is None:
        from importlib import import_module

        from django.apps import apps

        import_module("moderation.migrations.0003_moderators_group").create_group(apps, None)
        group = Group.objects.get(name="Moderators")
    return group


@pytest.fixture
def moderator(make_user, moderators_group, django_user_model):
    user = make_user("mod", is_staff=True)
    user.groups.add(moderators_group)
    return django_user_model.objects.get(pk=user.pk)  # no cached permissions
