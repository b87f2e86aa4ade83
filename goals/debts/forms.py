"""Forms of /debts: shapes and messages in the person's language; the services keep the rules."""

from django import forms
from django.utils.translation import gettext_lazy as _

from goals.debts.models import Debt
from zeus.forms import AmountField, set_currency

DIRECTION_LABELS = {Debt.Direction.I_OWE: _("I owe"), Debt.Direction.OWED_TO_ME: _("Owed to me")}
METHOD_LABELS = {Debt.Method.FLAT: _("Flat"), Debt.Method.REDUCING: _("Reducing balance")}


class DebtForm(forms.Form):
    direction = forms.ChoiceField(label=_("Who owes"), choices=list(DIRECTION_LABELS.items()))
    counterparty = forms.CharField(label=_("Person or lender"), max_length=100)
    principal = AmountField(label=_("Amount"), help_text=_("e.g. 2tr or 2,000,000"))
    opened_on = forms.DateField(label=_("Since"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    interest_rate = forms.DecimalField(
        label=_("Interest, % a year"), required=False, min_value=0, max_value=100, decimal_places=4
    )
    interest_method = forms.ChoiceField(label=_("Interest method"), choices=list(METHOD_LABELS.items()))
    due_on = forms.DateField(label=_("Due on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    installments = forms.IntegerField(label=_("Monthly instalments"), required=False, min_value=1, max_value=600)
    first_due_on = forms.DateField(
        label=_("First instalment on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args, currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        set_currency(self, currency)

    def service_values(self) -> dict:
        d = self.cleaned_data
        return {
            "direction": d["direction"],
            "counterparty": d["counterparty"],
            "principal": d["principal"],
            "opened_on": d.get("opened_on"),
            "interest_rate": d.get("interest_rate") or 0,
            "interest_method": d["interest_method"],
            "due_on": d.get("due_on"),
            "installments": d.get("installments"),
            "first_due_on": d.get("first_due_on"),
            "note": d.get("note") or "",
        }


class PaymentForm(forms.Form):
    amount = AmountField(label=_("Payment"))
    paid_on = forms.DateField(label=_("Paid on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        set_currency(self, currency)
