#!/bin/sh
# PostgreSQL image init script (runs once, on an empty data volume): one role and one database per service,
# as `DATABASE_URL_<SERVICE>` in compose.yaml expects (decisions.md, "One database per service").
set -eu
for service in identity webcam referer imaging; do
  password_var="POSTGRES_PASSWORD_$(echo "$service" | tr '[:lower:]' '[:upper:]')"
  eval "password=\${$password_var:?$password_var is required}"
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v role="$service" -v database="lakecams_$service" -v password="$password" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password';
CREATE DATABASE :"database" OWNER :"role";
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
SQL
done
