"""The support team's chat manager (docs/contract/admin.md, docs/support.md): threads read as a conversation, the staff
reply behind its own permission, the run audit with its usage summary, and the daily token budgets."""

import datetime as dt

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from chat import limits
from chat.admin_display import message_view
from chat.admin_reply import admin_reply_send, may_reply
from chat.models import AdminReply, DailyUsage, ModelCall, Thread, TokenBudget, ToolCall, TurnRun
from chat.selectors import daily_usage_summary, usage_totals
from chat.usage import (
    daily_usage_reset,
    effective_budget,
    effective_cost_budget,
    token_budget_set,
    usage_status,
)
from zeus.admin import RecordInline
from zeus.errors import ZeusError
from zeus.timeutil import user_today

# A thread page renders at most this many of the newest messages.
THREAD_PAGE_MESSAGES = 300
SUMMARY_DEFAULT_DAYS = 7


def _thread_link(thread_id):
    if thread_id is None:
        return "—"
    return format_html('<a href="{}">{}</a>', reverse("admin:chat_thread_change", args=[thread_id]), thread_id)


def _budget_text(budget: int, override: bool) -> str:
    amount = "unlimited" if budget == 0 else f"{budget:,}"
    return f"{amount} ({'override' if override else 'default'})"


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReplyForm(forms.Form):
    prompt = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        max_length=limits.MAX_TEXT,
        label=capfirst(_("prompt")),
        help_text=_(
            "Steers one model call. It is never stored as a message or shown to the user; "
            "the audit log keeps it for staff."
        ),
    )


@admin.register(Thread)
class ThreadAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "user", "message_count", "last_activity_at", "created_at")
    list_select_related = ("user",)
    list_filter = (("last_activity_at", admin.DateFieldListFilter), ("created_at", admin.DateFieldListFilter))
    search_fields = ("user__username", "user__email", "title", "=id")
    date_hierarchy = "last_activity_at"
    readonly_fields = ("id", "user", "title", "created_at", "last_activity_at", "runs_link")
    fields = readonly_fields
    change_form_template = "admin/chat/thread/change_form.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(message_total=Count("messages"))

    @admin.display(description=_("messages"), ordering="message_total")
    def message_count(self, obj):
        return obj.message_total

    @admin.display(description=_("Run audit"))
    def runs_link(self, obj):
        url = reverse("admin:chat_turnrun_changelist") + f"?thread__exact={obj.pk}"
        return format_html('<a href="{}">Turns of this thread</a>', url)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        thread = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if thread is not None:
            # With what each reply sent to the model (one join, not a query per message).
            newest = list(thread.messages.select_related("sent_to_model").order_by("-id")[:THREAD_PAGE_MESSAGES])
            used, budget = usage_status(user_id=thread.user_id, day=user_today(thread.user))
            extra.update(
                conversation=[message_view(m) for m in reversed(newest)],
                truncated=len(newest) == THREAD_PAGE_MESSAGES,
                can_reply=may_reply(request.user),
                reply_form=ReplyForm(),
                reply_url=reverse("admin:chat_thread_reply", args=[thread.pk]),
                usage_today=used,
                budget=budget,
                replies=list(thread.admin_replies.select_related("staff")[:20]),
            )
        return super().change_view(request, object_id, form_url, extra)

    def get_urls(self):
        reply = self.admin_site.admin_view(self.reply_view)
        return [path("<uuid:thread_id>/reply/", reply, name="chat_thread_reply"), *super().get_urls()]

    def reply_view(self, request, thread_id):
        thread = get_object_or_404(Thread.objects.select_related("user"), pk=thread_id)
        if not (self.has_view_permission(request, thread) and may_reply(request.user)):
            raise PermissionDenied
        form = ReplyForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                admin_reply_send(staff_user=request.user, thread_id=thread.pk, prompt=form.cleaned_data["prompt"])
            except ZeusError as exc:
                form.add_error("prompt", f"{exc.message} ({exc.code})")
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


class ModelCallInline(RecordInline):
    model = ModelCall
    fields = (
        "seq",
        "purpose",
        "model",
        "duration_ms",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "cost_usd",
        "stop_reason",
        "error",
    )
    readonly_fields = fields


class ToolCallInline(RecordInline):
    model = ToolCall
    fields = ("seq", "name", "call_id", "duration_ms", "is_error", "error_code")
    readonly_fields = fields


class SummaryForm(forms.Form):
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    user = forms.CharField(required=False, label="Username contains")


@admin.register(TurnRun)
class TurnRunAdmin(ReadOnlyAdmin):
    list_display = (
        "started_at",
        "user",
        "thread_link",
        "workflow",
        "decided_by",
        "outcome",
        "error_code",
        "duration_ms",
        "model_calls",
        "tool_calls",
        "tool_errors",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "cost_usd",
        "unverified_count",
        "admin_initiated",
    )
    list_select_related = ("user",)
    list_filter = (
        "outcome",
        "error_code",
        "workflow",
        "decided_by",
        "admin_initiated",
        ("started_at", admin.DateFieldListFilter),
        "day",
    )
    search_fields = ("user__username",)
    date_hierarchy = "started_at"
    inlines = [ModelCallInline, ToolCallInline]
    readonly_fields = (
        "user",
        "thread_link",
        "user_message",
        "assistant_message",
        "admin_initiated",
        "day",
        "workflow",
        "decided_by",
        "started_at",
        "finished_at",
        "duration_ms",
        "outcome",
        "error_code",
        "model_calls",
        "tool_calls",
        "tool_errors",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "cost_usd",
        "unverified_figures",
    )
    fields = readonly_fields
    change_list_template = "admin/chat/turnrun/change_list.html"

    @admin.display(description=_("thread"))
    def thread_link(self, obj):
        return _thread_link(obj.thread_id)

    def get_urls(self):
        summary = self.admin_site.admin_view(self.summary_view)
        return [path("usage/", summary, name="chat_turnrun_usage"), *super().get_urls()]

    def summary_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = SummaryForm(request.GET or None)
        today = timezone.localdate()
        since, until, username = today - dt.timedelta(days=SUMMARY_DEFAULT_DAYS - 1), today, ""
        if form.is_valid():
            since = form.cleaned_data["since"] or since
            until = form.cleaned_data["until"] or until
            username = form.cleaned_data["user"].strip()
        rows = daily_usage_summary(since=since, until=until, username=username)
        changelist = reverse("admin:chat_turnrun_changelist")
        for row in rows:
            row["runs_url"] = f"{changelist}?user__exact={row['user_id']}&day={row['day'].isoformat()}"
        days, total = usage_totals(rows)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Daily usage per user",
            "form": form,
            "rows": rows,
            "days": days,
            "total": total,
            "since": since,
            "until": until,
        }
        return TemplateResponse(request, "admin/chat/turnrun/usage.html", context)


@admin.register(DailyUsage)
class DailyUsageAdmin(ReadOnlyAdmin):
    list_display = ("user", "day", "tokens", "budget", "cost_usd", "cost_budget", "reset_at")
    list_select_related = ("user", "user__chat_token_budget")
    list_filter = (("day", admin.DateFieldListFilter),)
    search_fields = ("user__username",)
    date_hierarchy = "day"
    actions = ["reset_usage"]

    @admin.display(description=_("budget"))
    def budget(self, obj):
        try:
            override = obj.user.chat_token_budget.daily_tokens
        except ObjectDoesNotExist:
            override = None
        return _budget_text(effective_budget(override), override is not None)

    @admin.display(description=_("money budget (USD)"))
    def cost_budget(self, obj):
        try:
            override = obj.user.chat_token_budget.daily_cost_usd
        except ObjectDoesNotExist:
            override = None
        budget = effective_cost_budget(override)
        amount = "unlimited" if not budget else f"{budget:.2f}"
        return f"{amount} ({'override' if override is not None else 'default'})"

    @admin.action(description=_("Reset the selected days' usage to zero"), permissions=["reset"])
    def reset_usage(self, request, queryset):
        count = daily_usage_reset(usage_ids=queryset.values_list("id", flat=True))
        self.message_user(request, f"Reset {count} day(s) of usage.", messages.SUCCESS)

    def has_reset_permission(self, request):
        return request.user.has_perm("chat.change_dailyusage")


class TokenBudgetForm(forms.ModelForm):
    class Meta:
        model = TokenBudget
        fields = ("user", "daily_tokens", "daily_cost_usd", "note")


@admin.register(TokenBudget)
class TokenBudgetAdmin(admin.ModelAdmin):
    form = TokenBudgetForm
    list_display = ("user", "daily_tokens", "daily_cost_usd", "note", "updated_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def get_readonly_fields(self, request, obj=None):
        return ("user",) if obj else ()

    def save_model(self, request, obj, form, change):
        saved = token_budget_set(
            user=obj.user, daily_tokens=obj.daily_tokens, daily_cost_usd=obj.daily_cost_usd, note=obj.note
        )
        obj.pk = saved.pk if saved else None

    def delete_model(self, request, obj):
        token_budget_set(user=obj.user, daily_tokens=None)


@admin.register(AdminReply)
class AdminReplyAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "staff", "user", "thread_link", "message_column", "error_code", "prompt_excerpt")
    list_select_related = ("staff", "user")
    list_filter = (("created_at", admin.DateFieldListFilter), "error_code")
    search_fields = ("user__username", "staff__username")
    readonly_fields = ("created_at", "staff", "user", "thread_link", "message_id", "error_code", "prompt")
    fields = readonly_fields

    @admin.display(description=_("message"), ordering="message")
    def message_column(self, obj):
        return obj.message_id

    @admin.display(description=_("thread"))
    def thread_link(self, obj):
        return _thread_link(obj.thread_id)

    @admin.display(description=_("prompt"))
    def prompt_excerpt(self, obj):
        return obj.prompt if len(obj.prompt) <= 80 else obj.prompt[:79] + "…"
