"""The top navigation every page shares, and the unread count on its Inbox link."""

from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

from zeus.selectors import notification_unread_count

NAV_ITEMS = [
    ("home", "/", _("Home")),
    ("chat", "/chat", _("Chat")),
    ("transactions", "/transactions", _("Transactions")),
    ("wallets", "/wallets", _("Wallets & accounts")),
    ("budgets", "/budgets", _("Budgets")),
    ("goals", "/goals", _("Goals")),
    ("debts", "/debts", _("Debts")),
    ("plans", "/plans", _("Plans")),
    ("inbox", "/inbox", _("Inbox")),
    ("settings", "/settings", _("Settings")),
]


def _is_current(path: str, url: str) -> bool:
    if url == "/":
        return path == "/"
    return path == url or path.startswith(url + "/")


def nav(request) -> dict:
    """Template context: `nav.items` and `nav.unread`. The count is read only when a page shows the nav, in one
    query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    path = request.path

    def build():
        return {
            "items": [
                {"key": key, "url": url, "label": label, "current": _is_current(path, url)}
                for key, url, label in NAV_ITEMS
            ],
            "unread": notification_unread_count(user=user),
        }

    return {"nav": SimpleLazyObject(build)}
