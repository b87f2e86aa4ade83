import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS


def test_the_openapi_schema_is_valid_and_warning_free(tmp_path):
    GENERATOR_STATS.reset()
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    paths = yaml.safe_load(out.read_text())["paths"]
    for path in (
        "/api/v1/assets",
        "/api/v1/assets/{asset_id}",
        "/api/v1/linked-accounts",
        "/api/v1/transactions",
        "/api/v1/transactions/{transaction_id}",
        "/api/v1/transactions/import",
        "/api/v1/budgets",
        "/api/v1/budgets/{budget_id}",
        "/api/v1/goals",
        "/api/v1/goals/{goal_id}",
        "/api/v1/account/export",
        "/api/v1/account/exports",
        "/api/v1/account/exports/{export_id}/download",
        "/api/v1/account/import",
        "/api/v1/account/delete",
        "/api/v1/account/delete/cancel",
    ):
        assert path in paths
    listed = paths["/api/v1/transactions"]["get"]
    assert {p["name"] for p in listed["parameters"]} >= {"cursor", "page_size", "since", "until", "asset"}
    assert listed["responses"]["4XX"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")


@pytest.mark.django_db
def test_the_schema_and_the_docs_load(alice_api):
    schema = alice_api.get("/api/v1/schema")
    assert schema.status_code == 200
    assert b"/api/v1/transactions/import" in schema.content
    docs = alice_api.get("/api/v1/docs")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


@pytest.mark.django_db
def test_swagger_ui_comes_from_this_origin_not_a_cdn(alice_api):
    import re

    from django.contrib.staticfiles import finders

    page = alice_api.get("/api/v1/docs").content.decode()
    assert "cdn.jsdelivr.net" not in page and "@latest" not in page
    assets = re.findall(r'(?:src|href)="(/static/drf_spectacular_sidecar/[^"]+)"', page)
    assert any(a.endswith("swagger-ui.css") for a in assets)
    assert all(finders.find(a.removeprefix("/static/")) for a in assets)
    script = alice_api.get("/api/v1/docs?script=").content.decode()
    assert "cdn.jsdelivr.net" not in script
