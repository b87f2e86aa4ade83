"""The account's data on the web: /settings/data (export, import, erasure), the erasure-pending page a locked
account signs in to, and the owner-only download of an export (docs/pages.md)."""

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from zeus.account_data.api import Gone, confirm_identity, export_file
from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request, erasure_pending
from zeus.account_data.export import download_path
from zeus.account_data.lock import SESSION_MARK
from zeus.account_data.restore import MAX_ARCHIVE_BYTES, account_import
from zeus.account_data.services import account_export_request
from zeus.errors import NotFound, ZeusError
from zeus.formatting import date_text, number_text
from zeus.forms import page_paths
from zeus.middleware import body_limit
from zeus.models import AccountExport
from zeus.timeutil import user_tz


class ErasureForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"), max_length=128, strip=False, widget=forms.PasswordInput
    )
    code = forms.CharField(label=gettext_lazy("Authenticator code (if you use one)"), max_length=64, required=False)


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Export file (.zip)"))


def data_panel_ctx(request, today=None) -> dict:
    """The /settings entry: ask for an export in one click, or open the page with the rest."""
    return {}


def _exports(user) -> list[dict]:
    now, tz = timezone.now(), user_tz(user)
    rows = []
    for export in AccountExport.objects.filter(user=user).order_by("-created_at")[:10]:
        live = export.status == AccountExport.Status.READY and export.file and export.expires_at > now
        rows.append(
            {
                "export": export,
                "url": download_path(export) if live else "",
                "made": date_text(timezone.localtime(export.created_at, tz).date()),
                "until": date_text(timezone.localtime(export.expires_at, tz).date()) if live else "",
            }
        )
    return rows


def _page(request, *, erasure_form=None, import_form=None, status=200):
    context = {
        "exports": _exports(request.user),
        "erasure_form": erasure_form or ErasureForm(),
        "import_form": import_form or ImportForm(),
    }
    return render(request, "zeus/account_data.html", context, status=status)


@login_required
@require_GET
def data_page(request):
    return _page(request)


@login_required
@require_POST
def export_action(request):
    account_export_request(user=request.user)
    messages.success(request, _("Your export is being prepared. Your inbox will link to it when it is ready."))
    return redirect("/settings/data")


@body_limit(MAX_ARCHIVE_BYTES + 1024 * 1024)
@login_required
@require_POST
def import_action(request):
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, import_form=form, status=400)
    try:
        counts = account_import(user=request.user, upload=form.cleaned_data["file"])
    except ZeusError as exc:
        if exc.code == "ACCOUNT_NOT_EMPTY":
            form.add_error(None, _("An export can be imported only into an empty account."))
        else:
            form.add_error("file", _("This file is not a Zeus export Zeus can read (%(code)s).") % {"code": exc.code})
        return _page(request, import_form=form, status=409 if exc.status == 409 else 400)
    count = number_text(sum(counts.values()))
    messages.success(request, _("Your data is restored: %(count)s records.") % {"count": count})
    return redirect("/")


@login_required
@require_POST
def delete_action(request):
    form = ErasureForm(request.POST)
    if form.is_valid():
        try:
            confirm_identity(request, request.user, form.cleaned_data["password"], form.cleaned_data["code"])
            erasure = account_erasure_request(user=request.user, now=timezone.now())
        except ZeusError as exc:
            wrong = {"WRONG_PASSWORD": ("password", _("That password is not right.")),
                     "MFA_REQUIRED": ("code", _("Enter the code from your authenticator app."))}  # fmt: skip
            field, message = wrong.get(exc.code, (None, exc.message))
            form.add_error(field, message)
        else:
            day = _erase_day(request.user, erasure)
            logout(request)
            return render(request, "zeus/erasure_scheduled.html", {"erase_day": day})
    return _page(request, erasure_form=form, status=400)


@never_cache
@login_required
@require_GET
def erasure_page(request):
    """What a locked account sees after signing in: when it will be erased, and the one thing it can do."""
    erasure = erasure_pending(user=request.user)
    if erasure is None:
        request.session.pop(SESSION_MARK, None)
        return redirect("/")
    return render(request, "zeus/erasure_pending.html", {"erase_day": _erase_day(request.user, erasure)})


def _erase_day(user, erasure) -> str:
    """The day the erasure happens, on the user's calendar, as the reader writes dates."""
    return date_text(timezone.localtime(erasure.erase_after, user_tz(user)).date())


@login_required
@require_POST
def erasure_cancel(request):
    if account_erasure_cancel(user=request.user):
        messages.success(request, _("Your account will not be erased. Welcome back."))
    request.session.pop(SESSION_MARK, None)
    return redirect("/")


@login_required
@require_GET
def export_download(request, export_id):
    try:
        return export_file(user=request.user, export_id=export_id)
    except Gone:
        return render(request, "zeus/export_gone.html", status=410)
    except NotFound:
        return render(request, "404.html", status=404)
    except ZeusError:
        messages.info(request, _("That export is still being prepared."))
        return redirect("/settings/data")


urlpatterns = [
    *page_paths("settings/data", data_page, name="account-data"),
    path("settings/data/export", export_action, name="account-export"),
    path("settings/data/import", import_action, name="account-import"),
    path("settings/data/delete", delete_action, name="account-delete"),
    path("account/erasure", erasure_page, name="account-erasure"),
    path("account/erasure/cancel", erasure_cancel, name="account-erasure-cancel"),
    path("account/exports/<uuid:export_id>/download", export_download, name="account-export-download"),
]
