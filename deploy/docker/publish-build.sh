#!/bin/sh
# Runs before nginx starts (nginx image's /docker-entrypoint.d). With PUBLISH_DIR set (compose), copies this
# app's build into that folder, which the gateway serves: content-hashed files first, then the entry files
# that name them, so a page never loads an entry whose chunks are not there yet. Older chunks stay for open pages.
set -eu
[ -n "${PUBLISH_DIR:-}" ] || exit 0
cd "$APP_DIR"
find . -type d -exec sh -c 'for d; do mkdir -p "$0/$d"; done' "$PUBLISH_DIR" {} +
hashed='*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f].*'
find . -type f -name "$hashed" -exec sh -c 'for f; do cp "$f" "$0/$f"; done' "$PUBLISH_DIR" {} +
find . -type f ! -name "$hashed" -exec sh -c 'for f; do cp "$f" "$0/$f"; done' "$PUBLISH_DIR" {} +
echo "publish-build: copied $APP_DIR to $PUBLISH_DIR"
