"""The consent to send ledger data to the model provider, as pages (zeus/consent.py): the form the chat page
and the settings panel both post to, so agreeing, declining and withdrawing work without JavaScript."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.urls import path
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from zeus import consent
from zeus.formatting import moment_text
from zeus.selectors import consent_state, profile_get
from zeus.services import consent_record

DECISIONS = {"agree": True, "decline": False}


def consent_context(request, today=None) -> dict:
    """What the consent form shows: the text in force, the newest decision and when it was made."""
    state = consent_state(user_id=request.user.id)
    decided = moment_text(state.decided_at, tz=profile_get(user=request.user).tz) if state.decided_at else None
    return {
        "consent": state,
        "consent_given": state.given,
        "consent_outdated": state.granted and state.version != consent.CONSENT_VERSION,
        "consent_decided": decided,
        "consent_title": consent.CONSENT_TITLE,
        "consent_paragraphs": consent.CONSENT_PARAGRAPHS,
        "consent_version": consent.CONSENT_VERSION,
    }


@login_required
@require_POST
def consent_decide(request):
    decision = request.POST.get("decision")
    if decision not in DECISIONS:
        messages.error(request, _("Choose to agree or to decline."))
    else:
        consent_record(user=request.user, granted=DECISIONS[decision])
        if DECISIONS[decision]:
            messages.success(request, _("Thank you: the assistant may now answer you."))
        else:
            messages.success(request, _("Nothing of yours will be sent to the model; the assistant stays off."))
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        target = "/settings#consent"
    return HttpResponseRedirect(target)


urlpatterns = [path("settings/consent", consent_decide, name="consent")]
