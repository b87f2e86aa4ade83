"""/wallets ("Ví & tài khoản"): the user's accounts with their balances; create, edit, archive and restore a
manual one, and reconcile its balance with what the bank says (docs/ledger.md, "Accounts"). Thin: each
form calls the services the REST API calls."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from assets import labels, services
from assets.cards.selectors import card_dues_for
from assets.ledger import corrections
from assets.ledger.selectors import balances_converted, wallet_list
from assets.models import Asset
from assets.selectors import linked_account_list
from zeus.errors import ZeusError
from zeus.forms import page_paths
from zeus.money import CURRENCY_EXPONENTS
from zeus.selectors import user_currency
from zeus.timeutil import user_today


@login_required
def wallets_page(request):
    status = 200
    if request.method == "POST":
        post = request.POST
        try:
            services.asset_create(
                user=request.user,
                name=post.get("name", ""),
                kind=post.get("kind", ""),
                balance=post.get("balance") or 0,
                currency=post.get("currency") or None,
                **_card_days(post),
            )
        except ZeusError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            messages.success(request, _("Account added."))
            return HttpResponseRedirect("/wallets")
    accounts = list(wallet_list(user=request.user))
    dues = {view.asset.id: view for view in card_dues_for(user=request.user, today=user_today(request.user))}
    for account in accounts:
        account.card_due_view = dues.get(account.id)
    currency = user_currency(request.user)
    converted = balances_converted(
        user=request.user, accounts=accounts, currency=currency, day=user_today(request.user)
    )
    return render(
        request,
        "assets/wallets.html",
        {
            "active": [a for a in accounts if a.archived_at is None],
            "converted": converted,  # balances in another currency: at today's rate, or named as rate missing
            "archived": [a for a in accounts if a.archived_at is not None],
            "linked": linked_account_list(user=request.user),
            "kinds": [(k, labels.ASSET_KIND[k]) for k in Asset.Kind.values],
            "kind_labels": labels.ASSET_KIND,
            "currencies": list(CURRENCY_EXPONENTS),
            "currency": currency,
        },
        status=status,
    )


def _card_days(post) -> dict:
    """The card's days when the form sent them (a blank clears them); a form without them leaves them be."""
    return {field: post.get(field) or None for field in ("statement_day", "due_day") if field in post}


def _done(request, message: str, call) -> HttpResponseRedirect:
    try:
        call()
    except ZeusError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, message)
    return HttpResponseRedirect("/wallets")


@login_required
@require_POST
def wallet_edit(request, asset_id: int):
    post = request.POST
    return _done(
        request,
        _("Account saved."),
        lambda: services.asset_update(
            user=request.user,
            asset_id=asset_id,
            name=post.get("name", ""),
            kind=post.get("kind", ""),
            **_card_days(post),
        ),
    )


@login_required
@require_POST
def wallet_archive(request, asset_id: int):
    archived = request.POST.get("archived") != "0"
    return _done(
        request,
        _("Account archived.") if archived else _("Account restored."),
        lambda: corrections.asset_archive(user=request.user, asset_id=asset_id, archived=archived),
    )


@login_required
@require_POST
def wallet_reconcile(request, asset_id: int):
    return _done(
        request,
        _(
            "Balance reconciled: the difference is one adjustment row, left out of your totals until you say "
            "what it was."
        ),
        lambda: corrections.asset_reconcile(
            user=request.user, asset_id=asset_id, balance=request.POST.get("balance", "")
        ),
    )


urlpatterns = [
    *page_paths("wallets", wallets_page, name="wallets"),
    path("wallets/<int:asset_id>/edit", wallet_edit, name="wallet-edit"),
    path("wallets/<int:asset_id>/archive", wallet_archive, name="wallet-archive"),
    path("wallets/<int:asset_id>/reconcile", wallet_reconcile, name="wallet-reconcile"),
]
