"""The stock project's URLs: the admin, allauth's pages, an OpenAPI schema and one DRF view."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response
from rest_framework.views import APIView


class Ping(APIView):
    def get(self, request):
        return Response({"ok": True})


urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/schema", SpectacularAPIView.as_view()),
    path("api/ping", Ping.as_view()),
]
