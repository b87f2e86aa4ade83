from django.urls import path

from zeus.api import consent, push, views

urlpatterns = [
    path("auth/token", views.TokenView.as_view()),
    path("account/consent", consent.ConsentView.as_view()),
    path("profile", views.ProfileView.as_view()),
    path("notifications", views.NotificationListView.as_view()),
    path("notifications/read-all", views.NotificationReadAllView.as_view()),
    path("notifications/<int:notification_id>/read", views.NotificationReadView.as_view()),
    path("push/subscriptions", push.PushSubscriptionsView.as_view()),
]
