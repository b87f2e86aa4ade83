"""Forms of the /transactions page. They check shapes and say what is wrong in the person's language; the
services keep the rules (amounts, categories that fit the direction, synced rows read only)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from assets import categories, labels
from assets.models import Source, Transaction
from zeus.forms import AmountField, set_currency


def _asset_choices(assets, *, blank) -> list:
    return [("", blank)] + [(str(a.id), a.name) for a in assets]


class TransactionFilterForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    since = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    category = forms.ChoiceField(label=_("Category"), required=False)
    direction = forms.ChoiceField(label=_("Direction"), required=False)
    source = forms.ChoiceField(label=_("Source"), required=False)
    asset = forms.ChoiceField(label=_("Account"), required=False)

    def __init__(self, *args, assets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", _("All categories")), *labels.grouped_category_choices()]
        self.fields["direction"].choices = [("", _("Income and spending")), *list(labels.DIRECTION.items())]
        self.fields["source"].choices = [("", _("All sources")), *list(labels.SOURCE.items())]
        self.fields["asset"].choices = _asset_choices(assets, blank=_("All accounts"))

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end date is before the start date."))
        return data

    def selector_filters(self) -> dict:
        d = self.cleaned_data
        return {
            "text": d.get("q") or "",
            "since": d.get("since"),
            "until": d.get("until"),
            "category": d.get("category") or None,
            "direction": d.get("direction") or None,
            "source": d.get("source") or None,
            "asset_id": d.get("asset") or None,
        }


class TransactionForm(forms.Form):
    occurred_on = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    description = forms.CharField(label=_("Description"), max_length=200, required=False)
    amount = AmountField(label=_("Amount"), help_text=_("e.g. 45k, 1.5tr or 45000"))
    direction = forms.ChoiceField(label=_("Direction"), choices=list(labels.DIRECTION.items()))
    category = forms.ChoiceField(label=_("Category"))
    asset = forms.ChoiceField(label=_("Account"), required=False)

    def __init__(self, *args, assets=(), currency: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if currency:
            set_currency(self, currency)
        self.fields["category"].choices = labels.grouped_category_choices()
        # Only accounts a payment can come from or go to (docs/ledger.md): not a motorbike, not an archived one.
        payable = [a for a in assets if a.source == Source.MANUAL and a.spendable and a.archived_at is None]
        self.fields["asset"].choices = _asset_choices(payable, blank=_("None"))

    def clean(self):
        data = super().clean()
        category, direction = data.get("category"), data.get("direction")
        if category and direction and not categories.fits(category, direction):
            self.add_error(
                "category",
                _("Choose an income category for income.")
                if direction == "income"
                else _("Choose a spending category for spending."),
            )
        return data

    def service_values(self) -> dict:
        d = self.cleaned_data
        return {
            "occurred_on": d["occurred_on"],
            "description": d["description"],
            "amount": d["amount"],
            "direction": d["direction"],
            "category": d["category"],
            "asset_id": d.get("asset") or None,
        }

    @classmethod
    def initial_for(cls, txn: Transaction) -> dict:
        return {
            "occurred_on": txn.occurred_on,
            "description": txn.description,
            "amount": f"{txn.amount.normalize():f}",
            "direction": txn.direction,
            "category": txn.category,
            "asset": str(txn.asset_id or ""),
        }


class CategoryForm(forms.Form):
    category = forms.ChoiceField(label=_("Category"))

    def __init__(self, *args, direction: str, **kwargs):
        super().__init__(*args, **kwargs)
        codes = categories.INCOME if direction == "income" else categories.EXPENSE
        self.fields["category"].choices = labels.category_choices(codes)
