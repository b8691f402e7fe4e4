"""Email notifications: a person's address and preferences, turn and finished-game mails, and their delivery.

Layers (pyproject.toml, ``notifications-layers``): ``api``, ``tasks``, ``admin`` and ``views`` above ``services``
(the only writers) above ``selectors`` above ``models``. Games are read through ``games.models`` and
``games.selectors`` only; games never imports this app (the beat sweeper finds what is due).
"""
