"""The outbox: one way to send every outgoing message (the transactional-outbox pattern).

A message to send is a row (a ``Delivery``) written in the transaction of the change it tells about; a Celery
task sent after the commit makes its attempts, each claimed, recorded and retried on the channel's schedule,
and a sweeper recovers what a lost task was for. Webhooks (``webhooks``) and mails (``notifications``) are its
two channels (``outbox.channels.Channel``); ``outbox.broker`` is how every app sends a task after its commit.

Layers (pyproject.toml, ``outbox-layers``): ``services`` above ``selectors`` and ``channels`` above ``models``
and ``broker``. The outbox knows no channel: it never imports games, players, webhooks or notifications.
"""
