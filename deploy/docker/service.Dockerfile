# syntax=docker/dockerfile:1
# One image per service and one for the gateway, built from the repository root:
#   docker build -f deploy/docker/service.Dockerfile --target svc-imaging -t lakecams/svc-imaging .
# Services run their TypeScript as it is (Node 24 type stripping); nothing is compiled.
ARG NODE_IMAGE=node:24-trixie-slim

# Root manifest, lockfile and the manifests of the libraries every service uses.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
ENV npm_config_update_notifier=false
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/bus/package.json libs/bus/
COPY libs/service-kit/package.json libs/service-kit/

# Production dependencies of one workspace (and the libraries it links); no install scripts:
# sharp loads its prebuilt @img/* binaries, nothing is compiled.
FROM manifests AS deps-svc-identity
COPY svc-identity/package.json svc-identity/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w svc-identity

FROM manifests AS deps-svc-webcam
COPY svc-webcam/package.json svc-webcam/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w svc-webcam

FROM manifests AS deps-svc-referer
COPY svc-referer/package.json svc-referer/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w svc-referer

FROM manifests AS deps-svc-imaging
COPY svc-imaging/package.json svc-imaging/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w svc-imaging

FROM manifests AS deps-gateway
COPY gateway/package.json gateway/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w gateway

# What every service image shares: the libraries' sources, a writable /data, a non-root user,
# every container on port 8080, its Prometheus metrics on port 9464 (never on 8080, which the
# ingress reaches), and a health check on /health (libs/service-kit health plugin).
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# glibc malloc: two arenas, large buffers given back (libs/service-kit/src/native-memory.ts).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9464 \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_TRIM_THRESHOLD_=131072
RUN mkdir -p /data && chown node:node /data
COPY libs/contracts/src libs/contracts/src
COPY libs/bus/src libs/bus/src
COPY libs/service-kit/src libs/service-kit/src
USER node
EXPOSE 8080 9464
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

FROM runtime AS svc-identity
# Mails land in /data/outbox when SMTP_URL is not set.
ENV DATA_DIR=/data
COPY --from=deps-svc-identity /app/ ./
COPY svc-identity/src svc-identity/src
COPY svc-identity/scripts svc-identity/scripts
CMD ["node", "svc-identity/src/server.ts"]

FROM runtime AS svc-webcam
COPY --from=deps-svc-webcam /app/ ./
COPY svc-webcam/src svc-webcam/src
CMD ["node", "svc-webcam/src/server.ts"]

FROM runtime AS svc-referer
COPY --from=deps-svc-referer /app/ ./
COPY svc-referer/src svc-referer/src
CMD ["node", "svc-referer/src/server.ts"]

FROM runtime AS svc-imaging
# The image store: a volume shared by every replica (decisions.md, "Image storage").
ENV IMAGE_STORE_DIR=/data/images
USER root
RUN mkdir -p /data/images && chown node:node /data/images
USER node
COPY --from=deps-svc-imaging /app/ ./
COPY svc-imaging/src svc-imaging/src
CMD ["node", "svc-imaging/src/server.ts"]

FROM runtime AS gateway
# Front-end builds are mounted below this folder (compose) or served by their own images (Kubernetes).
ENV FRONTEND_ROOT=/srv/frontends
USER root
RUN mkdir -p /srv/frontends && chown node:node /srv/frontends
USER node
COPY --from=deps-gateway /app/ ./
COPY gateway/src gateway/src
CMD ["node", "gateway/src/server.ts"]
