"""The suggestions app's panel on the home page (zeus/panels.py): the recent insights, each into the chat."""

from django.utils.translation import gettext as _

from suggestions.selectors import suggestion_list_active

SHOWN = 5


def insights_panel(request, today) -> dict:
    return {
        "insights": suggestion_list_active(user=request.user, limit=SHOWN),
        "prompt": _("What should I look at in my finances?"),
    }
