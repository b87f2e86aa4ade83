"""/share: the installed web app's share target (docs/contract §11). A bank notification shared from another
app becomes a bank-text draft (assets.banktexts), shown for the person to confirm or discard; a shared file (a
receipt, a transfer screenshot, a PDF or XLSX statement) becomes a capture (assets/captures/pages.py). Nothing
enters the ledger until they confirm."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from assets import labels
from assets.banktexts.services import (
    Unreadable,
    bank_text_draft_confirm,
    bank_text_draft_create,
    bank_text_draft_discard,
    bank_text_draft_get,
)
from assets.captures import pages as capture_pages
from assets.captures.files import MAX_BODY_BYTES
from zeus.errors import ZeusError
from zeus.formatting import date_text
from zeus.middleware import body_limit
from zeus.money import format_amount


def _vietqr_problem(code: str) -> str | None:
    """What is wrong with a shared VietQR, said plainly (assets/banktexts/vietqr.py)."""
    return {
        "BAD_CHECKSUM": _("This VietQR is damaged: its checksum does not match. Scan or copy it again."),
        "UNKNOWN_BANK": _("This VietQR names a bank that is not on NAPAS's list."),
        "VIETQR_NO_AMOUNT": _("This VietQR asks for no amount; add the transfer by hand with what you paid."),
        "NOT_NAPAS": _("This QR is not a NAPAS 247 bank transfer."),
    }.get(code)


def _shared_text(post) -> str:
    """The notification as the sharing app sent it: some put it in `text`, some in `title`, a few in `url`."""
    parts = [post.get(name, "").strip() for name in ("title", "text", "url")]
    return "\n".join(p for p in parts if p)


def _draft_view(draft) -> dict:
    return {
        "id": draft.id,
        "bank": draft.bank,
        "amount": format_amount(draft.amount, draft.currency),
        "income": draft.direction == "income",
        "day": date_text(draft.occurred_at.date()),
        "description": draft.description,
        "category": labels.category_label(draft.category),
        "duplicate": draft.duplicate_of_id is not None,
        "open": draft.status == "draft",
        "capture": draft.capture_id,
    }


# The share sheet posts from the operating system, without the page's CSRF token. What it can do is make a
# draft, which changes nothing in the ledger; confirming one is a form of this site's, with its token. A shared
# file's body is bounded before anything reads it.
@body_limit(MAX_BODY_BYTES)
@csrf_exempt
@login_required
@require_POST
def share(request):
    files = [f for name in request.FILES for f in request.FILES.getlist(name)]
    if len(files) > 1:
        return render(
            request, "assets/share.html", {"error": _("Share one file at a time."), "from_file": True}, status=400
        )
    if files:
        return capture_pages.share_file(request, files[0])
    text = _shared_text(request.POST)
    try:
        draft = bank_text_draft_create(user=request.user, text=text)
    except Unreadable:
        error, status = _("This text is not a bank notification Zeus can read; add the transaction by hand."), 422
    except ZeusError as exc:
        error, status = _vietqr_problem(exc.code) or _("Nothing readable was shared."), 400
    else:
        return redirect(f"/share/{draft.id}")
    return render(request, "assets/share.html", {"error": error, "shared": text}, status=status)


@login_required
def share_draft(request, draft_id: int):
    try:
        draft = bank_text_draft_get(user=request.user, draft_id=draft_id)
    except ZeusError:
        return render(request, "404.html", status=404)
    return render(request, "assets/share.html", {"draft": _draft_view(draft), "from_file": bool(draft.capture_id)})


@login_required
@require_POST
def share_decide(request, draft_id: int, decision: str):
    try:
        if decision == "confirm":
            txn = bank_text_draft_confirm(
                user=request.user, draft_id=draft_id, save_anyway=bool(request.POST.get("anyway"))
            )
            messages.success(request, _("The transaction was added."))
            capture_id = txn.bank_text_drafts.values_list("capture_id", flat=True).first()
            return redirect(f"/share/capture/{capture_id}" if capture_id else "/transactions")
        bank_text_draft_discard(user=request.user, draft_id=draft_id)
        messages.success(request, _("The draft was discarded."))
        return redirect("/")
    except ZeusError:
        messages.error(request, _("This draft can no longer be changed."))
        return redirect(f"/share/{draft_id}")


urlpatterns = [
    path("share", share, name="share"),
    path("share/<int:draft_id>", share_draft, name="share-draft"),
    path("share/<int:draft_id>/confirm", share_decide, {"decision": "confirm"}, name="share-confirm"),
    path("share/<int:draft_id>/discard", share_decide, {"decision": "discard"}, name="share-discard"),
    *capture_pages.urlpatterns,
]
