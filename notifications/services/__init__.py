"""The services of notifications: the only writers of its tables (see each module)."""

from notifications.services.account import (
    TooManyRequestsError,
    email_confirm,
    email_remove,
    email_set,
    preferences_update,
    unsubscribe,
)
from notifications.services.delivery import mail_deliver
from notifications.services.sweep import finished_mails_make, notifications_sweep, turn_mails_make

__all__ = [
    "TooManyRequestsError",
    "email_confirm",
    "email_remove",
    "email_set",
    "finished_mails_make",
    "mail_deliver",
    "notifications_sweep",
    "preferences_update",
    "turn_mails_make",
    "unsubscribe",
]
