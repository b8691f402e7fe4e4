"""Mark the players who already have a webhook endpoint as wanting their games' news (``Player.news_wanted``)."""

from django.db import migrations


def mark_listeners(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    Endpoint = apps.get_model("webhooks", "Endpoint")
    users = Endpoint.objects.values("user_id")
    Player.objects.filter(user_id__in=users).update(news_wanted=True)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_news_wanted"),
        ("webhooks", "0005_sealed_secrets"),
    ]

    operations = [migrations.RunPython(mark_listeners, migrations.RunPython.noop)]
