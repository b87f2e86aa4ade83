"""/transactions: the ledger to search, filter, page through to its oldest row, fix and export (docs/pages.md)."""

import datetime as dt
from decimal import Decimal
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from assets import csv_export, labels, services
from assets.forms import CategoryForm, TransactionFilterForm, TransactionForm
from assets.ledger.selectors import with_ledger_flags
from assets.ledger.totals import list_total_in
from assets.ledger_pages import ledger_rows_mark
from assets.selectors import asset_list, transaction_get, transaction_page, transaction_search, transaction_totals
from zeus.errors import NotFound, ZeusError
from zeus.forms import add_service_error, form_saved, page_paths, query_int
from zeus.selectors import user_currency

PAGE_SIZE = 50
# The services name the account `asset_id`; the forms call it `asset`.
asset_errors = partial(add_service_error, fields_map={"asset_id": "asset"})


def _after(value: str):
    """The keyset of `?after=2026-11-30.123`; anything else starts from the newest row."""
    day, _sep, row_id = (value or "").partition(".")
    try:
        return dt.date.fromisoformat(day), int(row_id)
    except ValueError:
        return None


def _back(request) -> str:
    """Where a form returns to: the list as it was filtered (only ever a /transactions URL)."""
    target = request.POST.get("back") or request.GET.get("back") or ""
    return target if target.startswith("/transactions") and "//" not in target else "/transactions"


def _list_url(request, *drop) -> str:
    query = request.GET.copy()
    for key in ("edit", "delete", *drop):
        query.pop(key, None)
    encoded = query.urlencode()
    return "/transactions" + (f"?{encoded}" if encoded else "")


def _combined(qs, totals, currency):
    """The totals in the user's currency, when the list holds another: each row converted at its day's rate,
    shown with the rates used; what no rate converts named, never counted at 1:1."""
    if all(t.currency == currency for t in totals):
        return None
    own = next(((t.income, t.expense) for t in totals if t.currency == currency), (Decimal(0), Decimal(0)))
    return list_total_in(qs, currency=currency, own=own)


def _context(request, *, create_form=None, edit_form=None, edit_id=None, status_code=200) -> tuple[dict, int]:
    user = request.user
    assets = list(asset_list(user=user))
    filters = TransactionFilterForm(request.GET or None, assets=assets)
    page = None
    totals, combined = [], None
    if not request.GET or filters.is_valid():
        criteria = filters.selector_filters() if request.GET else {}
        try:
            qs = transaction_search(user=user, **criteria)
        except ZeusError as exc:
            asset_errors(filters, exc)
            status_code = 400
        else:
            page = transaction_page(with_ledger_flags(qs), after=_after(request.GET.get("after", "")), size=PAGE_SIZE)
            totals = transaction_totals(qs)
            combined = _combined(qs, totals, user_currency(user))
    else:
        status_code = 400
    if edit_id is None and request.GET.get("edit"):
        edit_id = query_int(request.GET["edit"])
    rows = []
    by_id = {asset.id: asset for asset in assets}
    for txn in page.rows if page else []:
        if txn.asset_id in by_id:
            txn.asset = by_id[txn.asset_id]  # the row names its account: read with the form's, not once per row
        row = {"txn": txn, "category_label": labels.category_label(txn.category)}
        if txn.id == edit_id and txn.editable:
            row["form"] = edit_form or TransactionForm(
                initial=TransactionForm.initial_for(txn), assets=assets, prefix=f"t{txn.id}"
            )
        elif txn.editable:
            row["category_form"] = CategoryForm(
                initial={"category": txn.category}, direction=txn.direction, prefix=f"c{txn.id}"
            )
        rows.append(row)
    ledger_rows_mark(user=user, rows=rows)
    next_url = None
    if page and page.next_after:
        query = request.GET.copy()
        for key in ("edit", "delete"):
            query.pop(key, None)
        query["after"] = f"{page.next_after[0].isoformat()}.{page.next_after[1]}"
        next_url = "/transactions?" + query.urlencode()
    export = request.GET.copy()
    for key in ("edit", "delete", "after"):
        export.pop(key, None)
    return (
        {
            "filters": filters,
            "rows": rows,
            "totals": totals,
            "combined": combined,
            "next_url": next_url,
            "first_url": _list_url(request, "after") if request.GET.get("after") else None,
            "export_url": "/transactions.csv" + (f"?{export.urlencode()}" if export else ""),
            "back": request.get_full_path() if request.method == "GET" else _back(request),
            "create_form": create_form
            or TransactionForm(initial={"direction": "expense", "category": "other"}, assets=assets, prefix="new"),
            "create_open": create_form is not None,
            "delete_id": query_int(request.GET.get("delete", "")),
            "category_labels": labels.CATEGORY,
            "category_choices": labels.grouped_category_choices(),
            "direction_labels": labels.DIRECTION,
            "more_filters": bool(filters.errors)
            or any(request.GET.get(k) for k in ("since", "until", "category", "direction", "source", "asset")),
            "has_filters": any(
                request.GET.get(k) for k in ("q", "since", "until", "category", "direction", "source", "asset")
            ),
        },
        status_code,
    )


@login_required
def transactions_page(request):
    if request.method == "POST":
        return _create(request)
    context, status = _context(request)
    return render(request, "assets/transactions.html", context, status=status)


def _create(request):
    assets = list(asset_list(user=request.user))
    form = TransactionForm(request.POST, assets=assets, currency=user_currency(request.user), prefix="new")
    saved = form_saved(
        request,
        form,
        lambda: services.transaction_create(user=request.user, **form.service_values()),
        done=_("Transaction added."),
        to=_back(request),
        on_error=asset_errors,
    )
    if saved:
        return saved
    context, _status = _context(request, create_form=form)
    return render(request, "assets/transactions.html", context, status=400)


@login_required
@require_POST
def transaction_edit(request, transaction_id: int):
    txn = _own(request, transaction_id)
    if txn is None or not txn.editable:
        return _refused(request, txn)
    assets = list(asset_list(user=request.user))
    form = TransactionForm(request.POST, assets=assets, currency=txn.currency, prefix=f"t{txn.id}")
    saved = form_saved(
        request,
        form,
        lambda: services.transaction_update(user=request.user, transaction_id=txn.id, **form.service_values()),
        done=_("Transaction saved."),
        to=_back(request),
        on_error=asset_errors,
    )
    if saved:
        return saved
    context, _status = _context(request, edit_form=form, edit_id=txn.id)
    return render(request, "assets/transactions.html", context, status=400)


@login_required
@require_POST
def transaction_recategorize(request, transaction_id: int):
    """The category alone: from the row's menu (two clicks with JavaScript, which posts it in place)."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    txn = _own(request, transaction_id)
    if txn is None or not txn.editable:
        if wants_json:
            return JsonResponse(
                {"error": {"code": "NOT_EDITABLE", "message": _refusal(txn)}}, status=404 if txn is None else 409
            )
        return _refused(request, txn)
    form = CategoryForm(request.POST, direction=txn.direction, prefix=f"c{txn.id}")
    error = None
    if form.is_valid():
        try:
            services.transaction_update(
                user=request.user, transaction_id=txn.id, category=form.cleaned_data["category"]
            )
        except ZeusError as exc:
            error = exc.message
    else:
        error = " ".join(form.errors.get("category", [])) or _("Choose a category.")
    if wants_json:
        if error:
            return JsonResponse({"error": {"code": "VALIDATION_ERROR", "message": error}}, status=400)
        label = labels.category_label(form.cleaned_data["category"])
        return JsonResponse(
            {
                "id": txn.id,
                "category": form.cleaned_data["category"],
                "label": label,
                "message": _("Moved to %(category)s.") % {"category": label},
            }
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(
            request, _("Moved to %(category)s.") % {"category": labels.category_label(form.cleaned_data["category"])}
        )
    return HttpResponseRedirect(_back(request))


@login_required
@require_POST
def transaction_remove(request, transaction_id: int):
    txn = _own(request, transaction_id)
    if txn is None or not txn.editable:
        return _refused(request, txn)
    services.transaction_delete(user=request.user, transaction_id=txn.id)
    messages.success(request, _("Transaction deleted."))
    return HttpResponseRedirect(_back(request))


def _own(request, transaction_id):
    try:
        return transaction_get(user=request.user, transaction_id=transaction_id)
    except NotFound:
        return None


def _refusal(txn) -> str:
    if txn is None:
        return _("That transaction does not exist.")
    return _("This transaction was synced from your bank, so it is read only here.")


def _refused(request, txn):
    messages.error(request, _refusal(txn))
    return HttpResponseRedirect(_back(request))


@login_required
@require_GET
def transactions_csv(request):
    """Every row of the current filter, oldest rows included, streamed (a five-year ledger is not held in memory)."""
    assets = list(asset_list(user=request.user))
    filters = TransactionFilterForm(request.GET or None, assets=assets)
    if request.GET and not filters.is_valid():
        context, _status = _context(request)
        return render(request, "assets/transactions.html", context, status=400)
    try:
        qs = transaction_search(user=request.user, **(filters.selector_filters() if request.GET else {}))
    except ZeusError:
        context, _status = _context(request)
        return render(request, "assets/transactions.html", context, status=400)
    # ?labels=local: headers, directions and categories in the reader's language (the figures stay plain).
    rows = csv_export.csv_lines(qs, local=request.GET.get("labels") == "local")
    response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="zeus-transactions.csv"'
    return response


urlpatterns = [
    *page_paths("transactions", transactions_page, name="transactions"),
    path("transactions.csv", transactions_csv, name="transactions-csv"),
    path("transactions/<int:transaction_id>/edit", transaction_edit, name="transaction-edit"),
    path("transactions/<int:transaction_id>/category", transaction_recategorize, name="transaction-category"),
    path("transactions/<int:transaction_id>/delete", transaction_remove, name="transaction-delete"),
]
