"""Forms of the /plans page. They only collect text; the services parse and validate it (one set of rules)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from assets import categories, labels
from plans.models import MonthlyPlan, PlanEntry


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


class EntryForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[(PlanEntry.Kind.DISCRETIONARY, _("Spending")), (PlanEntry.Kind.GOAL, _("Goal contribution"))],
    )
    amount = forms.CharField(label=_("Amount"), max_length=64)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
