# One image for web (gunicorn with uvicorn workers), worker and beat (celery); see docker-compose.yml.
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
COPY web ./web
COPY webhooks ./webhooks
COPY notifications ./notifications
COPY outbox ./outbox
COPY ratings ./ratings
COPY chat ./chat
RUN pip install .

# Settings need a SECRET_KEY when DEBUG is false; collectstatic needs no real one.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

RUN useradd --system --no-create-home palace
USER palace

EXPOSE 8000
# ASGI under gunicorn's uvicorn workers: an open live stream waits on a worker's event loop instead of holding the
# worker, so each worker serves thousands of streams beside the usual requests. Streams get 10 s to end on a stop.
# No access log: the app logs a line per request Django answers (palace.requests) and counts the poll gate's 304s;
# an access line per request, written on the event loop, cost the pollers' 304s more than their answers.
CMD ["gunicorn", "palace_api.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", \
     "--bind", "0.0.0.0:8000", "--workers", "2", "--graceful-timeout", "10"]
