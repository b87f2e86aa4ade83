"""The `zeus` part of the API: the profile, the notifications inbox (tokens: zeus/accounts/api.py)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.query import FilterChoiceField, query_filters
from zeus.mail import email_preferences
from zeus.models import Notification
from zeus.selectors import notification_list, profile_get
from zeus.services import notification_mark_all_read, notification_mark_read, profile_update


class EmailNotificationsSerializer(serializers.Serializer):
    plan_reminder = serializers.BooleanField()
    insight = serializers.BooleanField()
    weekly_digest = serializers.BooleanField()


class ProfileView(APIView):
    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(source="user.username")
        display_name = serializers.CharField()
        currency = serializers.CharField()
        timezone = serializers.CharField()
        language = serializers.CharField()
        email_notifications = serializers.SerializerMethodField()

        @extend_schema_field(EmailNotificationsSerializer)
        def get_email_notifications(self, profile) -> dict:
            return email_preferences(profile)

    class InputSerializer(serializers.Serializer):
        display_name = serializers.CharField(max_length=100, required=False, allow_blank=True)
        currency = serializers.CharField(max_length=3, required=False)
        timezone = serializers.CharField(max_length=64, required=False)
        language = serializers.CharField(max_length=8, required=False)
        # Checked by the service: only the known kinds, each true or false; the others keep their value.
        email_notifications = serializers.JSONField(required=False)

    @extend_schema(responses=OutputSerializer)
    def get(self, request):
        return Response(self.OutputSerializer(profile_get(user=request.user)).data)

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def patch(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        profile = profile_update(
            user=request.user,
            currency=values.get("currency"),
            timezone_name=values.get("timezone"),
            display_name=values.get("display_name"),
            language=values.get("language"),
            email_notifications=values.get("email_notifications"),
        )
        return Response(self.OutputSerializer(profile).data)


class NotificationSerializer(serializers.ModelSerializer):
    # In the reader's language, made when read where the kind keeps its facts (zeus/wording.py).
    title = serializers.CharField(source="words.title", read_only=True)
    body = serializers.CharField(source="words.body", read_only=True)
    cta_url = serializers.CharField(source="words.cta_url", read_only=True)

    class Meta:
        model = Notification
        fields = ["id", "kind", "title", "body", "cta_url", "read_at", "created_at"]


_ONLY_UNREAD = ("1", "true")


class NotificationListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class FilterSerializer(serializers.Serializer):
        # "0" and "false" were always read as "all of them"; they stay valid so no client breaks.
        unread = FilterChoiceField([*_ONLY_UNREAD, "0", "false"])

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "unread", str, enum=[*_ONLY_UNREAD, "0", "false"], description="1 or true: only unread ones."
            )
        ],
        responses=NotificationSerializer(many=True),
    )
    def get(self, request):
        unread = query_filters(self.FilterSerializer, request).get("unread")
        qs = notification_list(user=request.user, unread=True if unread in _ONLY_UNREAD else None)
        return paginate(request=request, view=self, queryset=qs, serializer_class=NotificationSerializer)


class NotificationReadView(APIView):
    @extend_schema(request=None, responses=NotificationSerializer)
    def post(self, request, notification_id: int):
        notification = notification_mark_read(user=request.user, notification_id=notification_id)
        return Response(NotificationSerializer(notification).data)


class NotificationReadAllView(APIView):
    @extend_schema(request=None, responses=inline_serializer("ReadAll", {"marked": serializers.IntegerField()}))
    def post(self, request):
        return Response({"marked": notification_mark_all_read(user=request.user)}, status=status.HTTP_200_OK)
