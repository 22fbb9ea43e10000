# The app image: `carcassonne serve` applies the migrations (alembic upgrade head), then serves.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/carcassonne

# jemalloc: `carcassonne serve` re-executes itself on it, so the memory of closed sockets goes
# back to the system (app/allocator.py).
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY app/__init__.py app/__init__.py
RUN pip install --upgrade pip && pip install -e .

COPY app app
COPY migrations migrations
COPY frontend frontend

RUN useradd --system --uid 10001 carcassonne && mkdir -p var && chown carcassonne var
USER carcassonne

EXPOSE 8000 9100
# Liveness: the process answers (/healthz asks no dependency, so a database outage does not make
# every replica "unhealthy" at once). Readiness is /readyz (docker-compose.yml's healthcheck).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
# SIGTERM drains (DRAIN_TIMEOUT, 10 s): stop it with a longer timeout (docker stop -t 15).
STOPSIGNAL SIGTERM

CMD ["carcassonne", "serve", "--host", "0.0.0.0", "--port", "8000"]
