from django.urls import path

from zeus.account_data import api as account_data
from zeus.accounts import api as accounts_api
from zeus.api import consent, push, views

urlpatterns = [
    path("auth/token", accounts_api.TokenView.as_view()),
    path("auth/tokens", accounts_api.DeviceTokenListView.as_view()),
    path("auth/tokens/<int:token_id>", accounts_api.DeviceTokenView.as_view()),
    path("account/consent", consent.ConsentView.as_view()),
    path("profile", views.ProfileView.as_view()),
    path("notifications", views.NotificationListView.as_view()),
    path("notifications/read-all", views.NotificationReadAllView.as_view()),
    path("notifications/<int:notification_id>/read", views.NotificationReadView.as_view()),
    path("push/subscriptions", push.PushSubscriptionsView.as_view()),
    path("account/export", account_data.AccountExportView.as_view()),
    path("account/exports", account_data.AccountExportListView.as_view()),
    path("account/exports/<uuid:export_id>/download", account_data.AccountExportDownloadView.as_view()),
    path("account/import", account_data.AccountImportView.as_view()),
    path("account/delete", account_data.AccountDeleteView.as_view()),
    path("account/delete/cancel", account_data.AccountDeleteCancelView.as_view()),
]
