# After 0003 carried its values over to ``queued_until``, the ``queued`` flag goes.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0003_outbox_values"),
    ]

    operations = [
        migrations.RemoveField(model_name="message", name="queued"),
    ]
