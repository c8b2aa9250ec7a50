# The bot in a container: docs/operations.md ("Docker"). The database lives on the volume /data (SQLite, unless
# DATABASE_URL names a PostgreSQL server: compose.yaml); the computer players' compiled core is built here, at
# image build time (.ci/install: the same steps CI runs in a fresh venv, .ci/wheel-check).
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN python -m pip wheel -q --no-cache-dir --no-deps -w /dist . \
    && sh .ci/install /opt/petersburg /dist /opt/petersburg/core

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 petersburg && mkdir /data && chown petersburg /data
COPY --from=build /opt/petersburg /opt/petersburg
ENV PATH=/opt/petersburg/bin:$PATH \
    COMPILED_CORE_DIR=/opt/petersburg/core \
    PYTHONUNBUFFERED=1
USER petersburg
# the bot's working folder: a relative DATABASE_PATH (data/petersburg.sqlite3 by default) or BACKUP_DIR is on
# the volume
WORKDIR /data
VOLUME /data
# SIGTERM (docker stop) closes the bot cleanly, exit code 0 (bot.__main__.stop_on_sigterm)
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
