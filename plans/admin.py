from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from plans import jobs, services
from plans.models import (
    FixedExpense,
    IdempotencyRecord,
    MonthlyPlan,
    PlanEntry,
    PlanRevision,
    Rebalance,
    ReminderLog,
)
from zeus.admin import MoneyForm, MoneyShown, RecordInline, money, money_column
from zeus.errors import ZeusError


class PlanMoneyForm(MoneyForm):
    money_currency = "plan__currency"


class FixedExpenseInline(admin.TabularInline):
    model = FixedExpense
    form = PlanMoneyForm
    extra = 0


class PlanEntryInline(admin.TabularInline):
    model = PlanEntry
    form = PlanMoneyForm
    extra = 0
    readonly_fields = ["created_at"]


class RebalanceInline(MoneyShown, RecordInline):
    money_fields = ("amount",)
    money_currency = "plan__currency"
    model = Rebalance
    readonly_fields = ["kind", "warning_state", "amount", "before", "after", "accepted_by", "created_at"]
    fk_name = "plan"


class PlanRevisionInline(RecordInline):
    model = PlanRevision
    readonly_fields = ["changed_by", "before", "after", "created_at"]


@admin.register(MonthlyPlan)
class MonthlyPlanAdmin(admin.ModelAdmin):
    form = MoneyForm
    list_display = ["id", "user", "month", "status", "lifestyle_mode", "income_display", "safe_display"]
    list_filter = ["status", "lifestyle_mode", "currency", "reminders_enabled", "month"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user", "primary_goal"]
    readonly_fields = ["activated_on", "completed_at", "summary", "created_at", "updated_at"]
    date_hierarchy = "month"
    inlines = [FixedExpenseInline, PlanEntryInline, RebalanceInline, PlanRevisionInline]
    actions = ["run_plan_jobs_for_users", "accept_rebalance"]
    income_display = money_column("expected_income", _("expected income"))
    safe_display = money_column("alloc_safe", _("alloc safe"))

    @admin.action(description=_("Run plan jobs for these plans' users"))
    def run_plan_jobs_for_users(self, request, queryset):
        user_ids = set(queryset.values_list("user_id", flat=True))
        result = jobs.run_plan_jobs(now=timezone.now(), user_ids=user_ids)
        self.message_user(
            request,
            _("Plan jobs ran for %(users)s user(s): %(summaries)s plan(s) finalized, %(reminders)s reminder(s) sent.")
            % {"users": len(user_ids), "summaries": result.summaries, "reminders": result.reminders},
        )

    @admin.action(description=_("Accept the current rebalance recommendation"))
    def accept_rebalance(self, request, queryset):
        for plan in queryset.select_related("user"):
            try:
                rebalance = services.plan_rebalance(user=plan.user, plan_id=plan.id, accepted_by=request.user)
            except ZeusError as exc:
                self.message_user(
                    request,
                    _("Plan %(plan)s (%(user)s): %(error)s")
                    % {"plan": plan.id, "user": plan.user, "error": exc.message},
                    level=messages.WARNING,
                )
            else:
                self.message_user(
                    request,
                    _("Plan %(plan)s (%(user)s): accepted %(kind)s of %(amount)s.")
                    % {
                        "plan": plan.id,
                        "user": plan.user,
                        "kind": rebalance.kind,
                        "amount": money(rebalance.amount, plan.currency),
                    },
                )


@admin.register(PlanEntry)
class PlanEntryAdmin(admin.ModelAdmin):
    form = PlanMoneyForm
    list_display = ["id", "plan", "amount_display", "logged_on", "created_at"]
    list_filter = ["logged_on"]
    search_fields = ["plan__user__username", "note"]
    list_select_related = ["plan__user"]
    raw_id_fields = ["plan"]
    amount_display = money_column("amount", _("amount"), currency="plan__currency")


@admin.register(Rebalance)
class RebalanceAdmin(admin.ModelAdmin):
    form = PlanMoneyForm
    list_display = ["id", "plan", "kind", "warning_state", "amount_display", "accepted_by", "created_at"]
    list_filter = ["kind", "warning_state"]
    search_fields = ["plan__user__username"]
    list_select_related = ["plan__user", "accepted_by"]
    raw_id_fields = ["plan", "accepted_by"]
    amount_display = money_column("amount", _("amount"), currency="plan__currency")


@admin.register(ReminderLog)
class ReminderLogAdmin(admin.ModelAdmin):
    list_display = ["id", "plan", "local_date", "created_at"]
    list_filter = ["local_date"]
    search_fields = ["plan__user__username"]
    list_select_related = ["plan__user"]
    raw_id_fields = ["plan"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "key", "status_code", "created_at"]
    search_fields = ["user__username", "key"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    # A replayed response is a record, not a setting: editing its body would replay something never sent.
    readonly_fields = ["key", "fingerprint", "status_code", "body", "created_at"]
