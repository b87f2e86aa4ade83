from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from zeus.api.errors import not_found
from zeus.health import healthz, readyz
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
    # Swagger UI: its script from a second request (no inline script); its assets come from the CDN and its
    # page carries one small inline style, so this page alone has a wider policy.
    path(
        "docs",
        csp_update(
            {
                "script-src": ["https://cdn.jsdelivr.net"],
                "style-src": ["https://cdn.jsdelivr.net", "'unsafe-inline'"],
                "img-src": ["https://cdn.jsdelivr.net"],
            }
        )(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api)),
    path("jsi18n/<str:language>/<str:version>.js", js_catalog, name="js-catalog"),
    path("", include("zeus.pages")),
    path("", include("zeus.notification_pages")),
    path("", include("assets.transactions_pages")),
    path("", include("assets.pages")),
    path("", include("assets.wallets_pages")),
    path("", include("assets.ledger_pages")),
    path("", include("goals.pages")),
    path("", include("plans.pages")),
    path("", include("suggestions.pages")),
    path("", include("chat.pages")),
    path("", include("chat.web_urls")),
    # Last: any other /api/ path is a JSON 404 even under DEBUG, where Django ignores handler404.
    re_path(r"^api/", not_found),
]

handler404 = "zeus.api.errors.not_found"
handler500 = "zeus.api.errors.server_error"
