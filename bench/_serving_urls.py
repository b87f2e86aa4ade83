"""Zeus's URLs plus the serving benchmark's two baselines: a plain Django view and a minimal DRF view behind
the project's token authentication. Bench only."""

from django.http import HttpResponse
from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus.urls import handler404, handler500  # noqa: F401
from zeus.urls import urlpatterns as zeus_urlpatterns


def plain(request):
    return HttpResponse("ok", content_type="text/plain")


class Minimal(APIView):
    def get(self, request):
        return Response({"ok": True})


urlpatterns = [path("bench/plain", plain), path("bench/drf", Minimal.as_view()), *zeus_urlpatterns]
