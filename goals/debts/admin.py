"""Debts in the admin: read and searched by staff, with the standing the user sees; payments inline. Changes go
through the REST API and the page, where the services keep the rules, so the admin shows and does not edit."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from goals.debts.models import Debt, DebtPayment
from goals.debts.selectors import debt_view
from zeus.admin import money, money_column
from zeus.timeutil import user_today


class PaymentInline(admin.TabularInline):
    model = DebtPayment
    extra = 0
    fields = ["paid_on", "amount", "transaction", "created_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Debt)
class DebtAdmin(admin.ModelAdmin):
    list_display = ["counterparty", "user", "direction", "principal_display", "status", "opened_on", "outstanding"]
    list_filter = ["direction", "status", "interest_method"]
    search_fields = ["counterparty", "user__username", "code"]
    list_select_related = ["user__profile"]
    inlines = [PaymentInline]
    readonly_fields = [field.name for field in Debt._meta.fields] + ["outstanding"]

    def has_add_permission(self, request):
        return False

    principal_display = money_column("principal", _("principal"))

    @admin.display(description=_("outstanding"))
    def outstanding(self, debt):
        return money(debt_view(debt, today=user_today(debt.user)).outstanding, debt.currency)
