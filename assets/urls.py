from django.urls import path

from assets import api, import_api, transactions_api
from assets.banktexts import api as banktexts_api
from assets.captures import api as captures_api
from assets.feeds import api as feeds_api
from assets.feeds import casso_api
from assets.feeds.webhook import sepay_webhook
from assets.ledger import api as ledger_api
from assets.rules import api as rules_api
from assets.vietqr import api as vietqr_api

urlpatterns = [
    path("assets", api.AssetListView.as_view()),
    path("assets/<int:asset_id>", api.AssetDetailView.as_view()),
    path("assets/<int:asset_id>/reconcile", ledger_api.AssetReconcileView.as_view()),
    path("linked-accounts", api.LinkedAccountListView.as_view()),
    path("transactions", transactions_api.TransactionListView.as_view()),
    path("transactions/import", import_api.TransactionImportView.as_view()),
    path("transactions/<int:transaction_id>/file", captures_api.TransactionFileView.as_view()),
    path("captures", captures_api.CaptureListView.as_view()),
    path("captures/<int:capture_id>", captures_api.CaptureDetailView.as_view()),
    path("captures/<int:capture_id>/file", captures_api.CaptureFileView.as_view()),
    path("captures/<int:capture_id>/import", captures_api.CaptureImportView.as_view()),
    path("captures/<int:capture_id>/discard", captures_api.CaptureDiscardView.as_view()),
    path("transactions/<int:transaction_id>", transactions_api.TransactionDetailView.as_view()),
    path("transactions/<int:transaction_id>/split", ledger_api.TransactionSplitView.as_view()),
    path("transfers", ledger_api.TransferListView.as_view()),
    path("transfers/suggestions", ledger_api.TransferSuggestionListView.as_view()),
    path("transfers/suggestions/<int:transfer_id>/accept", ledger_api.TransferSuggestionAcceptView.as_view()),
    path("transfers/suggestions/<int:transfer_id>/reject", ledger_api.TransferSuggestionRejectView.as_view()),
    path("transfers/<int:transfer_id>", ledger_api.TransferDetailView.as_view()),
    path("imports", ledger_api.ImportBatchListView.as_view()),
    path("imports/<int:batch_id>", ledger_api.ImportBatchDetailView.as_view()),
    path("categories", ledger_api.CategoryListView.as_view()),
    path("categories/<str:category_id>", ledger_api.CategoryDetailView.as_view()),
    path("rates", ledger_api.RateListView.as_view()),
    path("rules", rules_api.RuleListView.as_view()),
    path("rules/<int:rule_id>", rules_api.RuleDetailView.as_view()),
    path("integrations/sepay", feeds_api.ConnectionListView.as_view()),
    path("integrations/sepay/<int:connection_id>", feeds_api.ConnectionDetailView.as_view()),
    path("integrations/sepay/webhook/<str:token>", sepay_webhook),
    path("integrations/casso", casso_api.CassoConnectionListView.as_view()),
    path("integrations/casso/<int:connection_id>", casso_api.CassoConnectionDetailView.as_view()),
    path("integrations/casso/webhook/<str:token>", casso_api.casso_webhook),
    path("integrations/sepay/<int:connection_id>/api-key", casso_api.FeedApiKeyView.as_view(provider="sepay")),
    path("integrations/casso/<int:connection_id>/api-key", casso_api.FeedApiKeyView.as_view(provider="casso")),
    path("bank-texts", banktexts_api.BankTextListView.as_view()),
    path("bank-texts/<int:draft_id>", banktexts_api.BankTextDetailView.as_view()),
    path("bank-texts/<int:draft_id>/confirm", banktexts_api.BankTextConfirmView.as_view()),
    path("bank-texts/<int:draft_id>/discard", banktexts_api.BankTextDiscardView.as_view()),
    path("vietqr/parse", vietqr_api.VietQRParseView.as_view()),
]
