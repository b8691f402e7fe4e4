from csp.constants import SELF
from csp.decorators import csp_replace
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from palace_api.middleware import LIBRARY_STYLES
from palace_api.schema import SchemaView

# Redoc adds <style> elements as it draws, some before it could be given a nonce (palace_api/middleware.py), and
# searches in a worker it makes from a blob: URL. Its scripts come from the project alone, as everywhere.
REDOC_POLICY = {**LIBRARY_STYLES, "worker-src": [SELF, "blob:"]}

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("players.urls")),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("webhooks.urls")),
    path("api/v1/", include("notifications.api.urls")),
    path("api/v1/", include("ratings.api.urls")),
    path("api/v1/", include("chat.api.urls")),
    path("", include("notifications.urls")),
    path("", include("ratings.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", csp_replace(REDOC_POLICY)(SpectacularRedocView.as_view(url_name="schema")), name="redoc"),
    # The browser pages (web/): lobby at /, tables under /games/.
    path("", include("web.urls")),
]

# Under /api/ these answer JSON in the API's error shape; elsewhere Django's usual pages (palace_api/errors.py).
handler400 = "palace_api.errors.bad_request"
handler403 = "palace_api.errors.permission_denied"
handler404 = "palace_api.errors.page_not_found"
handler500 = "palace_api.errors.server_error"
