"""Staff view of chat threads, and the staff reply (CONTRACT §3.6): a prompt that steers one model call."""

from django import forms
from django.contrib import admin, messages
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from chat.models import Message, Thread
from chat.services import admin_reply_generate
from zeus.errors import ZeusError


class MessageInline(admin.TabularInline):
    model = Message
    fields = ("created_at", "role", "parts", "metadata")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("id",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ReplyForm(forms.Form):
    prompt = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        max_length=4000,
        help_text="Steers one model call; it is never stored or shown to the user.",
    )


@admin.register(Thread)
class ThreadAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "title", "last_activity_at", "created_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "title")
    readonly_fields = ("id", "user", "title", "created_at", "last_activity_at", "reply_link")
    fields = readonly_fields
    inlines = [MessageInline]

    def has_add_permission(self, request):
        return False

    @admin.display(description="Staff reply")
    def reply_link(self, obj):
        return format_html(
            '<a href="{}">Generate an assistant reply…</a>', reverse("admin:chat_thread_reply", args=[obj.pk])
        )

    def get_urls(self):
        reply = self.admin_site.admin_view(self.reply_view)
        return [path("<uuid:thread_id>/reply/", reply, name="chat_thread_reply"), *super().get_urls()]

    def reply_view(self, request, thread_id):
        thread = get_object_or_404(Thread.objects.select_related("user"), pk=thread_id)
        if not self.has_view_permission(request, thread):
            return redirect("admin:index")
        form = ReplyForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                admin_reply_generate(staff_user=request.user, thread_id=thread.pk, prompt=form.cleaned_data["prompt"])
            except ZeusError as exc:
                form.add_error("prompt", exc.message)
            else:
                messages.success(request, "The reply was generated and sent to the user.")
                return redirect("admin:chat_thread_change", thread.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": thread,
            "form": form,
            "title": f"Generate a reply in {thread}",
        }
        return TemplateResponse(request, "admin/chat/thread/reply.html", context)
