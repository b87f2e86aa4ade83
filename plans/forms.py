"""Forms of the /plans page. They only collect text; the services parse and validate it (one set of rules)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from assets import categories, labels
from plans.models import EntryKind, MonthlyPlan
from zeus.forms import AmountField, set_currency


class PlanForm(forms.Form):
    month = forms.CharField(label=_("Month"), max_length=7, help_text=_("YYYY-MM"))
    expected_income = forms.CharField(
        label=_("Expected income"), max_length=64, help_text=_("e.g. 25tr, 25,000,000 or 4000")
    )
    lifestyle_mode = forms.ChoiceField(
        label=_("Lifestyle"),
        choices=[
            (MonthlyPlan.Mode.SAVER, _("Saver")),
            (MonthlyPlan.Mode.BALANCED, _("Balanced")),
            (MonthlyPlan.Mode.RELAXED, _("Relaxed")),
        ],
        initial=MonthlyPlan.Mode.BALANCED,
    )
    primary_goal = forms.TypedChoiceField(label=_("Primary goal"), required=False, coerce=int, empty_value=None)
    reminder_time = forms.CharField(
        label=_("Reminder time"), max_length=5, required=False, initial="20:00", help_text=_("HH:MM, your time")
    )

    def __init__(self, *args, goals=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["primary_goal"].choices = [("", _("No primary goal"))] + [(g.id, g.name) for g in goals]


class FixedExpenseForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, required=False)
    amount = forms.CharField(label=_("Amount"), max_length=64, required=False)
    category = forms.ChoiceField(
        label=_("Category"), choices=labels.category_choices(categories.EXPENSE), initial="housing"
    )


FixedExpenseFormSet = forms.formset_factory(FixedExpenseForm, extra=3, max_num=20)


class PlanEditForm(forms.Form):
    """The current plan's inputs (draft or active); the allocations are recomputed on save."""

    expected_income = AmountField(label=_("Expected income"), help_text=_("e.g. 25tr, 25,000,000 or 4000"))
    lifestyle_mode = PlanForm.base_fields["lifestyle_mode"]
    essential_spending = AmountField(
        label=_("Essential spending"),
        required=False,
        allow_zero=True,
        help_text=_("Leave empty to use the lifestyle's share."),
    )
    primary_goal = forms.TypedChoiceField(label=_("Primary goal"), required=False, coerce=int, empty_value=None)
    reminder_time = forms.CharField(label=_("Reminder time"), max_length=5, help_text=_("HH:MM, your time"))
    reminders_enabled = forms.BooleanField(label=_("Daily reminder"), required=False)

    def __init__(self, *args, goals=(), currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        set_currency(self, currency)
        self.fields["primary_goal"].choices = [("", _("No primary goal"))] + [(g.id, g.name) for g in goals]

    @classmethod
    def initial_for(cls, plan: MonthlyPlan) -> dict:
        def text(amount):
            return "" if amount is None else f"{amount.normalize():f}"

        return {
            "expected_income": text(plan.expected_income),
            "lifestyle_mode": plan.lifestyle_mode,
            "essential_spending": text(plan.essential_spending),
            "primary_goal": plan.primary_goal_id,
            "reminder_time": f"{plan.reminder_time:%H:%M}",
            "reminders_enabled": plan.reminders_enabled,
        }


class EntryForm(forms.Form):
    """Progress on the active plan: spending (a row of the ledger, on the account and in the category chosen)
    or a goal contribution (which takes neither)."""

    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[(EntryKind.DISCRETIONARY, _("Spending")), (EntryKind.GOAL, _("Goal contribution"))],
    )
    amount = AmountField(label=_("Amount"))
    category = forms.ChoiceField(label=_("Category"), required=False, initial=categories.DEFAULT_EXPENSE)
    asset = forms.ChoiceField(label=_("Account"), required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args, accounts=(), currency: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if currency:
            set_currency(self, currency)
        self.fields["category"].choices = [
            (_("Essential"), labels.category_choices(categories.ESSENTIAL)),
            (_("Discretionary"), labels.category_choices(categories.DISCRETIONARY)),
        ]
        # With no spending account the row names none; otherwise one of them, the default first.
        self.fields["asset"].choices = [(str(a.id), a.name) for a in accounts] or [("", _("None"))]
        self.fields["asset"].required = bool(accounts)
        self.fields["asset"].initial = str(accounts[0].id) if accounts else ""

    def service_values(self) -> dict:
        d = self.cleaned_data
        values = {"kind": d["kind"], "amount": d["amount"], "note": d["note"]}
        if d["kind"] == EntryKind.DISCRETIONARY:
            values["category"] = d.get("category") or categories.DEFAULT_EXPENSE
            values["asset_id"] = d.get("asset") or None
        return values
