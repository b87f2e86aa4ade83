"""The ledger's corrections on /transactions (note, exclusion, category on any row; splits; marking and
undoing a transfer) and the transfer suggestions of the inbox with their one-tap accept and reject
(docs/ledger.md). Thin: each form calls the services the REST API calls."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from assets import labels
from assets.ledger import corrections, transfers
from assets.ledger.selectors import transaction_ledgers, transfer_list
from assets.models import Transaction
from zeus.errors import ZeusError
from zeus.money import format_amount


def ledger_rows_mark(*, user, rows: list[dict]) -> None:
    """Each /transactions row (`{"txn": ...}`, read with ledger_flags()) given its `transfer` and `split`, as the
    REST list reads them (transaction_ledgers)."""
    ledgers = transaction_ledgers(user=user, rows=[row["txn"] for row in rows])
    for row in rows:
        ledger = ledgers[row["txn"].id]
        row["transfer"] = ledger["transfer"]
        row["split"] = [part | {"label": labels.category_label(part["category"])} for part in ledger["split"] or []]


def _back(request, default: str = "/transactions") -> str:
    target = request.POST.get("back") or ""
    allowed = ("/transactions", "/inbox")
    return target if target.startswith(allowed) and "//" not in target else default


def _done(request, message: str, call, default: str = "/transactions") -> HttpResponseRedirect:
    try:
        call()
    except ZeusError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, message)
    return HttpResponseRedirect(_back(request, default))


@login_required
@require_POST
def transaction_correct_page(request, transaction_id: int):
    post = request.POST
    changes = {"note": post.get("note", ""), "excluded": post.get("excluded") == "1"}
    if post.get("category"):
        changes["category"] = post["category"]
    if "description" in post:
        changes["description"] = post["description"]
    return _done(
        request,
        _("Transaction corrected."),
        lambda: corrections.transaction_correct(user=request.user, transaction_id=transaction_id, **changes),
    )


@login_required
@require_POST
def transaction_split_page(request, transaction_id: int):
    post = request.POST
    if post.get("unsplit"):
        return _done(
            request,
            _("The parts are one row again."),
            lambda: corrections.transaction_unsplit(user=request.user, transaction_id=transaction_id),
        )
    parts = [
        {"amount": amount, "category": category, "note": note}
        for amount, category, note in zip(
            post.getlist("part_amount"), post.getlist("part_category"), post.getlist("part_note"), strict=False
        )
        if amount.strip()
    ]
    return _done(
        request,
        _("Split saved."),
        lambda: corrections.transaction_split(user=request.user, transaction_id=transaction_id, parts=parts),
    )


@login_required
@require_POST
def transaction_transfer_page(request, transaction_id: int):
    """Marks the row alone as a transfer (its other account not tracked), or undoes its transfer."""
    if request.POST.get("undo"):
        return _done(
            request,
            _("Not a transfer: the rows count as income and spending again."),
            lambda: transfers.transfer_delete(user=request.user, transfer_id=request.POST["undo"]),
        )

    def mark():
        txn = Transaction.objects.filter(user=request.user, id=transaction_id).only("direction").first()
        side = "out_id" if txn is None or txn.direction == Transaction.Direction.EXPENSE else "in_id"
        transfers.transfer_create(user=request.user, **{side: transaction_id})

    return _done(request, _("Marked as a transfer: it no longer counts as income or spending."), mark)


@login_required
@require_POST
def transfer_suggestion_accept_page(request, transfer_id: int):
    return _done(
        request,
        _("Paired as a transfer."),
        lambda: transfers.transfer_suggestion_accept(user=request.user, transfer_id=transfer_id),
        default="/inbox",
    )


@login_required
@require_POST
def transfer_suggestion_reject_page(request, transfer_id: int):
    return _done(
        request,
        _("Not a transfer. Zeus will not suggest this pair again."),
        lambda: transfers.transfer_suggestion_reject(user=request.user, transfer_id=transfer_id),
        default="/inbox",
    )


def transfer_suggestions_panel(request, today) -> dict | None:
    """The inbox's panel: the transfers waiting for a yes or a no (at most twenty, oldest first)."""
    suggested = transfer_list(user=request.user, status="suggested").select_related(
        "outgoing__asset", "incoming__asset"
    )
    waiting = list(suggested.order_by("created_at", "id")[:20])
    if not waiting:
        return None
    language = getattr(request, "LANGUAGE_CODE", "vi")
    return {
        "suggestions": [
            {
                "id": s.id,
                "out": s.outgoing,
                "in": s.incoming,
                "amount": format_amount(s.outgoing.amount, s.outgoing.currency, locale=language),
            }
            for s in waiting
        ]
    }


urlpatterns = [
    path("transactions/<int:transaction_id>/correct", transaction_correct_page, name="transaction-correct"),
    path("transactions/<int:transaction_id>/split", transaction_split_page, name="transaction-split"),
    path("transactions/<int:transaction_id>/transfer", transaction_transfer_page, name="transaction-transfer"),
    path("transfers/suggestions/<int:transfer_id>/accept", transfer_suggestion_accept_page, name="transfer-accept"),
    path("transfers/suggestions/<int:transfer_id>/reject", transfer_suggestion_reject_page, name="transfer-reject"),
]
