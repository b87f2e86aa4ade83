from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AssetsConfig(AppConfig):
    name = "assets"
    verbose_name = _("Accounts and money")

    def ready(self):
        from assets import account_data, home
        from assets.landing import synced_words
        from assets.ledger.pairing import transfer_suggestions_words
        from assets.ledger_pages import transfer_suggestions_panel
        from zeus.panels import Panel, register
        from zeus.wording import notification_writer_register

        # The ledger's notices are worded when read, in the reader's language and locale.
        notification_writer_register(kind="transaction_synced", writer=synced_words)
        notification_writer_register(kind="transfer_suggestions", writer=transfer_suggestions_words)

        register(Panel("home", "net-worth", 10, "assets/home/net_worth.html", home.net_worth_panel))
        register(Panel("home", "this-month", 20, "assets/home/this_month.html", home.this_month_panel))
        register(
            Panel(
                "inbox",
                "transfer-suggestions",
                10,
                "assets/ledger/transfer_suggestions.html",
                transfer_suggestions_panel,
            )
        )
        account_data.register_all()
