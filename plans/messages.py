"""The plan services' refusals as the /plans page says them, in the reader's language (the services' own
messages are the API's, in English)."""

from django.utils.translation import gettext as _

from zeus.errors import ZeusError


def refusal_text(exc: ZeusError) -> str:
    texts = {
        "ACTIVE_PLAN_EXISTS": _("There is already an active plan for that month."),
        "PLAN_NOT_DRAFT": _("Only a draft plan can do that."),
        "PLAN_COMPLETED": _("A completed plan cannot change."),
        "MONTH_ENDED": _("That month has already ended."),
        "NOT_FOUND": _("That plan does not exist."),
    }
    return texts.get(exc.code, exc.message)
