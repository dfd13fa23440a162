#!/usr/bin/env bash
# pg.sh — the PostgreSQL + pgvector server the store's server test suite runs against.
#
#   pg.sh start   installs PostgreSQL + pgvector if missing (root; Debian), starts a throwaway
#                 server and prints GMEM_TEST_PG_URL=postgres://… on stdout (progress on stderr)
#   pg.sh stop    stops it and deletes its data folder
#
# Env: GMEM_PG_PORT (default 54339, away from a developer's own 54329), GMEM_PG_DATA
# (default /tmp/gmem-ci-pg-$PORT). The install and start logic is a copy of the verified recipe
# ../shared/recipes/pg-pgvector (start-pg.sh / stop-pg.sh beside this file).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PORT="${GMEM_PG_PORT:-54339}"
DATA="${GMEM_PG_DATA:-/tmp/gmem-ci-pg-$PORT}"

case "${1:-}" in
	start)
		url=$(bash "$here/start-pg.sh" "$PORT" "$DATA" | sed -n 's/^DATABASE_URL=//p' | tail -1)
		[[ -n "$url" ]] || { echo "pg.sh: the server did not report a DATABASE_URL" >&2; exit 1; }
		echo "GMEM_TEST_PG_URL=$url"
		;;
	stop)
		bash "$here/stop-pg.sh" "$PORT" "$DATA"
		;;
	*)
		echo "usage: pg.sh start|stop" >&2
		exit 1
		;;
esac
