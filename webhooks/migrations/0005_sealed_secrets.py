# Signing secrets encrypted at rest: each endpoint's clear ``secret`` is encrypted into ``sealed_secret`` with
# the first of WEBHOOK_SECRET_KEYS (webhooks/services/secret_box.py), then the clear column goes. Set the keys
# before migrating (unset, they derive from SECRET_KEY). Reversible: the reverse decrypts them back.
# Only ``sealed_secret`` changes in the rows updated, so no deferred foreign-key check is left pending before
# the column is dropped in the same transaction (PostgreSQL).

from django.db import migrations, models


def seal_secrets(apps, schema_editor):
    from webhooks.services.secret_box import seal

    Endpoint = apps.get_model("webhooks", "Endpoint")
    for endpoint in Endpoint.objects.only("pk", "secret").iterator():
        Endpoint.objects.filter(pk=endpoint.pk).update(sealed_secret=seal(endpoint.secret))


def unseal_secrets(apps, schema_editor):
    from webhooks.services.secret_box import unseal

    Endpoint = apps.get_model("webhooks", "Endpoint")
    for endpoint in Endpoint.objects.only("pk", "sealed_secret").iterator():
        Endpoint.objects.filter(pk=endpoint.pk).update(secret=unseal(endpoint.sealed_secret))


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0004_drop_queued"),
    ]

    operations = [
        migrations.AddField(model_name="endpoint", name="sealed_secret", field=models.TextField(default="")),
        migrations.RunPython(seal_secrets, unseal_secrets),
        # A default first, so that the reverse can add the clear column back to existing rows.
        migrations.AlterField(
            model_name="endpoint", name="secret", field=models.CharField(default="", max_length=100)
        ),
        migrations.RemoveField(model_name="endpoint", name="secret"),
        migrations.AlterField(model_name="endpoint", name="sealed_secret", field=models.TextField()),
    ]
