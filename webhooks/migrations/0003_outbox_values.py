# The values of 0002's new columns, from the old ones: ``succeeded`` is now ``sent``, and a message that had a
# task queued (``queued``) has it until the sweeper's old grace of 60 s after its due time. Reversible.

from datetime import timedelta

from django.db import migrations
from django.db.models import F

OLD_SWEEP_GRACE = timedelta(seconds=60)


def forwards(apps, schema_editor):
    Message = apps.get_model("webhooks", "Message")
    Message.objects.filter(status="succeeded").update(status="sent")
    Message.objects.filter(queued=True).update(queued_until=F("next_attempt_at") + OLD_SWEEP_GRACE)


def backwards(apps, schema_editor):
    Message = apps.get_model("webhooks", "Message")
    Message.objects.filter(status="sent").update(status="succeeded")
    Message.objects.filter(queued_until__isnull=False).update(queued=True)


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0002_outbox_delivery"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
