"""What people read for the goals' codes, in their language."""

from django.utils.translation import gettext_lazy as _

GOAL_KIND = {
    "house": _("House"),
    "retirement": _("Retirement"),
    "savings": _("Savings"),
    "education": _("Education"),
    "emergency_fund": _("Emergency fund"),
    "other": _("Other"),
}
GOAL_STATUS = {"active": _("Active"), "achieved": _("Achieved")}
