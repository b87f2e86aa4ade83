from django.urls import path

from chat import sent_pages, web
from zeus.forms import page_paths

urlpatterns = [
    *page_paths("chat", web.chat_page, name="chat"),
    path("chat/<uuid:thread_id>", web.chat_page, name="chat-thread"),
    path("chat/<uuid:thread_id>/messages/<int:message_id>/sent", sent_pages.sent_page, name="chat-sent"),
]
