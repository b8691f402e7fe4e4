"""The ceiling of ``benchmarks.bench_http``: a bare Django + DRF endpoint that inserts one row.

Served only under ``DJANGO_SETTINGS_MODULE=benchmarks.bare.settings``; the product's settings and
URLs never include it.
"""
