"""The capture's pages: what a shared or uploaded file was read into (its drafts, each confirmed on
/share/<draft id>, or a statement waiting to be imported), and the file itself for its owner. A file posted to
/share (the installed app's share target) or from the import page's receipt form lands here."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from assets import labels
from assets.captures import services
from assets.captures.api import capture_file_response
from assets.captures.files import CaptureTooLarge
from assets.captures.models import Capture
from assets.captures.services import CaptureDuplicate
from assets.pages import import_refusal_text
from zeus.errors import ZeusError
from zeus.formatting import date_text
from zeus.money import format_amount


def error_text(exc: ZeusError) -> str:
    """The person's words for why a file was refused (the REST answer carries the code and the details)."""
    texts = {
        "CAPTURE_TYPE_MISMATCH": _("This file is not what its name says; share the original photo or PDF."),
        "CAPTURE_UNSUPPORTED": _("Zeus reads photos (JPEG, PNG, WebP, GIF), PDFs and statement files."),
        "CAPTURE_EMPTY": _("The shared file is empty."),
        "CAPTURE_NOT_FINANCIAL": _("This file shows no payment Zeus can read."),
        "CAPTURE_MODEL_INVALID": _("The reading of this file made no sense, so nothing was saved; add it by hand."),
        "CAPTURE_UNREADABLE": _("This file could not be opened; is it a whole, readable photo or PDF?"),
        "AI_PROVIDER_REQUIRED": _("Reading photos and PDFs needs an AI provider key: add yours in Settings."),
        "PROVIDER_TIMEOUT": _("Reading this file took too long; try again."),
    }
    if isinstance(exc, CaptureTooLarge):
        return _("This file is too large to read.")
    if exc.code in texts:
        return texts[exc.code]
    if exc.code == "USAGE_LIMIT":
        return exc.message  # in the reader's language, with when the allowance comes back
    if exc.status == 429:
        return _("You have used today's AI allowance; it resets at midnight.")
    if exc.status == 503:
        return _("The AI provider is unavailable right now; try again shortly.")
    # The importers' own refusal, in the reader's words too (their message is the API's English).
    return _("This statement file cannot be imported: %(reason)s") % {"reason": import_refusal_text(exc)}


def share_file(request, upload):
    """A file from the share sheet or the import page → its capture's page, or the reason it was refused."""
    try:
        capture = services.capture_create(
            user=request.user, upload=upload, name=upload.name, content_type=upload.content_type or ""
        )
    except CaptureDuplicate as exc:
        return redirect(f"/share/capture/{exc.fields['capture'][0]}")
    except ZeusError as exc:
        return render(request, "assets/share.html", {"error": error_text(exc), "from_file": True}, status=exc.status)
    return redirect(f"/share/capture/{capture.id}")


def _draft_row(draft) -> dict:
    return {
        "id": draft.id,
        "amount": format_amount(draft.amount, draft.currency),
        "income": draft.direction == "income",
        "day": date_text(draft.occurred_at.date()),
        "description": draft.description,
        "category": labels.category_label(draft.category),
        "status": draft.status,
        "open": draft.status == "draft",
    }


@login_required
def capture_page(request, capture_id: int):
    try:
        capture = services.capture_get(user=request.user, capture_id=capture_id)
    except ZeusError:
        return render(request, "404.html", status=404)
    drafts = [_draft_row(d) for d in capture.drafts.order_by("occurred_at", "id")]
    return render(
        request,
        "assets/capture.html",
        {"capture": capture, "drafts": drafts, "is_image": capture.kind == Capture.Kind.IMAGE},
    )


@login_required
def capture_file(request, capture_id: int):
    try:
        capture = services.capture_with_file(user=request.user, capture_id=capture_id)
    except ZeusError:
        return render(request, "404.html", status=404)
    return capture_file_response(capture)


@login_required
@require_POST
def capture_decide(request, capture_id: int, decision: str):
    try:
        if decision == "import":
            capture = services.capture_import(user=request.user, capture_id=capture_id)
            messages.success(request, _("Imported %(n)s transactions.") % {"n": capture.imported})
            return redirect("/transactions")
        services.capture_discard(user=request.user, capture_id=capture_id)
        messages.success(request, _("The file was discarded."))
        return redirect("/")
    except ZeusError as exc:
        messages.error(request, error_text(exc))
        return redirect(f"/share/capture/{capture_id}")


urlpatterns = [
    path("share/capture/<int:capture_id>", capture_page, name="share-capture"),
    path("share/capture/<int:capture_id>/import", capture_decide, {"decision": "import"}, name="capture-import"),
    path("share/capture/<int:capture_id>/discard", capture_decide, {"decision": "discard"}, name="capture-discard"),
    path("captures/<int:capture_id>/file", capture_file, name="capture-file"),
]
