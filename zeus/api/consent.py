"""`/api/v1/account/consent`: whether the user agrees to their ledger data going to the model provider."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus import consent
from zeus.errors import ValidationFailed
from zeus.selectors import ConsentState, consent_state
from zeus.services import consent_record


class ConsentOutputSerializer(serializers.Serializer):
    model_provider = serializers.BooleanField(help_text="Consent holds now: granted, for the current version.")
    version = serializers.IntegerField(allow_null=True, help_text="The version the newest decision was about.")
    decided_at = serializers.DateTimeField(allow_null=True, help_text="When the newest decision was made.")
    current_version = serializers.IntegerField(help_text="The consent text in force; a new one asks again.")
    text = serializers.CharField(help_text="The current version's text, in the request's language.")


class ConsentInputSerializer(serializers.Serializer):
    model_provider = serializers.BooleanField()


def _state(state: ConsentState) -> dict:
    return ConsentOutputSerializer(
        {
            "model_provider": state.given,
            "version": state.version,
            "decided_at": state.decided_at,
            "current_version": consent.CONSENT_VERSION,
            "text": consent.consent_text(),
        }
    ).data


class ConsentView(APIView):
    @extend_schema(responses=ConsentOutputSerializer)
    def get(self, request):
        return Response(_state(consent_state(user_id=request.user.id)))

    @extend_schema(request=ConsentInputSerializer, responses=ConsentOutputSerializer)
    def post(self, request):
        granted = request.data.get("model_provider") if isinstance(request.data, dict) else None
        # JSON's true or false only: DRF's BooleanField would also take "no", 0 or "off" for a decision this weighty.
        if not isinstance(granted, bool):
            raise ValidationFailed(
                _("model_provider is true (agree) or false (decline)."),
                fields={"model_provider": [_("Must be true or false.")]},
            )
        consent_record(user=request.user, granted=granted)
        return Response(_state(consent_state(user_id=request.user.id)))
