from django.contrib import admin, messages

from suggestions.models import Suggestion
from suggestions.services import insights_generate


@admin.register(Suggestion)
class SuggestionAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "status", "user", "created_at")
    list_filter = ("kind", "status")
    search_fields = ("title", "body", "dedupe_key", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("dedupe_key", "payload", "created_at", "updated_at")
    date_hierarchy = "created_at"
    actions = ["run_insights"]

    @admin.action(description="Run insights for these users now")
    def run_insights(self, request, queryset):
        user_ids = sorted(set(queryset.values_list("user_id", flat=True)))
        created = insights_generate(user_ids=user_ids)
        self.message_user(
            request, f"Ran insights for {len(user_ids)} user(s): {created} new insight(s).", messages.SUCCESS
        )
