"""/settings/notifications (which notifications also come by e-mail) and the one-click unsubscribe page,
which needs no login: the signed link is the authority (docs/mail.md)."""

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import re_path
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from zeus.i18n import user_language
from zeus.mail import KIND_LABELS, BadUnsubscribeLink, email_preferences, read_unsubscribe_token
from zeus.selectors import profile_get
from zeus.services import profile_update


class EmailNotificationsForm(forms.Form):
    plan_reminder = forms.BooleanField(required=False, label=gettext_lazy("Plan reminders"))
    insight = forms.BooleanField(
        required=False, label=gettext_lazy("Insights (unusual spending, price changes, bills due)")
    )
    weekly_digest = forms.BooleanField(required=False, label=gettext_lazy("The weekly review, on Sunday mornings"))


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request):
    profile = profile_get(user=request.user)
    form = EmailNotificationsForm(request.POST or None, initial=email_preferences(profile))
    if request.method == "POST" and form.is_valid():
        profile_update(user=request.user, email_notifications=form.cleaned_data)
        messages.success(request, _("Your e-mail settings are saved."))
        return redirect("/settings/notifications")
    return render(
        request,
        "zeus/settings_notifications.html",
        {"form": form, "has_email": bool(request.user.email), "email": request.user.email},
    )


@csrf_exempt  # mail clients POST the one-click unsubscribe (RFC 8058) with no session and no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request, user_id: str, token: str):
    user = get_user_model().objects.filter(id=int(user_id)).first()
    try:
        if user is None:
            raise BadUnsubscribeLink("No such user.")
        kind = read_unsubscribe_token(user_id=user.id, token=token)
    except BadUnsubscribeLink:
        return render(request, "zeus/unsubscribe.html", {"invalid": True}, status=400)
    done = request.method == "POST"
    if done:
        profile_update(user=user, email_notifications={kind: False})
    # The link names its reader, who may not be signed in on this browser: answer in the mail's language.
    with translation.override(user_language(user)):
        request.LANGUAGE_CODE = translation.get_language()
        return render(request, "zeus/unsubscribe.html", {"kind_label": KIND_LABELS[kind], "done": done})


urlpatterns = [
    re_path(r"^settings/notifications/?$", notification_settings),
    re_path(r"^unsubscribe/(?P<user_id>\d{1,18})/(?P<token>[A-Za-z0-9_\-:.]{1,500})/?$", unsubscribe),
]
