"""The records of `zeus` itself and of the Django and third-party apps it wires in (registered from
ZeusConfig.ready()). allauth's models are declared too: they count only once their apps are installed."""

from zeus.account_data.registry import Record, register

SECRET = "a secret or a way in: it never leaves the server, and ends the moment erasure is requested"

RECORDS = [
    Record("zeus.Profile", "user"),
    Record("zeus.Notification", "user"),
    # The mail log of the inbox; a restored copy must not look like mail still to send, so it is not restored.
    Record("zeus.MailDelivery", "notification__user", restored=False),
    Record("zeus.AccountExport", "user", exported=False, reason="the exports themselves: an export holds no exports"),
    Record("zeus.ErasureRequest", "user", exported=False, reason="the pending erasure; replaced by an ErasureRecord"),
    Record("zeus.DeviceToken", "user", exported=False, reason=SECRET, credential=True),
    Record(
        "zeus.PushSubscription", "user", exported=False, reason="a browser's push address and keys", credential=True
    ),
    # Exported as the record of what was agreed; not restored: the account that holds the data agrees itself.
    Record("zeus.ModelConsent", "user", restored=False),
    Record("admin.LogEntry", "user", exported=False, reason="a staff member's own audit trail of admin changes"),
    # django-allauth (the accounts work): the addresses are the user's; factors and sessions are ways in.
    # An address belongs to one account at a time: the new account verifies its own.
    Record("account.EmailAddress", "user", restored=False),
    Record("account.EmailConfirmation", "email_address__user", exported=False, reason=SECRET),
    # Not ended at the lock: a user with a second factor signs in with it to cancel.
    Record("mfa.Authenticator", "user", exported=False, reason=SECRET),
    Record("usersessions.UserSession", "user", exported=False, reason=SECRET, credential=True),
    Record("socialaccount.SocialAccount", "user", exported=False, reason=SECRET, credential=True),
    Record("socialaccount.SocialToken", "account__user", exported=False, reason=SECRET, credential=True),
]


def register_all() -> None:
    for record in RECORDS:
        register(record)
