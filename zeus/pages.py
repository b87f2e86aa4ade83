"""The pages zeus serves: the home, the inbox and settings (the account's pages: zeus/accounts/pages.py).

Home and settings are laid out from the panels the other apps register (zeus/panels.py, docs/pages.md): zeus
is the bottom of the import order and reads none of them itself.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from zeus.errors import NotFound, ZeusError
from zeus.forms import add_service_error, page_paths
from zeus.panels import panels_for
from zeus.profile_form import ProfileForm, timezone_choices
from zeus.selectors import notification_list, notification_to_dict, notification_unread_count, profile_get
from zeus.services import notification_mark_all_read, notification_mark_read, profile_update
from zeus.timeutil import user_today

INBOX_SIZE = 50


def home(request):
    if not request.user.is_authenticated:
        return redirect("/accounts/login/")
    today = user_today(request.user)
    context = {
        "today": today,
        "display_name": profile_get(user=request.user).display_name,
        "panels": panels_for("home", request, today),
    }
    return render(request, "zeus/home.html", context)


@login_required
def inbox(request):
    notifications = list(notification_list(user=request.user)[:INBOX_SIZE])
    unread = sum(1 for n in notifications if n.read_at is None)
    # Other apps' panels above the notifications: the ledger's transfer suggestions, each one tap away.
    panels = panels_for("inbox", request, user_today(request.user))
    return render(
        request, "zeus/inbox.html", {"notifications": notifications, "unread_shown": unread, "panels": panels}
    )


@login_required
def inbox_feed(request):
    """The inbox as JSON for the page's live refresh: the newest notifications and the unread count."""
    notifications = notification_list(user=request.user)[:INBOX_SIZE]
    return JsonResponse(
        {
            "unread": notification_unread_count(user=request.user),
            "results": [notification_to_dict(n) for n in notifications],
        }
    )


def _safe_next(request, url: str, default: str) -> str:
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=False):
        return url
    return default


@login_required
@require_POST
def inbox_open(request, notification_id: int):
    """Marks one read and follows its link (an insight opens the chat with its prompt)."""
    try:
        note = notification_mark_read(user=request.user, notification_id=notification_id)
    except NotFound:
        messages.error(request, _("That notification does not exist."))
        return HttpResponseRedirect("/inbox")
    if request.POST.get("open") and note.words.cta_url:
        return HttpResponseRedirect(_safe_next(request, note.words.cta_url, "/inbox"))
    return HttpResponseRedirect("/inbox")


@login_required
@require_POST
def inbox_read_all(request):
    count = notification_mark_all_read(user=request.user)
    if count:
        messages.success(request, _("All notifications marked read."))
    return HttpResponseRedirect("/inbox")


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    profile = profile_get(user=request.user)
    form = ProfileForm(request.POST or None, initial=ProfileForm.initial_for(profile))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                profile_update(user=request.user, **form.service_values())
            except ZeusError as exc:
                add_service_error(form, exc, fields_map={"timezone_name": "timezone"})
            else:
                # The confirmation is written in the language just chosen.
                with translation.override(form.cleaned_data["language"]):
                    messages.success(request, _("Settings saved."))
                return HttpResponseRedirect("/settings")
        status = 400
    today = user_today(request.user)
    return render(
        request,
        "zeus/settings.html",
        {"form": form, "panels": panels_for("settings", request, today), "timezones": timezone_choices()},
        status=status,
    )


urlpatterns = [
    path("", home, name="home"),
    *page_paths("inbox", inbox, name="inbox"),
    path("inbox/feed", inbox_feed, name="inbox-feed"),
    path("inbox/read-all", inbox_read_all, name="inbox-read-all"),
    path("inbox/<int:notification_id>/read", inbox_open, name="inbox-read"),
    *page_paths("settings", settings_page, name="settings"),
]
