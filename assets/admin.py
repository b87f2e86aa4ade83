"""The ledger in the admin. Synced rows and linked accounts come from a bank: support staff can read them,
never change them. Manual rows are edited through the services, so the API's rules hold here too."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from assets import categories
from assets.ledger.models import ExchangeRate, ImportBatch, RejectedPair, TransactionSplit, Transfer, UserCategory
from assets.models import (
    Asset,
    BankTextDraft,
    Capture,
    CategoryRule,
    LinkedAccount,
    SepayConnection,
    Source,
    Transaction,
)
from assets.rules.services import rule_create, rule_fields_check, rule_update
from assets.services import (
    asset_card_cycle_clean,
    asset_create,
    asset_update,
    transaction_create,
    transaction_update,
)
from zeus.admin import (
    MoneyInitial,
    MoneyShown,
    SavedThroughServices,
    adopt,
    deleting_with_owner,
    money_column,
    service_errors,
)
from zeus.errors import ValidationFailed
from zeus.money import parse_money


class SyncedReadOnlyMixin:
    """Per object: a synced row is view only (its change page renders read only and refuses a POST)."""

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.source == Source.SYNCED:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.source == Source.SYNCED and not deleting_with_owner(request, self):
            return False
        return super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.source == Source.SYNCED:
            return [field.name for field in self.opts.concrete_fields if not field.primary_key]
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            # The services move neither a row to another owner nor (for assets) to another currency.
            fields += [name for name in self.fixed_on_change if name not in fields]
        return fields


@admin.register(LinkedAccount)
class LinkedAccountAdmin(MoneyShown, admin.ModelAdmin):
    money_fields = ("balance",)
    list_display = ("institution", "name", "masked_number", "user", "balance_display", "last_synced_at")
    list_filter = ("institution", "currency", "last_synced_at")
    list_select_related = ("user",)
    search_fields = ("institution", "name", "masked_number", "user__username")
    date_hierarchy = "last_synced_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return obj is not None and deleting_with_owner(request, self)

    balance_display = money_column("balance", _("balance"))


class AssetForm(MoneyInitial, forms.ModelForm):
    class Meta:
        model = Asset
        fields = ["user", "name", "kind", "balance", "currency", "statement_day", "due_day"]

    def clean(self):
        data = super().clean()
        currency = data.get("currency") or self.instance.currency
        if data.get("balance") is not None and currency:
            with service_errors(self):
                data["balance"] = parse_money(data["balance"], currency, field="balance", allow_zero=True)
        with service_errors(self):
            data["statement_day"], data["due_day"] = asset_card_cycle_clean(
                kind=data.get("kind") or self.instance.kind,
                statement_day=data.get("statement_day"),
                due_day=data.get("due_day"),
            )
        return data


@admin.register(Asset)
class AssetAdmin(MoneyShown, SyncedReadOnlyMixin, SavedThroughServices, admin.ModelAdmin):
    money_fields = ("balance",)
    form = AssetForm
    list_display = ("name", "user", "kind", "balance_display", "source", "linked_account", "updated_at")
    list_filter = ("source", "kind", "currency", "updated_at")
    list_select_related = ("user", "linked_account")
    search_fields = ("name", "user__username", "linked_account__masked_number")
    autocomplete_fields = ("user",)
    readonly_fields = ("source", "linked_account", "created_at", "updated_at")
    fixed_on_change = ("user", "currency")
    create = staticmethod(asset_create)
    create_fields = ("user", "name", "kind", "balance", "currency", "statement_day", "due_day")
    update = staticmethod(asset_update)
    update_fields = ("name", "kind", "balance", "statement_day", "due_day")

    balance_display = money_column("balance", _("balance"))


class TransactionForm(MoneyInitial, forms.ModelForm):
    class Meta:
        model = Transaction
        fields = ["user", "occurred_on", "direction", "category", "amount", "currency", "description", "asset"]

    def clean(self):
        data = super().clean()
        owner = data.get("user") or getattr(self.instance, "user", None)
        currency = data.get("currency")
        direction, category, asset = data.get("direction"), data.get("category"), data.get("asset")
        with service_errors(self):
            if data.get("amount") is not None and currency:
                data["amount"] = parse_money(data["amount"], currency)
            if direction and category and not categories.fits(category, direction):
                raise ValidationFailed(
                    f"{category} is not an {direction} category.",
                    fields={"category": [f"Not an {direction} category."]},
                )
            if asset is not None and owner is not None and asset.user_id != owner.pk:
                raise ValidationFailed("That asset belongs to someone else.", fields={"asset": ["Not this user's."]})
        return data


@admin.register(Transaction)
class TransactionAdmin(MoneyShown, SyncedReadOnlyMixin, admin.ModelAdmin):
    money_fields = ("amount",)
    form = TransactionForm
    list_display = (
        "occurred_on",
        "description",
        "user",
        "amount_display",
        "direction",
        "category",
        "source",
        "asset",
    )
    list_filter = ("source", "direction", "category", "currency", "occurred_on")
    list_select_related = ("user", "asset")
    search_fields = ("description", "external_id", "user__username")
    date_hierarchy = "occurred_on"
    autocomplete_fields = ("user",)
    raw_id_fields = ("asset",)
    readonly_fields = ("source", "external_id", "created_at", "updated_at")
    fixed_on_change = ("user",)

    amount_display = money_column("amount", _("amount"))

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        fields = ("amount", "description", "direction", "category", "occurred_on", "currency")
        values = {name: data[name] for name in fields}
        values["asset_id"] = data["asset"].pk if data.get("asset") else None
        if change:
            changed = {name: value for name, value in values.items() if name.removesuffix("_id") in form.changed_data}
            adopt(obj, transaction_update(user=obj.user, transaction_id=obj.pk, **changed))
        else:
            adopt(obj, transaction_create(user=data["user"], **values))


class CategoryRuleForm(MoneyInitial, forms.ModelForm):
    money_currency = "user__profile__currency"  # a rule's range is in its owner's currency

    class Meta:
        model = CategoryRule
        fields = ["user", "match", "direction", "min_amount", "max_amount", "category", "position"]

    def clean(self):
        data = super().clean()
        owner = data.get("user") or getattr(self.instance, "user", None)
        if owner is not None and data.get("match") and data.get("category"):
            with service_errors(self):
                # The service's checks (category fits the direction, range in order), without writing.
                rule_fields_check(
                    owner,
                    match=data["match"],
                    direction=data.get("direction"),
                    min_amount=data.get("min_amount"),
                    max_amount=data.get("max_amount"),
                    category=data["category"],
                    position=data.get("position"),
                )
        return data


@admin.register(CategoryRule)
class CategoryRuleAdmin(admin.ModelAdmin):
    form = CategoryRuleForm
    list_display = ("match", "category", "direction", "min_display", "max_display", "position", "user")
    list_filter = ("category", "direction")
    list_select_related = ("user__profile",)
    search_fields = ("match", "user__username")
    autocomplete_fields = ("user",)
    ordering = ("user", "position", "id")
    min_display = money_column("min_amount", _("min amount"), currency="user__profile__currency")
    max_display = money_column("max_amount", _("max amount"), currency="user__profile__currency")

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        values = {name: data.get(name) for name in ("match", "direction", "min_amount", "max_amount", "category")}
        values["position"] = data.get("position")
        if change:
            adopt(obj, rule_update(user=obj.user, rule_id=obj.pk, **values))
        else:
            adopt(obj, rule_create(user=data["user"], **values))


class _ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that only their owner's actions write (through the services): staff read them."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return obj is not None and deleting_with_owner(request, self)


@admin.register(SepayConnection)
class SepayConnectionAdmin(_ReadOnlyAdmin):
    list_display = ("name", "user", "auth", "last_delivery_at", "created_at")
    list_filter = ("auth",)
    list_select_related = ("user",)
    search_fields = ("name", "user__username")
    # The URL token and the secret stay out of the admin: either one is half of a delivery's credentials.
    exclude = ("token", "secret_encrypted")


@admin.register(BankTextDraft)
class BankTextDraftAdmin(MoneyShown, _ReadOnlyAdmin):
    money_fields = ("amount",)
    list_display = ("created_at", "user", "bank", "direction", "amount_display", "status", "parsed_by")
    list_filter = ("status", "parsed_by", "bank")
    list_select_related = ("user",)
    search_fields = ("bank", "description", "user__username")
    raw_id_fields = ("asset", "linked_account", "duplicate_of", "transaction", "capture")
    amount_display = money_column("amount", _("amount"))


@admin.register(Capture)
class CaptureAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "user", "kind", "media_type", "size", "status", "read_as")
    list_filter = ("kind", "status", "read_as")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    # The file is its owner's (a receipt, a statement): staff see that it exists, not what it shows.
    exclude = ("file", "name")


# The ledger's own records (docs/ledger.md): written by their owner's actions and the rates job; staff read.


@admin.register(Transfer)
class TransferAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "user", "status", "outgoing", "incoming")
    list_filter = ("status",)
    list_select_related = ("user", "outgoing", "incoming")
    search_fields = ("user__username",)
    raw_id_fields = ("outgoing", "incoming")


@admin.register(RejectedPair)
class RejectedPairAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "user", "outgoing", "incoming")
    list_select_related = ("user", "outgoing", "incoming")
    raw_id_fields = ("outgoing", "incoming")


@admin.register(TransactionSplit)
class TransactionSplitAdmin(MoneyShown, _ReadOnlyAdmin):
    money_fields = ("amount",)
    money_currency = "transaction__currency"
    list_display = ("transaction", "position", "amount_display", "category", "note")
    list_select_related = ("transaction",)
    raw_id_fields = ("transaction", "user_category")
    amount_display = money_column("amount", _("amount"), currency="transaction__currency")


@admin.register(ImportBatch)
class ImportBatchAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "user", "format", "filename", "imported", "skipped")
    list_filter = ("format",)
    list_select_related = ("user",)
    search_fields = ("filename", "user__username")
    raw_id_fields = ("asset",)


@admin.register(UserCategory)
class UserCategoryAdmin(_ReadOnlyAdmin):
    list_display = ("name_vi", "name_en", "kind", "user")
    list_filter = ("kind",)
    list_select_related = ("user",)
    search_fields = ("name_vi", "name_en", "user__username")


@admin.register(ExchangeRate)
class ExchangeRateAdmin(_ReadOnlyAdmin):
    list_display = ("day", "from_currency", "to_currency", "rate", "source", "user")
    list_filter = ("source", "from_currency", "to_currency")
    list_select_related = ("user",)
    date_hierarchy = "day"
