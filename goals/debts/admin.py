"""Debts in the admin: read and searched by staff, with the standing the user sees; payments inline. Changes go
through the REST API and the page, where the services keep the rules, so the admin shows and does not edit."""

from django.contrib import admin
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from goals.debts.models import Debt, DebtPayment
from goals.debts.selectors import debt_view
from zeus.admin import MoneyShown, RecordInline, money, money_column
from zeus.formatting import percent
from zeus.timeutil import user_today


class PaymentInline(MoneyShown, RecordInline):
    money_fields = ("amount",)
    money_currency = "debt__currency"
    model = DebtPayment
    fields = ["paid_on", "amount", "transaction", "created_at"]
    readonly_fields = fields


@admin.register(Debt)
class DebtAdmin(MoneyShown, admin.ModelAdmin):
    money_fields = ("principal",)
    list_display = ["counterparty", "user", "direction", "principal_display", "status", "opened_on", "outstanding"]
    list_filter = ["direction", "status", "interest_method"]
    search_fields = ["counterparty", "user__username", "code"]
    list_select_related = ["user__profile"]
    inlines = [PaymentInline]
    # Everything read-only; the rate as the reader writes a percentage ("12,5 %"), not its four stored places.
    readonly_fields = [field.name for field in Debt._meta.fields if field.name != "interest_rate"]
    readonly_fields += ["interest", "outstanding"]
    exclude = ["interest_rate"]

    def has_add_permission(self, request):
        return False

    principal_display = money_column("principal", _("principal"))

    @admin.display(description=_("interest rate"))
    def interest(self, debt):
        return percent(debt.interest_rate, locale=get_language(), digits=4)

    @admin.display(description=_("outstanding"))
    def outstanding(self, debt):
        return money(debt_view(debt, today=user_today(debt.user)).outstanding, debt.currency)
