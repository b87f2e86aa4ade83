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
    # Swagger UI: its script from a second request (no inline script), its assets from this origin
    # (drf-spectacular-sidecar's static files); its page carries one small inline style, so this page alone
    # allows inline styles.
    path(
        "docs",
        csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api)),
    path("jsi18n/<str:language>/<str:version>.js", js_catalog, name="js-catalog"),
    path("", include("zeus.pwa")),
    path("", include("assets.share_pages")),
    # allauth: sign-in, sign-up, e-mail, password, second factors (/accounts/2fa/), sessions.
    path("accounts/", include("allauth.urls")),
    path("", include("zeus.accounts.pages")),
    path("", include("zeus.pages")),
    path("", include("zeus.consent_pages")),
    path("", include("zeus.notification_pages")),
    path("", include("zeus.account_data.pages")),
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

handler404 = "zeus.error_pages.page_not_found"
handler500 = "zeus.error_pages.server_error"
