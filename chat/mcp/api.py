"""/api/v1/chat/mcp-token: the user's MCP token. The token itself is returned once, by the POST that creates it."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.mcp.selectors import mcp_token_active
from chat.mcp.services import mcp_token_create, mcp_token_revoke
from zeus.errors import NotFound


class McpTokenView(APIView):
    class OutputSerializer(serializers.Serializer):
        prefix = serializers.CharField()
        created_at = serializers.DateTimeField()
        last_used_at = serializers.DateTimeField(allow_null=True)

    class CreatedSerializer(OutputSerializer):
        token = serializers.CharField(help_text="Shown only now; Zeus keeps only its hash.")

    @extend_schema(responses={200: OutputSerializer, 404: None})
    def get(self, request):
        token = mcp_token_active(user=request.user)
        if token is None:
            raise NotFound(_("You have no MCP token."))
        return Response(self.OutputSerializer(token).data)

    @extend_schema(request=None, responses={201: CreatedSerializer})
    def post(self, request):
        issued = mcp_token_create(user=request.user)
        body = {**self.OutputSerializer(issued.token).data, "token": issued.raw}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        mcp_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
