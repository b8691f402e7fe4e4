"""The product's URLs plus ``/bare/`` (registration at /api/v1/players/ gives the ceiling's clients tokens)."""

from django.urls import path

from benchmarks.bare.views import BareView
from palace_api.urls import handler400, handler403, handler404, handler500
from palace_api.urls import urlpatterns as product_urlpatterns

urlpatterns = [*product_urlpatterns, path("bare/", BareView.as_view(), name="bare")]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
