"""What the account tests share: a link read out of a real mail, a real TOTP code, a real sign-in."""

import base64
import hashlib
import hmac
import re
import struct
import time

from tests import factories

LINK = re.compile(r"https?://testserver(/accounts/[^\s]+)")


def mail_body(message) -> str:
    part = message.get_body(preferencelist=("plain",))
    return part.get_content()


def link_in(message) -> str:
    """The path of the first /accounts/ link in the mail's text (what the reader would click)."""
    match = LINK.search(mail_body(message))
    assert match, mail_body(message)
    return match.group(1)


def totp(secret: str, *, at: float | None = None, digits: int = 6, period: int = 30) -> str:
    """RFC 6238 (HMAC-SHA1, 30 s, 6 digits) computed here, not by allauth, from the base32 secret."""
    counter = int((time.time() if at is None else at) // period)
    key = base64.b32decode(secret, casefold=True)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 10**digits:0{digits}d}"


def sign_in(client, login: str, password: str = factories.PASSWORD, **extra):
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)


SECRET_IN_PAGE = re.compile(
    r'id="authenticator_secret"[^>]*value="([A-Z2-7=]+)"|value="([A-Z2-7=]+)"[^>]*id="authenticator_secret"'
)


def confirm_password(client, path: str, password: str = factories.PASSWORD):
    """Opens `path`, typing the password again first when allauth asks for it (adding a factor does)."""
    page = client.get(path)
    if page.status_code == 302 and page["Location"].startswith("/accounts/reauthenticate/"):
        back = client.post(page["Location"], {"password": password})
        assert back.status_code == 302 and back["Location"] == path, back
        page = client.get(path)
    return page


def activate_totp(client) -> str:
    """Sets up the authenticator app as a person does: the page shows the secret, the app's code confirms it.
    Returns the secret; the client must be signed in."""
    page = confirm_password(client, "/accounts/2fa/totp/activate/")
    assert page.status_code == 200, page
    match = SECRET_IN_PAGE.search(page.content.decode())
    assert match, "the activation page shows the secret"
    secret = match.group(1) or match.group(2)
    response = client.post("/accounts/2fa/totp/activate/", {"code": totp(secret)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return secret
