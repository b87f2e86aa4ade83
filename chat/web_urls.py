from django.urls import path

from chat import web
from zeus.forms import page_paths

urlpatterns = [
    *page_paths("chat", web.chat_page, name="chat"),
    path("chat/<uuid:thread_id>", web.chat_page, name="chat-thread"),
]
