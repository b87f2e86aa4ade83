"""Zeus's URLs plus the bare DRF view the feeds benchmark compares the SePay webhook with. Bench only."""

from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus.urls import urlpatterns as zeus_urlpatterns


class BareView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def post(self, request):
        request.data  # noqa: B018 -- parse the body, as the webhook does
        return Response({"success": True})


urlpatterns = [path("bench/bare", BareView.as_view()), *zeus_urlpatterns]
