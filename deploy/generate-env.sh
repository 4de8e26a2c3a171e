#!/bin/sh
# Prints a deploy/.env with fresh random secrets for compose:  sh deploy/generate-env.sh > deploy/.env
set -eu
key_file=$(mktemp)
trap 'rm -f "$key_file"' EXIT
openssl genpkey -algorithm ed25519 -out "$key_file" 2>/dev/null
secret() { openssl rand -hex 24; }
echo "POSTGRES_PASSWORD=$(secret)"
for service in IDENTITY WEBCAM REFERER IMAGING; do echo "POSTGRES_PASSWORD_$service=$(secret)"; done
echo "JWT_PRIVATE_KEY=\"$(cat "$key_file")\""
echo "JWT_PUBLIC_KEY=\"$(openssl pkey -in "$key_file" -pubout)\""
echo "CAPTCHA_HMAC_SECRET=$(secret)"
echo "ANTI_FORGERY_SECRET=$(secret)"
echo "CAMERA_SECRET_KEY=$(secret)"
# The optional settings, as in .env.example.
sed -n '/^# --- configuration/,$p' "$(dirname "$0")/.env.example"
