from django.urls import path

from zeus.accounts import api as accounts_api
from zeus.api import views

urlpatterns = [
    path("auth/token", accounts_api.TokenView.as_view()),
    path("auth/tokens", accounts_api.DeviceTokenListView.as_view()),
    path("auth/tokens/<int:token_id>", accounts_api.DeviceTokenView.as_view()),
    path("profile", views.ProfileView.as_view()),
    path("notifications", views.NotificationListView.as_view()),
    path("notifications/read-all", views.NotificationReadAllView.as_view()),
    path("notifications/<int:notification_id>/read", views.NotificationReadView.as_view()),
]
