"""Consent to send ledger data to the model provider (CONTRACT §10, docs/consent.md).

The chat's assistant works by sending the user's messages and the ledger records its tools read to Anthropic's
model; Vietnam's personal-data law (Law 91/2025/QH15) names financial data as sensitive, so nothing is sent
before the user agrees to this text. The text is versioned: changing what it says (what is sent, to whom)
means a new CONSENT_VERSION, and everyone is asked again. tests/zeus/test_consent.py pins the text to its
version, so the text cannot change under a version people already agreed to.
"""

from django.utils.translation import gettext_lazy as _

CONSENT_VERSION = 1

CONSENT_TITLE = _("Before the assistant answers: your consent")
CONSENT_PARAGRAPHS = (
    _(
        "To answer you, Zeus's assistant sends your messages in the conversation, and the records of yours it "
        "looks up for them (transactions, balances, accounts, budgets, goals, plans, debts and suggestions, with "
        "their amounts, dates, descriptions and categories), to Anthropic, PBC, a company in the United States "
        "that runs the Claude model."
    ),
    _(
        "With them go your currency, time zone, language and today's date. Your password and sign-in details are "
        "never sent. Anthropic uses what it receives to write each reply."
    ),
    _(
        "Without your consent the assistant does not answer and nothing is sent; the rest of Zeus works as "
        "before. You can withdraw at any time in Settings, and under each reply you can read what was sent for it."
    ),
)

# Turn and MCP refusals (the error frame and the tool error) carry this code and message.
CONSENT_REQUIRED = "CONSENT_REQUIRED"
CONSENT_REQUIRED_MESSAGE = _(
    "The assistant needs your consent before it sends anything to the model provider: agree on the chat page "
    "or in Settings."
)


def consent_holds(granted: bool | None, version: int | None) -> bool:
    """What the newest decision says now: granted, for the text in force (a new version asks again). The one
    reading of a decision, for every reader of the newest row (zeus.selectors, the chat turn's account read)."""
    return bool(granted) and version == CONSENT_VERSION


def consent_text() -> str:
    """The current version's whole text in the active language."""
    return "\n\n".join(str(p) for p in (CONSENT_TITLE, *CONSENT_PARAGRAPHS))
