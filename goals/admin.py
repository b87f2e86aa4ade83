"""Goals and budgets in the admin, with the figures the user sees (progress, monthly need, spent this month)
computed by the same selectors as the API."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from goals.debts import admin as debts_admin  # noqa: F401  (registers the debts)
from goals.models import Budget, Goal
from goals.selectors import budget_list, budget_statuses, goal_progress_of
from goals.services import budget_create, budget_update, goal_create, goal_update
from zeus.admin import MoneyInitial, SavedThroughServices, money, money_column, owner_today, service_errors
from zeus.errors import ValidationFailed
from zeus.money import parse_money


class GoalForm(MoneyInitial, forms.ModelForm):
    class Meta:
        model = Goal
        fields = ["user", "name", "kind", "target_amount", "current_amount", "currency", "deadline"]

    def clean(self):
        data = super().clean()
        owner = data.get("user") or getattr(self.instance, "user", None)
        currency = data.get("currency") or self.instance.currency
        with service_errors(self):
            if currency and data.get("target_amount") is not None:
                data["target_amount"] = parse_money(data["target_amount"], currency, field="target_amount")
            if currency and data.get("current_amount") is not None:
                data["current_amount"] = parse_money(
                    data["current_amount"], currency, field="current_amount", allow_zero=True
                )
            deadline = data.get("deadline")
            if owner is not None and deadline and "deadline" in self.changed_data and deadline <= owner_today(owner):
                raise ValidationFailed("The deadline must be in the future.", fields={"deadline": ["In the past."]})
        return data


@admin.register(Goal)
class GoalAdmin(SavedThroughServices, admin.ModelAdmin):
    form = GoalForm
    create = staticmethod(goal_create)
    create_fields = ("user", "name", "kind", "target_amount", "current_amount", "deadline", "currency")
    update = staticmethod(goal_update)
    update_fields = ("name", "kind", "target_amount", "current_amount", "deadline")
    list_display = (
        "name",
        "user",
        "kind",
        "target_display",
        "current_display",
        "progress_pct",
        "monthly_needed",
        "on_track",
        "deadline",
        "status",
    )
    list_filter = ("kind", "status", "currency", "deadline")
    # The owner's profile rides along: progress needs their today, and this keeps the changelist constant.
    list_select_related = ("user__profile",)
    search_fields = ("name", "user__username")
    date_hierarchy = "deadline"
    autocomplete_fields = ("user",)
    readonly_fields = ("status", "started_on", "progress_pct", "monthly_needed", "on_track", "created_at", "updated_at")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "user", "currency"] if obj is not None else fields

    def _progress(self, obj):
        return goal_progress_of(obj, today=owner_today(obj.user))

    target_display = money_column("target_amount", _("target"))
    current_display = money_column("current_amount", _("saved"))

    @admin.display(description=_("progress"))
    def progress_pct(self, obj):
        return self._progress(obj).progress_pct if obj.pk else "—"

    @admin.display(description=_("needed a month"))
    def monthly_needed(self, obj):
        return money(self._progress(obj).monthly_needed, obj.currency) if obj.pk else "—"

    @admin.display(boolean=True, description=_("on track"))
    def on_track(self, obj):
        return self._progress(obj).on_track if obj.pk else None


class BudgetForm(MoneyInitial, forms.ModelForm):
    class Meta:
        model = Budget
        fields = ["user", "category", "amount", "currency"]

    def clean(self):
        data = super().clean()
        owner = data.get("user") or getattr(self.instance, "user", None)
        currency = data.get("currency") or self.instance.currency
        with service_errors(self):
            if currency and data.get("amount") is not None:
                data["amount"] = parse_money(data["amount"], currency)
            category = data.get("category")
            # The owner is read only on the change page, so the model's unique check cannot see it.
            if owner is not None and category:
                taken = budget_list(user=owner).filter(category=category).exclude(pk=self.instance.pk).exists()
                if taken:
                    raise ValidationFailed("Already budgeted.", fields={"category": ["Already budgeted."]})
        return data


@admin.register(Budget)
class BudgetAdmin(SavedThroughServices, admin.ModelAdmin):
    form = BudgetForm
    create = staticmethod(budget_create)
    create_fields = ("user", "category", "amount", "currency")
    update = staticmethod(budget_update)
    update_fields = ("category", "amount")
    list_display = ("category", "user", "amount_display", "updated_at")
    list_filter = ("category", "currency", "updated_at")
    list_select_related = ("user",)
    search_fields = ("category", "user__username")
    autocomplete_fields = ("user",)
    readonly_fields = ("spent_this_month", "remaining_this_month", "created_at", "updated_at")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "user", "currency"] if obj is not None else fields

    amount_display = money_column("amount", _("monthly limit"))

    # Spent and remaining need an aggregate per owner, so they show on the change page, not in the list.
    @admin.display(description=_("spent this month"))
    def spent_this_month(self, obj):
        return money(budget_statuses(user=obj.user, budgets=[obj])[0].spent, obj.currency) if obj.pk else "—"

    @admin.display(description=_("remaining this month"))
    def remaining_this_month(self, obj):
        return money(budget_statuses(user=obj.user, budgets=[obj])[0].remaining, obj.currency) if obj.pk else "—"
