"""Support staff read who agreed to which version of the model-provider consent and when, in the admin, and
can change nothing: the record is the user's decisions (zeus/consent.py)."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests import factories
from zeus import consent
from zeus.models import ModelConsent
from zeus.services import consent_record

pytestmark = pytest.mark.django_db

URL = "/admin/zeus/modelconsent/"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_support_reads_each_decision_with_its_version_and_time(alice, bob, staff):
    consent_record(user=alice, granted=False)  # alice agreed when made (factories.user), then withdrew
    page = _client(staff).get(URL, {"q": "alice"})
    assert page.status_code == 200
    rows = [(c.user.username, c.granted, c.version) for c in page.context["cl"].result_list]
    assert rows == [("alice", False, consent.CONSENT_VERSION), ("alice", True, consent.CONSENT_VERSION)]
    withdrawal = ModelConsent.objects.filter(user=alice).latest("id")
    detail = _client(staff).get(f"{URL}{withdrawal.pk}/change/")
    assert detail.status_code == 200
    html = detail.content.decode()
    assert "alice" in html and 'name="granted"' not in html and 'name="_save"' not in html


def test_nobody_adds_edits_or_deletes_a_decision_not_even_a_superuser(alice, staff):
    decision = ModelConsent.objects.get(user=alice)
    client = _client(staff)
    assert client.get(f"{URL}add/").status_code == 403
    assert client.post(f"{URL}add/", {"user": alice.pk, "granted": "on", "version": "1"}).status_code == 403
    assert client.post(f"{URL}{decision.pk}/change/", {"granted": ""}).status_code == 403
    assert client.post(f"{URL}{decision.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = client.post(URL, {"action": "delete_selected", "_selected_action": [decision.pk], "post": "yes"})
    assert bulk.status_code in (200, 302)
    assert list(ModelConsent.objects.filter(user=alice).values_list("granted", "version")) == [
        (True, consent.CONSENT_VERSION)
    ]


def test_staff_with_only_the_view_permission_read_it_too(alice):
    helpdesk = factories.user("helpdesk", is_staff=True)
    helpdesk.user_permissions.add(Permission.objects.get(codename="view_modelconsent"))
    client = _client(helpdesk)
    assert client.get(URL).status_code == 200
    assert client.get(f"{URL}{ModelConsent.objects.get(user=alice).pk}/change/").status_code == 200
