"""REST: `POST /api/v1/vietqr/parse` reads a pasted VietQR payload."""

import dataclasses

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.vietqr.reading import vietqr_read


class ReadQRSerializer(serializers.Serializer):
    bank_bin = serializers.CharField()
    bank_name = serializers.CharField()
    bank_short_name = serializers.CharField()
    account = serializers.CharField()
    amount = serializers.CharField(allow_null=True, help_text="Whole đồng as a string; null when the QR asks none.")
    purpose = serializers.CharField(allow_blank=True)


class VietQRParseView(APIView):
    class InputSerializer(serializers.Serializer):
        payload = serializers.CharField(max_length=512, trim_whitespace=True)

    @extend_schema(request=InputSerializer, responses=ReadQRSerializer)
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        read = vietqr_read(payload=data.validated_data["payload"])
        body = dataclasses.asdict(read)
        body["amount"] = None if read.amount is None else str(read.amount)
        return Response(ReadQRSerializer(body).data)
