# syntax=docker/dockerfile:1
# One image per front end, so a team ships its remote alone, built from the repository root:
#   docker build -f deploy/docker/frontend.Dockerfile --target mf-admin -t lakecams/mf-admin .
# Each image is nginx serving that app's Rspack build: the shell at /, a remote at /remotes/<folder>/
# (the paths the gateway's default /remotes.json names).
ARG NODE_IMAGE=node:24-trixie-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.29-alpine

FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
ENV npm_config_update_notifier=false
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/session/package.json libs/session/
COPY libs/ui-kit/package.json libs/ui-kit/
COPY libs/mf-config/package.json libs/mf-config/

# Build stages: the workspace's dependencies including dev (Rspack), then its sources, then `rspack build`.
FROM manifests AS build-shell
COPY shell/package.json shell/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund -w shell
COPY libs/contracts/src libs/contracts/src
COPY libs/session/src libs/session/src
COPY libs/ui-kit/src libs/ui-kit/src
COPY libs/mf-config/src libs/mf-config/src
COPY shell/rspack.config.ts shell/
COPY shell/src shell/src
COPY shell/public shell/public
RUN npm run build -w shell

FROM manifests AS build-mf-map
COPY mf-map/package.json mf-map/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund -w mf-map
COPY libs/contracts/src libs/contracts/src
COPY libs/session/src libs/session/src
COPY libs/ui-kit/src libs/ui-kit/src
COPY libs/mf-config/src libs/mf-config/src
COPY mf-map/rspack.config.ts mf-map/
COPY mf-map/src mf-map/src
RUN npm run build -w mf-map

FROM manifests AS build-mf-account
COPY mf-account/package.json mf-account/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund -w mf-account
COPY libs/contracts/src libs/contracts/src
COPY libs/session/src libs/session/src
COPY libs/ui-kit/src libs/ui-kit/src
COPY libs/mf-config/src libs/mf-config/src
COPY mf-account/rspack.config.ts mf-account/
COPY mf-account/src mf-account/src
RUN npm run build -w mf-account

FROM manifests AS build-mf-admin
COPY mf-admin/package.json mf-admin/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund -w mf-admin
COPY libs/contracts/src libs/contracts/src
COPY libs/session/src libs/session/src
COPY libs/ui-kit/src libs/ui-kit/src
COPY libs/mf-config/src libs/mf-config/src
COPY mf-admin/rspack.config.ts mf-admin/
COPY mf-admin/src mf-admin/src
RUN npm run build -w mf-admin

# The player partners embed (embed/): no framework, no federation; served under /embed/.
FROM manifests AS build-embed
COPY embed/package.json embed/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund -w embed
COPY libs/contracts/src libs/contracts/src
COPY libs/mf-config/src libs/mf-config/src
COPY embed/rspack.config.ts embed/
COPY embed/src embed/src
RUN npm run build -w embed

# What every front-end image shares: nginx as a non-root user on port 8080, no default pages,
# and a start-up step that copies the build into PUBLISH_DIR when one is set (compose: the gateway serves it).
FROM ${NGINX_IMAGE} AS static
USER root
RUN rm -rf /usr/share/nginx/html/* && mkdir -p /srv/publish && chown 101:101 /srv/publish
COPY deploy/docker/nginx/frontend.conf /etc/nginx/conf.d/default.conf
COPY --chmod=755 deploy/docker/publish-build.sh /docker-entrypoint.d/40-publish-build.sh
USER 101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD wget -q -O /dev/null "http://127.0.0.1:8080${APP_ENTRY}" || exit 1

FROM static AS shell
ENV APP_DIR=/usr/share/nginx/html \
    APP_ENTRY=/index.html
COPY --from=build-shell /app/shell/dist/ /usr/share/nginx/html/

FROM static AS mf-map
ENV APP_DIR=/usr/share/nginx/html/remotes/mf-map \
    APP_ENTRY=/remotes/mf-map/mf-manifest.json
COPY --from=build-mf-map /app/mf-map/dist/ /usr/share/nginx/html/remotes/mf-map/

FROM static AS mf-account
ENV APP_DIR=/usr/share/nginx/html/remotes/mf-account \
    APP_ENTRY=/remotes/mf-account/mf-manifest.json
COPY --from=build-mf-account /app/mf-account/dist/ /usr/share/nginx/html/remotes/mf-account/

FROM static AS mf-admin
ENV APP_DIR=/usr/share/nginx/html/remotes/mf-admin \
    APP_ENTRY=/remotes/mf-admin/mf-manifest.json
COPY --from=build-mf-admin /app/mf-admin/dist/ /usr/share/nginx/html/remotes/mf-admin/

FROM static AS embed
ENV APP_DIR=/usr/share/nginx/html/embed \
    APP_ENTRY=/embed/v1.js
COPY --from=build-embed /app/embed/dist/ /usr/share/nginx/html/embed/
