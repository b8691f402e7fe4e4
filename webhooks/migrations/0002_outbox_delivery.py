# Messages become the outbox's deliveries (outbox.models.Delivery): ``state`` is renamed ``status``, whose
# values are the outbox's; ``queued`` gives way to ``queued_until`` (0003 carries the values over, 0004 drops
# it); ``sent_at`` and ``error`` are added.

from django.db import migrations, models

# Labels only (no column changes with them): the outbox's, where they are defined once.
from outbox.models import DeliveryStatus


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0001_initial"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="message", name="webhook_message_due"),
        migrations.RenameField(model_name="message", old_name="state", new_name="status"),
        migrations.AlterField(
            model_name="message",
            name="status",
            field=models.CharField(choices=DeliveryStatus.choices, default="pending", max_length=16),
        ),
        migrations.AddField(
            model_name="message", name="queued_until", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddField(model_name="message", name="sent_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(
            model_name="message", name="error", field=models.CharField(blank=True, default="", max_length=300)
        ),
        migrations.AlterField(
            model_name="message", name="created", field=models.DateTimeField(auto_now_add=True, db_index=True)
        ),
        migrations.AddIndex(
            model_name="message",
            index=models.Index(fields=["status", "next_attempt_at"], name="webhooks_message_due"),
        ),
    ]
