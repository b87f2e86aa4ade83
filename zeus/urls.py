from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from zeus.i18n import js_catalog

api = [
    path("", include("zeus.api.urls")),
    path("", include("assets.urls")),
    path("", include("goals.urls")),
    path("", include("plans.urls")),
    path("", include("suggestions.urls")),
    path("", include("chat.urls")),
    path("", include("chat.mcp_urls")),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api)),
    path("jsi18n/<str:language>/<str:version>.js", js_catalog, name="js-catalog"),
    path("", include("zeus.pages")),
    path("", include("assets.pages")),
    path("", include("goals.pages")),
    path("", include("plans.pages")),
    path("", include("chat.pages")),
    path("", include("chat.web_urls")),
]

handler404 = "zeus.api.errors.not_found"
handler500 = "zeus.api.errors.server_error"
