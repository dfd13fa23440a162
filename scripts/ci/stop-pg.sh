#!/usr/bin/env bash
# Copied from ../shared/recipes/pg-pgvector/stop-pg.sh (the project's verified PostgreSQL + pgvector recipe;
# see its README for the measured steps and pitfalls). Kept verbatim below so CI installs what
# the tests need without reading ../shared at run time.
# stop-pg.sh — stop a server started by start-pg.sh and delete its data dir.
#
# Usage:  stop-pg.sh [PORT] [DATADIR] [--keep]
#         PORT     default 54329 (only used to derive the default DATADIR)
#         DATADIR  default /tmp/pgvector-data-$PORT
#         --keep   stop the server but keep the data dir
#
# Idempotent: a stopped server / missing data dir is not an error. The data dir is only
# deleted if start-pg.sh created it (marker file), never an arbitrary directory.
set -euo pipefail

KEEP=0
ARGS=()
for a in "$@"; do
  case "$a" in --keep) KEEP=1 ;; *) ARGS+=("$a") ;; esac
done
PORT="${ARGS[0]:-54329}"
DATA="${ARGS[1]:-/tmp/pgvector-data-$PORT}"
MARKER=".throwaway-created-by-start-pg"

log() { printf '[stop-pg] %s\n' "$*" >&2; }

if [[ ! -f "$DATA/PG_VERSION" ]]; then
  log "no PostgreSQL data dir at $DATA — nothing to do"
  exit 0
fi
PG_MAJOR=$(cat "$DATA/PG_VERSION")
BIN="/usr/lib/postgresql/$PG_MAJOR/bin"

if [[ $EUID -eq 0 ]]; then
  OWNER=$(stat -c %U "$DATA")
  as_owner() { (cd / && runuser -u "$OWNER" -- "$@"); }
else
  as_owner() { "$@"; }
fi

if as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  log "pg_ctl stop -m fast ($DATA)"
  as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >&2
else
  log "server on $DATA is not running"
fi

if [[ $KEEP == 1 ]]; then
  log "--keep: data dir kept at $DATA"
elif [[ -f "$DATA/$MARKER" ]]; then
  rm -rf -- "$DATA"
  log "removed $DATA"
else
  log "$DATA was not created by start-pg.sh (no $MARKER) — not deleting it"
fi
