"""Ratings per game, step 1: a rating belongs to a player and a game (``kind``); the next
migration fills the kinds in, the one after makes (player, game) unique."""
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_moderation_staff_event'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='rating',
            name='user',
            field=models.ForeignKey(on_delete=models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='rating',
            name='kind',
            field=models.CharField(default='', max_length=32),
            preserve_default=False,
        ),
    ]
