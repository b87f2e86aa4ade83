"""The accounts part of the settings (docs/accounts.md), read by base.py; the environment is base's (.env read).

django-allauth: sign in by username or e-mail; an e-mail address on every account, verified by a link sent to
it (signing in does not wait for it: a person who typed the address wrong can still sign in and correct it).
Sign-up and password reset are allauth's; its own rate limits stay on beside django-axes (which counts failed
passwords per account and per address, zeus/lockout.py).
"""

import environ

env = environ.Env()

ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGOUT_REDIRECT_URL = "/accounts/login/"
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Zeus · "
# The scheme of links in account mail: the site's own in production.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = env(
    "ZEUS_HTTP_PROTOCOL", default="http" if env.bool("DJANGO_DEBUG", default=True) else "https"
)
ACCOUNT_ADAPTER = "zeus.accounts.adapter.AccountAdapter"
# Second factors (allauth.mfa at /accounts/2fa/): an authenticator app (TOTP) with recovery codes, and
# passkeys. A passkey can also sign in on its own (no password) from the login page.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_FORMS = {
    "add_webauthn": "zeus.accounts.forms.AddPasskeyForm",
    "edit_webauthn": "zeus.accounts.forms.EditPasskeyForm",
}
MFA_TOTP_ISSUER = "Zeus"
# A code of the period before or after is still taken: a phone's clock a little off, a code typed as it turned.
MFA_TOTP_TOLERANCE = 1
# A passkey's origin must be https:// on this site's host (fido2's check). Only for trying passkeys in
# development over http://localhost: true skips the origin check altogether, so never in production.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = env.bool("ZEUS_WEBAUTHN_INSECURE_ORIGIN", default=False)
# Each sign-in records its session (browser, address, when) for /settings/security. Tracking activity
# would write that row on every request (five queries a page); the sign-in time is enough to tell them apart.
USERSESSIONS_TRACK_ACTIVITY = False
# Staff reach /admin/ only with a second factor set up and passed in this session (zeus/accounts/staff_mfa.py);
# production's default is on.
ZEUS_STAFF_MFA = env.bool("ZEUS_STAFF_MFA", default=False)
