"""A credit card's amount due as the REST assets show it (`card_due` on an asset, CONTRACT §9.2)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from assets.cards.selectors import CardDueView, card_dues
from assets.models import Asset
from zeus.api.fields import MoneyField
from zeus.timeutil import user_today

_UNREAD = object()


class CardDueSerializer(serializers.Serializer):
    statement_on = serializers.DateField(source="due.statement_on", help_text="The last statement date.")
    statement_balance = MoneyField(help_text="What was owed on the card at the statement date.")
    repaid = MoneyField(help_text="Money into the card since the statement date (transfers in are repayments).")
    amount_due = MoneyField(help_text="The statement balance less the repayments since: what is due.")
    due_on = serializers.DateField(source="due.due_on", help_text="When the amount due is due.")
    overdue = serializers.BooleanField(source="due.overdue", help_text="Past its due date and not fully repaid.")
    not_yet_billed = MoneyField(help_text="Charges since the statement: billed at the next statement.")
    next_statement_on = serializers.DateField(source="due.next_statement_on")
    next_due_on = serializers.DateField(source="due.next_due_on")


def _cycled(asset: Asset) -> bool:
    return asset.archived_at is None and bool(asset.statement_day and asset.due_day)


def with_card_dues(assets: list[Asset], *, user) -> list[Asset]:
    """A page of the user's assets with their cards' dues read at once (two queries however many cards)."""
    today = user_today(user)
    dues = {view.asset.id: view for view in card_dues([a for a in assets if _cycled(a)], today_of=lambda _: today)}
    for asset in assets:
        asset.card_due_view = dues.get(asset.id)
    return assets


def card_due_data(asset: Asset) -> dict | None:
    view: CardDueView | None = getattr(asset, "card_due_view", _UNREAD)
    if view is _UNREAD:
        found = card_dues([asset], today_of=lambda card: user_today(card.user)) if _cycled(asset) else []
        view = found[0] if found else None
    return None if view is None else CardDueSerializer(view).data


class CardDaysInput(serializers.Serializer):
    statement_day = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=31)
    due_day = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=31)


class CardFields(serializers.Serializer):
    """An asset's credit-card cycle; `card_due` is null unless it is a card with both days."""

    statement_day = serializers.IntegerField(
        allow_null=True, help_text="A credit card's statement day (1-31): the bank bills what is owed that day."
    )
    due_day = serializers.IntegerField(
        allow_null=True, help_text="A credit card's due day (1-31): the statement balance is due the next such day."
    )
    card_due = serializers.SerializerMethodField()

    @extend_schema_field(CardDueSerializer(allow_null=True))
    def get_card_due(self, asset) -> dict | None:
        return card_due_data(asset)
