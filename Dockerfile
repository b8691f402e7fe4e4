# One image for web (gunicorn), worker and beat (celery); see docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STATIC_ROOT=/app/staticfiles

WORKDIR /app

COPY pyproject.toml README.md manage.py ./
COPY palace_api ./palace_api
COPY games ./games
COPY players ./players
COPY notifications ./notifications
RUN pip install .

# Settings need a SECRET_KEY when DEBUG is false; collectstatic needs no real one.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

RUN useradd --system --no-create-home palace
USER palace

EXPOSE 8000
CMD ["gunicorn", "palace_api.wsgi", "--bind", "0.0.0.0:8000", "--workers", "2", "--access-logfile", "-"]
