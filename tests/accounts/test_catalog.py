"""allauth ships no Vietnamese: every text of the parts Zeus shows (its account, MFA and session pages, form
labels and errors, messages and mails) has its Vietnamese in locale/vi. allauth's own catalog lists those
texts with where each comes from, so a new allauth version's new text fails here until it is translated."""

from pathlib import Path

import allauth
from babel.messages.pofile import read_po

from tests.zeus.test_i18n_catalogs import vietnamese

ALLAUTH = Path(allauth.__file__).parent
SHOWN = (
    "account/forms.py",
    "account/adapter.py",
    "account/views.py",
    "mfa/",
    "usersessions/",
    "templates/account/",
    "templates/mfa/",
    "templates/usersessions/",
    "templates/allauth/",
)
# Features Zeus does not switch on: sign-in by phone, by a mailed code, sign-up by passkey, social accounts.
NOT_SHOWN = ("phone", "login_code", "_code.html", "signup_by_passkey", "socialaccount")


def _shown(locations) -> bool:
    return any(any(s in path for s in SHOWN) and not any(n in path for n in NOT_SHOWN) for path, _line in locations)


def test_every_allauth_text_zeus_shows_has_its_vietnamese():
    with (ALLAUTH / "locale/fr/LC_MESSAGES/django.po").open("rb") as f:
        theirs = [m for m in read_po(f) if m.id and _shown(m.locations)]
    assert len(theirs) > 200  # the extraction sees allauth's texts
    ours = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in vietnamese().values()}
    missing = []
    for message in theirs:
        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
        entry = ours.get(key)
        strings = (
            entry.string if entry is not None and isinstance(entry.string, tuple) else [getattr(entry, "string", "")]
        )
        if entry is None or not all(strings):
            missing.append(key)
    assert missing == []
