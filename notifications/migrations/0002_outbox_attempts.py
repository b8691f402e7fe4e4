# Mails become the outbox's deliveries (outbox.models.Delivery): the status labels are the outbox's, and each
# attempt is recorded as a MailAttempt (outbox.models.DeliveryAttempt).

import django.db.models.deletion
from django.db import migrations, models

# Labels only (no column changes with them): the outbox's, where they are defined once.
from outbox.models import DeliveryStatus


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="mail",
            name="status",
            field=models.CharField(choices=DeliveryStatus.choices, default="pending", max_length=16),
        ),
        migrations.CreateModel(
            name="MailAttempt",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField()),
                ("at", models.DateTimeField()),
                ("duration_ms", models.PositiveIntegerField(default=0)),
                ("error", models.CharField(blank=True, default="", max_length=300)),
                ("succeeded", models.BooleanField(default=False)),
                (
                    "mail",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attempt_rows",
                        to="notifications.mail",
                    ),
                ),
            ],
            options={"ordering": ["-at", "-id"], "abstract": False},
        ),
    ]
