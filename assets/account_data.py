"""What the ledger keeps for a user, declared for the account's export, restore and erasure (zeus/account_data)."""

from assets.csv_export import ledger_csv
from zeus.account_data.registry import ExportFile, Record, register, register_file

# A feed connection leaves without its URL's token and its secrets: restored, it could not authenticate a
# delivery, so the user connects the feed again instead.
_FEED_SECRETS = ("token", "secret_encrypted", "api_token_encrypted", "api_key_encrypted")

RECORDS = [
    Record("assets.LinkedAccount", "user"),
    Record("assets.Asset", "user"),
    Record("assets.Transaction", "user"),
    Record("assets.TransactionSplit", "transaction__user"),
    Record("assets.Transfer", "user"),
    Record("assets.RejectedPair", "user"),
    Record("assets.UserCategory", "user"),
    Record("assets.ImportBatch", "user"),
    Record("assets.ImportMapping", "user"),
    Record("assets.CategoryRule", "user"),
    Record("assets.BankTextDraft", "user"),
    # A capture's file stays in the storage it was saved to; the archive names it but does not carry it.
    Record("assets.Capture", "user", restored=False),
    Record("assets.ExchangeRate", "user"),
    Record("assets.SepayConnection", "user", omit=_FEED_SECRETS[:3], restored=False, webhook_token="token"),
    Record(
        "assets.CassoConnection",
        "user",
        omit=(_FEED_SECRETS[0], _FEED_SECRETS[1], _FEED_SECRETS[3]),
        restored=False,
        webhook_token="token",
    ),
]


def register_all() -> None:
    for record in RECORDS:
        register(record)
    register_file(ExportFile("csv/transactions.csv", ledger_csv))
