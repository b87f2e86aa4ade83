"""Forms of the /plans page. They only collect text; the services parse and validate it (one set of rules)."""

from django import forms

from assets import categories
from plans.models import MonthlyPlan, PlanEntry
from zeus.errors import ZeusError


class PlanForm(forms.Form):
    month = forms.CharField(max_length=7, help_text="YYYY-MM")
    expected_income = forms.CharField(max_length=64, help_text="e.g. 25tr, 25,000,000 or 4000")
    lifestyle_mode = forms.ChoiceField(choices=MonthlyPlan.Mode.choices, initial=MonthlyPlan.Mode.BALANCED)
    primary_goal = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    reminder_time = forms.CharField(max_length=5, required=False, initial="20:00", help_text="HH:MM, your time")

    def __init__(self, *args, goals=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["primary_goal"].choices = [("", "No primary goal")] + [(g.id, g.name) for g in goals]


class FixedExpenseForm(forms.Form):
    name = forms.CharField(max_length=100, required=False)
    amount = forms.CharField(max_length=64, required=False)
    category = forms.ChoiceField(choices=categories.EXPENSE_CHOICES, initial="housing")


FixedExpenseFormSet = forms.formset_factory(FixedExpenseForm, extra=3, max_num=20)


class EntryForm(forms.Form):
    kind = forms.ChoiceField(choices=PlanEntry.Kind.choices)
    amount = forms.CharField(max_length=64)
    note = forms.CharField(max_length=200, required=False)


def add_service_error(form: forms.Form, exc: ZeusError, *, fields_map: dict | None = None) -> None:
    """Shows a service error on the form: on the field it names when the form has it, else on the form."""
    placed = False
    for name, messages in (exc.fields or {}).items():
        target = (fields_map or {}).get(name, name)
        if target in form.fields:
            for message in messages if isinstance(messages, list) else [messages]:
                form.add_error(target, str(message))
            placed = True
    if not placed:
        form.add_error(None, exc.message)
