"""Forms of /budgets and /goals: shapes and messages in the person's language; the services keep the rules."""

import datetime as dt

from django import forms
from django.utils.translation import gettext_lazy as _

from assets import categories, labels
from goals import labels as goal_labels
from zeus.forms import AmountField, set_currency


class BudgetForm(forms.Form):
    category = forms.ChoiceField(label=_("Category"))
    amount = AmountField(label=_("Monthly limit"), help_text=_("e.g. 2tr or 2,000,000"))

    def __init__(self, *args, currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        set_currency(self, currency)
        self.fields["category"].choices = [
            (_("Essential"), labels.category_choices(categories.ESSENTIAL)),
            (_("Discretionary"), labels.category_choices(categories.DISCRETIONARY)),
        ]


class GoalForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    kind = forms.ChoiceField(label=_("Kind"), choices=list(goal_labels.GOAL_KIND.items()))
    target_amount = AmountField(label=_("Target"), help_text=_("e.g. 500tr"))
    current_amount = AmountField(label=_("Saved so far"), required=False, allow_zero=True)
    deadline = forms.DateField(label=_("Deadline"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, currency: str, today: dt.date, **kwargs):
        super().__init__(*args, **kwargs)
        set_currency(self, currency)
        self.today = today

    def clean_deadline(self):
        deadline = self.cleaned_data["deadline"]
        if deadline <= self.today:
            raise forms.ValidationError(_("Choose a date after today."), code="past")
        return deadline

    def service_values(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"],
            "kind": d["kind"],
            "target_amount": d["target_amount"],
            "current_amount": d.get("current_amount") or "0",
            "deadline": d["deadline"],
        }


class ContributionForm(forms.Form):
    amount = AmountField(label=_("Add money"))

    def __init__(self, *args, currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        set_currency(self, currency)
