from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable and machine readable: VALIDATION_ERROR, NOT_FOUND, …")
    message = serializers.CharField(help_text="For people.")
    fields = serializers.DictField(required=False, help_text="Per field (for a CSV import, `rows` per line).")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class AutoSchema(SpectacularAutoSchema):
    """Names components after their view and documents the one error shape on every operation."""

    def get_serializer_name(self, serializer, direction):
        # Every APIView nests its own `InputSerializer`; plain class names would collide
        # (`AssetListView.InputSerializer` becomes `AssetListInput`).
        qualname = serializer.__class__.__qualname__
        if "." not in qualname:
            return super().get_serializer_name(serializer, direction)
        outer, _, inner = qualname.rpartition(".")
        return outer.replace(".", "").removesuffix("View") + inner

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction == "response" and not any(str(code).startswith("4") for code in responses):
            error = self._get_response_for_code(ErrorSerializer, "400", direction=direction)
            error["description"] = 'Any 4xx: `{"error": {"code", "message", "fields"}}`.'
            responses["4XX"] = error
        return responses
