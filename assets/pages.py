"""The pages money comes in through: /import (statement files), /settings/bank-feeds (SePay connections)
and /settings/rules (categorization rules). Thin: each calls the services the REST API calls."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import re_path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from assets import labels
from assets.feeds import selectors as feed_selectors
from assets.feeds import services as feed_services
from assets.feeds.api import webhook_url
from assets.importing import MAX_BYTES, MAX_ROWS, transactions_import
from assets.models import ImportMapping
from assets.rules import selectors as rule_selectors
from assets.rules import services as rule_services
from assets.selectors import asset_list
from assets.statements.csvfile import HEADER
from zeus.errors import ZeusError
from zeus.forms import service_action
from zeus.middleware import body_limit
from zeus.text import parse_json


def import_next_steps() -> dict[str, str]:
    """What a person on /import does next about an importer's refusal, by code, where the importer's own
    message (the REST API's too, in the reader's language) says what is wrong but not what to do on this page.
    `INVALID_ROWS` is an INVALID_* refusal that lists its rows. The page's script reads the same table."""
    return {
        "INVALID_ROWS": _("Correct these rows in the file, or export the statement again, then import it."),
        "INVALID": _("Is it a whole statement export? Export it again from your bank and import that file."),
        "CSV_TOO_LARGE": _("Split it into smaller files and import each."),
        "XLSX_TOO_LARGE": _("Export the statement again, or save it as CSV, and import that file."),
        "CSV_BAD_HEADER": _("Tell Zeus which column is which, above, and import again."),
        "MAPPING_INVALID": _("Choose the date column and the amount (or the debit and credit) columns."),
    }


def import_row_words() -> dict:
    """How the page names a bad row and its fields (the API's `fields.rows` keeps the codes: a line number,
    `transaction 3`, `entry 2.1`, `FITID …`; `amount`, `date`, …). The page's script reads the same words."""
    return {
        "fields": {
            "row": _("Row"),
            "date": _("Date"),
            "amount": _("Amount"),
            "currency": _("Currency"),
            "direction": _("Direction"),
            "category": _("Category"),
            "description": _("Description"),
            "external_id": _("Reference"),
        },
        "transaction": _("transaction %(n)s"),
        "entry": _("entry %(n)s"),
    }


def _row_errors(rows: dict, words: dict) -> list:
    def where(key: str) -> str:
        kind, _space, n = key.partition(" ")
        return words[kind] % {"n": n} if kind in ("transaction", "entry") and n else key

    named = {key: {words["fields"].get(f, f): texts for f, texts in problems.items()} for key, problems in rows.items()}
    return [(where(key), problems) for key, problems in sorted(named.items(), key=_line_key)]


def import_refusal_text(exc: ZeusError) -> str:
    """An importer's refusal as the page says it to a person: the importer's own message (what is wrong, with
    its figures: the limit, the count of bad rows), then what to do next where it does not say so itself; the
    rows' own problems are listed under it."""
    key = exc.code
    if key.startswith("INVALID_"):
        rows = exc.fields.get("rows") if isinstance(exc.fields, dict) else None
        key = "INVALID_ROWS" if rows else "INVALID"
    step = import_next_steps().get(key)
    return f"{exc.message} {step}" if step else exc.message


@body_limit(MAX_BYTES + 1024 * 1024)
@login_required
@require_http_methods(["GET", "POST"])
def import_page(request):
    """Works without JavaScript (a plain form post); static/assets/import.js adds drag and drop, the preview,
    the mapping step and an upload progress bar, posting to the REST import."""
    result = error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        mapping = _mapping_from_form(request.POST)
        if upload is None:
            error = {"code": "CSV_MISSING", "message": _("Choose a file to import."), "fields": {}}
        else:
            try:
                result = transactions_import(
                    user=request.user, source=upload.file, mapping=mapping, asset_id=request.POST.get("asset") or None
                )
            except ZeusError as exc:
                error = {**exc.as_dict(), "message": import_refusal_text(exc)}
    row_words = import_row_words()
    remembered = {
        m.header_key: m.mapping for m in ImportMapping.objects.filter(user=request.user).order_by("-updated_at")[:50]
    }
    return render(
        request,
        "assets/import.html",
        {
            "result": result,
            "error": error,
            "row_errors": _row_errors((error or {}).get("fields", {}).get("rows", {}), row_words),
            "assets": asset_list(user=request.user),
            "zeus_header": ",".join(HEADER),
            "limits": {"megabytes": MAX_BYTES // (1024 * 1024), "rows": MAX_ROWS},
            "remembered": remembered,
            "next_steps": import_next_steps(),
            "row_words": row_words,
        },
    )


def _line_key(item):
    key = item[0]
    return (0, int(key)) if key.isdigit() else (1, key)


def _mapping_from_form(post) -> dict | None:
    """The mapping step's fields (map_date, map_amount, …), or a `mapping` JSON field; None when empty."""
    if post.get("mapping"):
        try:
            return parse_json(post["mapping"])
        except ValueError:
            return {"invalid": True}
    mapping = {
        key: post.get(f"map_{key}", "").strip()
        for key in ("date", "description", "amount", "debit", "credit", "direction", "external_id", "date_format")
    }
    mapping = {key: value for key, value in mapping.items() if value}
    return mapping or None


@login_required
@require_http_methods(["GET", "POST"])
def bank_feeds_page(request):
    created = None
    if request.method == "POST":
        try:
            new = feed_services.sepay_connection_create(
                user=request.user, auth=request.POST.get("auth", ""), name=request.POST.get("name")
            )
            created = {"connection": new.connection, "secret": new.secret}
        except ZeusError as exc:
            messages.error(request, exc.message)
    connections = [
        {"connection": c, "url": webhook_url(request, c)}
        for c in feed_selectors.sepay_connection_list(user=request.user)
    ]
    if created:
        created["url"] = webhook_url(request, created["connection"])
    return render(
        request,
        "assets/bank_feeds.html",
        {
            "connections": connections,
            "created": created,
            "auth_choices": list(labels.FEED_AUTH.items()),
            "auth_labels": labels.FEED_AUTH,
        },
    )


bank_feed_delete = service_action(
    feed_services.sepay_connection_delete,
    done=gettext_lazy("Disconnected. SePay's next deliveries to that URL will be refused."),
    to="/settings/bank-feeds",
)


@login_required
@require_http_methods(["GET", "POST"])
def rules_page(request):
    if request.method == "POST":
        post = request.POST
        try:
            rule = rule_services.rule_create(
                user=request.user,
                match=post.get("match", ""),
                category=post.get("category", ""),
                direction=post.get("direction") or None,
                min_amount=post.get("min_amount") or None,
                max_amount=post.get("max_amount") or None,
                position=int(post["position"]) if post.get("position", "").isdigit() else None,
            )
            note = _("Rule added.")
            if post.get("apply_to_existing"):
                changed = rule_services.rule_apply_to_existing(user=request.user, rule=rule)
                note = ngettext(
                    "Rule added and applied to %(count)d existing transaction.",
                    "Rule added and applied to %(count)d existing transactions.",
                    changed,
                ) % {"count": changed}
            messages.success(request, note)
            return redirect("/settings/rules")
        except ZeusError as exc:
            messages.error(request, exc.message)
    return render(
        request,
        "assets/rules.html",
        {
            "rules": rule_selectors.rule_list(user=request.user),
            "categories": labels.category_choices(),
            "directions": list(labels.DIRECTION.items()),
            "direction_labels": labels.DIRECTION,
            "category_labels": labels.CATEGORY,
            "form": request.POST if request.method == "POST" else {},
        },
    )


rule_delete = service_action(rule_services.rule_delete, done=gettext_lazy("Rule deleted."), to="/settings/rules")


urlpatterns = [
    re_path(r"^import/?$", import_page, name="import"),
    re_path(r"^settings/bank-feeds/?$", bank_feeds_page, name="bank-feeds"),
    re_path(r"^settings/bank-feeds/(?P<connection_id>\d+)/delete/?$", bank_feed_delete, name="bank-feed-delete"),
    re_path(r"^settings/rules/?$", rules_page, name="rules"),
    re_path(r"^settings/rules/(?P<rule_id>\d+)/delete/?$", rule_delete, name="rule-delete"),
]
