from django.urls import path

from chat import api

urlpatterns = [
    path("chat/threads", api.ThreadListView.as_view()),
    path("chat/threads/<str:thread_id>/messages", api.MessageListView.as_view()),
    path("chat/threads/<str:thread_id>/messages/<str:message_id>/sent", api.SentToModelView.as_view()),
    path("chat/provider-key", api.ProviderKeyView.as_view()),
]
