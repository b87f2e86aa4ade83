from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from suggestions.models import RecurringSeries, Suggestion
from zeus.admin import MoneyForm, MoneyShown, money_column


@admin.register(Suggestion)
class SuggestionAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "status", "user", "created_at")
    list_filter = ("kind", "status")
    search_fields = ("title", "body", "dedupe_key", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("dedupe_key", "payload", "created_at", "updated_at")
    date_hierarchy = "created_at"
    actions = ["run_insights"]

    @admin.action(description=_("Run insights for these users now"))
    def run_insights(self, request, queryset):
        # The nightly jobs load with the action that runs them, not with the admin every process registers.
        from suggestions.insights.job import insights_generate

        user_ids = sorted(set(queryset.values_list("user_id", flat=True)))
        created = insights_generate(user_ids=user_ids)
        self.message_user(
            request,
            _("Ran insights for %(users)s user(s): %(created)s new insight(s).")
            % {"users": len(user_ids), "created": created},
            messages.SUCCESS,
        )


@admin.register(RecurringSeries)
class RecurringSeriesAdmin(MoneyShown, admin.ModelAdmin):
    money_fields = ("previous_amount",)
    form = MoneyForm
    list_display = ("merchant", "kind", "amount_display", "interval", "next_on", "status", "user")
    list_filter = ("kind", "interval", "status")
    search_fields = ("merchant", "key", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("key", "occurrences", "previous_amount", "created_at", "updated_at")
    date_hierarchy = "next_on"
    actions = ["detect_now"]
    amount_display = money_column("amount", _("amount"))

    @admin.action(description=_("Detect recurring series for these users now"))
    def detect_now(self, request, queryset):
        from suggestions.recurring.job import recurring_detect  # as run_insights' job, with the action

        user_ids = sorted(set(queryset.values_list("user_id", flat=True)))
        result = recurring_detect(user_ids=user_ids)
        self.message_user(
            request,
            _(
                "Detected %(series)s series for %(users)s user(s): %(created)s new, %(ended)s ended, "
                "%(insights)s new insight(s)."
            )
            % {
                "series": result.series,
                "users": len(user_ids),
                "created": result.created,
                "ended": result.ended,
                "insights": result.insights,
            },
            messages.SUCCESS,
        )
