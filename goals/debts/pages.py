"""/debts: what I owe and what is owed to me, with each one's schedule, payments and a VietQR to be paid
back (docs/debts.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from assets.cards.selectors import card_dues_for
from assets.selectors import asset_list
from goals.debts import qr, selectors, services
from goals.debts.forms import DIRECTION_LABELS, DebtForm, PaymentForm
from goals.debts.models import Debt
from zeus.errors import ZeusError
from zeus.forms import form_saved, page_paths, query_int, service_action
from zeus.selectors import user_currency
from zeus.timeutil import user_today


def _context(request, *, create_form=None, pay_form=None, pay_id=None) -> dict:
    user = request.user
    today = user_today(user)
    views = selectors.debt_views(selectors.debt_list(user=user), today=today)
    qr_accounts = [a for a in asset_list(user=user) if a.bank_bin and a.account_number]
    qr_for, qr_error, drawn = query_int(request.GET.get("qr")), None, None
    if qr_for is not None:
        try:
            drawn = qr.debt_vietqr(user=user, debt_id=qr_for, account=request.GET.get("account"))
        except ZeusError as exc:
            qr_error = exc.message
    groups, home = [], user_currency(user)
    for direction, label in DIRECTION_LABELS.items():
        rows = []
        for view in views:
            if view.debt.direction != direction:
                continue
            rows.append(
                {
                    "view": view,
                    "debt": view.debt,
                    "pay_form": (pay_form if pay_id == view.debt.id else None)
                    or PaymentForm(currency=view.debt.currency, prefix=f"p{view.debt.id}"),
                    "qr": drawn if qr_for == view.debt.id else None,
                    "svg": mark_safe(drawn.svg) if drawn and qr_for == view.debt.id else None,
                    "qr_error": qr_error if qr_for == view.debt.id else None,
                }
            )
        groups.append({"direction": direction, "label": label, "rows": rows, "open_totals": _open_totals(rows, home)})
    return {
        "groups": groups,
        "currency": user_currency(user),
        "qr_accounts": qr_accounts,
        "create_form": create_form or DebtForm(currency=user_currency(user), prefix="new"),
        "create_open": create_form is not None or not views,
        "delete_id": query_int(request.GET.get("delete")),
        "today": today,
        "cards": card_dues_for(user=user, today=today),
    }


def _open_totals(rows: list[dict], home: str) -> list[tuple[str, object]]:
    """What is still owed on one side, per currency (the user's first): no rate is applied, so 500,000 đồng and
    100 dollars stay two figures, never 500,100 of either."""
    totals: dict[str, object] = {}
    for row in rows:
        if row["debt"].status == Debt.Status.OPEN:
            currency = row["debt"].currency
            totals[currency] = totals.get(currency, 0) + row["view"].outstanding
    return sorted(totals.items(), key=lambda item: (item[0] != home, item[0]))


@login_required
def debts_page(request):
    if request.method != "POST":
        return render(request, "goals/debts.html", _context(request))
    form = DebtForm(request.POST, currency=user_currency(request.user), prefix="new")
    saved = form_saved(
        request,
        form,
        lambda: services.debt_create(user=request.user, **form.service_values()),
        done=_("Debt added."),
        to="/debts",
    )
    return saved or render(request, "goals/debts.html", _context(request, create_form=form), status=400)


@login_required
@require_POST
def debt_pay(request, debt_id: int):
    debt = selectors.debt_list(user=request.user).filter(id=debt_id).first()
    if debt is None:
        messages.error(request, _("That debt does not exist."))
        return HttpResponseRedirect("/debts")
    form = PaymentForm(request.POST, currency=debt.currency, prefix=f"p{debt.id}")
    saved = form_saved(
        request,
        form,
        lambda: services.debt_payment_record(
            user=request.user,
            debt_id=debt.id,
            amount=form.cleaned_data["amount"],
            paid_on=form.cleaned_data["paid_on"],
        ),
        done=_("Payment recorded."),
        to=f"/debts#debt-{debt.id}",
    )
    return saved or render(request, "goals/debts.html", _context(request, pay_form=form, pay_id=debt.id), status=400)


debt_remove = service_action(
    services.debt_delete,
    done=gettext_lazy("Debt deleted."),
    to="/debts",
    refused=lambda exc: _("That debt does not exist."),
)


urlpatterns = [
    *page_paths("debts", debts_page, name="debts"),
    path("debts/<int:debt_id>/pay", debt_pay, name="debt-pay"),
    path("debts/<int:debt_id>/delete", debt_remove, name="debt-delete"),
]
