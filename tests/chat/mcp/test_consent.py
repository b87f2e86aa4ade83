"""MCP tool calls are refused with CONSENT_REQUIRED while the user's consent to the model provider does not
hold (zeus/consent.py): what a tool returns goes to the MCP client's own model."""

import pytest

from assets.models import Transaction
from tests import factories
from tests.chat.mcp.helpers import output, token_for
from zeus.services import consent_record

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def carol(db):
    return factories.user("carol", consent=False)


def test_mcp_tool_calls_are_refused_without_consent(carol, mcp):
    factories.txn(carol, description="Phở Hòa")
    token = token_for(carol)
    listed = mcp.run(token, lambda session: session.list_tools())
    assert "list_transactions" in {tool.name for tool in listed.tools}
    read, write = mcp.calls(
        token,
        ("list_transactions", {}),
        ("create_manual_transaction", {"amount": "150k", "description": "KFC", "asset_id": None}),
    )
    for result in (read, write):
        assert result.is_error and output(result)["error"]["code"] == "CONSENT_REQUIRED"
    assert "Phở Hòa" not in read.content[0].text
    assert Transaction.objects.filter(user=carol).count() == 1

    consent_record(user=carol, granted=True)
    (read,) = mcp.calls(token, ("list_transactions", {}))
    assert not read.is_error and "Phở Hòa" in read.content[0].text
    consent_record(user=carol, granted=False)
    (read,) = mcp.calls(token, ("list_transactions", {}))
    assert output(read)["error"]["code"] == "CONSENT_REQUIRED"
