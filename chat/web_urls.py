from django.urls import path

from chat import web

urlpatterns = [
    path("chat", web.chat_page, name="chat"),
    path("chat/<uuid:thread_id>", web.chat_page, name="chat-thread"),
]
