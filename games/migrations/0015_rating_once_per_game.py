"""Ratings per game, step 3: one rating per player and game."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_rating_per_game'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('user', 'kind'), name='rating_once_per_user_and_game'),
        ),
    ]
