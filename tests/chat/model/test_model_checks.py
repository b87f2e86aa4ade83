"""A configured model the SDK lists as deprecated or retired is warned about, with its date and successor:
in `manage.py check`, on the admin index and in the log at start-up. A bad price table is an error."""

import datetime as dt
import io

import anthropic
import pytest
from django.core.management import call_command
from django.test import Client

from chat import checks
from chat.model_lifecycle import SUCCESSORS, end_of_life_date, model_notice

TODAY = dt.date(2026, 12, 1)


def test_the_sdk_in_requirements_knows_the_55_models_and_lists_sonnet_45_as_ending():
    major, minor = (int(p) for p in anthropic.__version__.split(".")[:2])
    assert (major, minor) >= (2, 14)
    notice = model_notice("ZEUS_MODEL", "claude-sonnet-4-5", today=TODAY)
    assert notice.end_of_life == dt.date(2026, 11, 30)
    assert notice.retired and notice.successor == "claude-sonnet-5-5"
    assert model_notice("ZEUS_MODEL", "claude-sonnet-5-5", today=TODAY) is None
    assert model_notice("ZEUS_ROUTER_MODEL", "claude-haiku-5-5", today=TODAY) is None


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("November 30th, 2026", dt.date(2026, 11, 30)),
        ("January 22nd, 2027", dt.date(2027, 1, 22)),
        ("June 1st, 2026", dt.date(2026, 6, 1)),
        ("March 3rd, 2027", dt.date(2027, 3, 3)),
        ("sometime soon", None),
        ("February 30th, 2027", None),
    ],
)
def test_it_reads_the_sdks_dates(text, date):
    assert end_of_life_date(text) == date


def test_a_model_before_its_date_is_deprecated_and_after_it_retired():
    table = {"claude-old": "January 22nd, 2027"}
    before = model_notice("ZEUS_ROUTER_MODEL", "claude-old", today=dt.date(2027, 1, 21), table=table)
    after = model_notice("ZEUS_ROUTER_MODEL", "claude-old", today=dt.date(2027, 1, 22), table=table)
    assert not before.retired and "deprecated; it retires on 2027-01-22" in before.message
    assert after.retired and "retired on 2027-01-22" in after.message
    assert "Choose a current model for ZEUS_ROUTER_MODEL" in after.message


def test_every_successor_is_a_model_the_sdk_does_not_list():
    from zeus.adapters import sdk_deprecated_models

    assert not set(SUCCESSORS.values()) & set(sdk_deprecated_models())


def test_manage_py_check_warns_about_a_retired_model_with_its_date_and_successor(settings):
    settings.ZEUS_MODEL = "claude-sonnet-4-5"
    out = io.StringIO()
    call_command("check", stdout=out, stderr=out)
    text = out.getvalue()
    assert "chat.W00" in text
    assert "claude-sonnet-4-5" in text and "2026-11-30" in text and "ZEUS_MODEL=claude-sonnet-5-5" in text


def test_the_defaults_raise_no_model_warning():
    assert [m for m in checks.check_models() if m.id.startswith("chat.")] == []


@pytest.mark.django_db
def test_the_admin_index_shows_the_warning(staff, settings):
    settings.ZEUS_ROUTER_MODEL = "claude-opus-4-5"
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/").content.decode()
    assert "data-model-warning" in page
    assert "ZEUS_ROUTER_MODEL is claude-opus-4-5" in page and "claude-opus-5-5" in page
    settings.ZEUS_ROUTER_MODEL = "claude-haiku-5-5"
    assert "data-model-warning" not in client.get("/admin/").content.decode()


def test_an_unparseable_price_table_is_a_check_error(settings):
    settings.ZEUS_MODEL_PRICES = '{"claude-sonnet-5-5": {"input": "2"}}'
    assert [m.id for m in checks.check_prices()] == ["chat.E001"]
    settings.ZEUS_MODEL_PRICES = "not json"
    assert [m.id for m in checks.check_prices()] == ["chat.E001"]
    settings.ZEUS_MODEL_PRICES = ""
    assert checks.check_prices() == []


@pytest.mark.parametrize(("raw", "ok"), [("", True), ("0.50", True), ("0", True), ("-1", False), ("lots", False)])
def test_a_money_budget_that_is_no_amount_is_a_check_error(settings, raw, ok):
    settings.ZEUS_DAILY_COST_BUDGET_USD = raw
    assert (checks.check_cost_budget() == []) is ok


def test_the_app_logs_a_retired_model_when_it_starts(settings, caplog):
    from django.apps import apps

    settings.ZEUS_MODEL = "claude-sonnet-4-5"
    with caplog.at_level("WARNING", logger="chat"):
        apps.get_app_config("chat").ready()
    assert "ZEUS_MODEL is claude-sonnet-4-5, which is retired on 2026-11-30" in caplog.text
