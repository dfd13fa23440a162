#!/usr/bin/env bash
# Copied from ../shared/recipes/pg-pgvector/start-pg.sh (the project's verified PostgreSQL + pgvector recipe;
# see its README for the measured steps and pitfalls). Kept verbatim below so CI installs what
# the tests need without reading ../shared at run time.
# start-pg.sh — start a throwaway PostgreSQL server with the pgvector extension.
#
# Usage:  start-pg.sh [PORT] [DATADIR]
#         PORT     default 54329
#         DATADIR  default /tmp/pgvector-data-$PORT
#
# Env knobs (all optional):
#   PG_MAJOR=15          PostgreSQL major version (default: newest in /usr/lib/postgresql, else 15)
#   PG_DB=postgres       database to create (if missing) and put in DATABASE_URL
#   PG_SOCKET_DIR=/tmp   unix socket directory
#   PG_DURABLE=0         1 = keep fsync/full_page_writes on (default off: throwaway server)
#   PGVECTOR_TARBALL=    path to a pgvector source .tar.gz to build instead of `apt-get source`
#   PGVECTOR_SRC_VERSION= Debian source version to fetch, e.g. 0.8.0-1 (default: newest in trixie)
#   PG_INSTALL_ONLY=1    install PostgreSQL + pgvector, do not start a server
#
# Idempotent: each install step is skipped when already done; if a server is already
# running on DATADIR it is left alone. Progress goes to stderr; the only line on stdout is
#   DATABASE_URL=postgres://postgres@127.0.0.1:PORT/DB
# so `export "$(./start-pg.sh 54329 /tmp/pgv)"` works.
set -euo pipefail

PORT="${1:-54329}"
DATA="${2:-/tmp/pgvector-data-$PORT}"
PG_DB="${PG_DB:-postgres}"
SOCK="${PG_SOCKET_DIR:-/tmp}"
MARKER=".throwaway-created-by-start-pg"

log() { printf '[start-pg] %s\n' "$*" >&2; }
die() { printf '[start-pg] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$PORT" =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$PORT'"
case "$DATA" in /*) ;; *) DATA="$PWD/$DATA" ;; esac

if [[ -z "${PG_MAJOR:-}" ]]; then
  PG_MAJOR=$(ls /usr/lib/postgresql 2>/dev/null | grep -E '^[0-9]+$' | sort -n | tail -1 || true)
  PG_MAJOR="${PG_MAJOR:-15}"
fi
BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_CONFIG="$BIN/pg_config"

# ---------------------------------------------------------------- apt helpers
APT_UPDATED=0
apt_update_once() {
  [[ $APT_UPDATED == 1 ]] && return 0
  log "apt-get update"
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do   # another apt/dpkg may hold the lists lock
    if apt-get -q -o DPkg::Lock::Timeout=300 update >&2; then APT_UPDATED=1; return 0; fi
    log "apt-get update failed (try $i), retrying in 10s"; sleep 10
  done
  die "apt-get update keeps failing"
}
apt_install() {
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=600 \
    install --no-install-recommends "$@" >&2
}
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
candidate() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}'; }
need_root() { [[ $EUID -eq 0 ]] || die "$1 is missing and installing it needs root (re-run as root)"; }

# ---------------------------------------------------------------- 1. PostgreSQL server
if [[ ! -x "$BIN/initdb" ]]; then
  need_root "PostgreSQL $PG_MAJOR"
  apt_update_once
  apt_install "postgresql-$PG_MAJOR"
  [[ -x "$BIN/initdb" ]] || die "postgresql-$PG_MAJOR installed but $BIN/initdb not found"
else
  log "PostgreSQL $PG_MAJOR present: $("$BIN/postgres" --version)"
fi

# ---------------------------------------------------------------- 2. pgvector
SHAREDIR=$("$PG_CONFIG" --sharedir)
PKGLIBDIR=$("$PG_CONFIG" --pkglibdir)
have_vector() { [[ -f "$SHAREDIR/extension/vector.control" && -f "$PKGLIBDIR/vector.so" ]]; }

build_pgvector_from_source() {
  local tmp src
  tmp=$(mktemp -d /tmp/pgvector-build.XXXXXX)
  BUILD_TMP="$tmp"; trap 'rm -rf "$BUILD_TMP"' EXIT
  # build tools + server headers. Pin the -dev package to the installed server version when
  # the archive still has it, so apt does not drag in a server upgrade as a side effect.
  local srvver devpkg="postgresql-server-dev-$PG_MAJOR"
  if [[ ! -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ]] || ! pkg_installed build-essential || ! pkg_installed dpkg-dev; then
    apt_update_once
    srvver=$(dpkg-query -W -f='${Version}' "postgresql-$PG_MAJOR" 2>/dev/null || true)
    if [[ -n "$srvver" ]] && apt-cache madison "$devpkg" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$srvver"; then
      devpkg="$devpkg=$srvver"
    fi
    local pkgs=() p
    for p in build-essential dpkg-dev; do pkg_installed "$p" || pkgs+=("$p"); done
    [[ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ]] || pkgs+=("$devpkg")
    apt_install "${pkgs[@]}"
  fi
  if [[ -n "${PGVECTOR_TARBALL:-}" ]]; then
    log "building pgvector from tarball $PGVECTOR_TARBALL"
    tar -xzf "$PGVECTOR_TARBALL" -C "$tmp"
  else
    # Debian bookworm has no pgvector for PG15: take the Debian trixie *source* package
    # (deb-src only: this never changes which binary packages apt installs).
    local srcfile=/etc/apt/sources.list.d/trixie-src.sources
    if [[ ! -f "$srcfile" ]]; then
      log "adding $srcfile (deb-src only)"
      # Reuse the machine's own Debian mirror (the first URIs line of its apt sources).
      local uri
      uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -1)
      [[ -n "$uri" ]] || uri=$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -1)
      [[ -n "$uri" ]] || die "no Debian mirror found in the apt sources"
      printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" > "$srcfile"
    fi
    if [[ -z "$(apt-cache showsrc pgvector 2>/dev/null)" ]]; then
      APT_UPDATED=0; apt_update_once
    fi
    log "apt-get source pgvector${PGVECTOR_SRC_VERSION:+=$PGVECTOR_SRC_VERSION}"
    (cd "$tmp" && apt-get -q source "pgvector${PGVECTOR_SRC_VERSION:+=$PGVECTOR_SRC_VERSION}" >&2)
  fi
  src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d -name 'pgvector*' | head -1)
  [[ -n "$src" && -f "$src/Makefile" ]] || die "pgvector source not found in $tmp"
  log "make (in $src)"
  # OPTFLAGS="" = portable build (no -march=native); the Debian source already patches that.
  make -C "$src" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >&2
  make -C "$src" install PG_CONFIG="$PG_CONFIG" >&2
}

if have_vector; then
  log "pgvector present: $(grep -h default_version "$SHAREDIR/extension/vector.control")"
else
  need_root "pgvector for PostgreSQL $PG_MAJOR"
  binpkg="postgresql-$PG_MAJOR-pgvector"
  cand=""
  if [[ -z "${PGVECTOR_TARBALL:-}" ]]; then apt_update_once; cand=$(candidate "$binpkg"); fi
  if [[ -n "$cand" && "$cand" != "(none)" ]]; then
    log "binary package $binpkg $cand is available -> installing it"
    apt_install "$binpkg"
  else
    log "no binary $binpkg in apt (or PGVECTOR_TARBALL set) -> building from source"
    build_pgvector_from_source
  fi
  have_vector || die "pgvector install finished but vector.control/vector.so not found"
  log "pgvector installed: $(grep -h default_version "$SHAREDIR/extension/vector.control")"
fi

[[ "${PG_INSTALL_ONLY:-0}" == 1 ]] && { log "PG_INSTALL_ONLY=1: not starting a server"; exit 0; }

# ---------------------------------------------------------------- 3. server
# initdb/postgres refuse to run as root: use the 'postgres' OS user when we are root.
if [[ $EUID -eq 0 ]]; then
  RUN_USER=postgres
  if ! getent passwd "$RUN_USER" >/dev/null; then
    log "creating system user $RUN_USER"
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash "$RUN_USER"
  fi
  as_user() { (cd / && runuser -u "$RUN_USER" -- "$@"); }   # cd /: cwd may be unreadable for postgres
else
  RUN_USER=$(id -un)
  as_user() { "$@"; }
fi

URL="postgres://postgres@127.0.0.1:$PORT/$PG_DB"
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)

if [[ -f "$DATA/PG_VERSION" ]]; then
  conf_port=$(grep -E '^port = [0-9]+' "$DATA/postgresql.conf" 2>/dev/null | tail -1 | awk '{print $3}' || true)
  [[ -z "$conf_port" || "$conf_port" == "$PORT" ]] || die "$DATA was initialised for port $conf_port, not $PORT"
fi
if [[ -f "$DATA/PG_VERSION" ]] && as_user "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  log "server already running on $DATA"
else
  # refuse to clobber another server on the port
  if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -t 2; then
    die "something already answers on 127.0.0.1:$PORT (not a server on $DATA); pick another port"
  fi
  if [[ ! -f "$DATA/PG_VERSION" ]]; then
    if [[ -e "$DATA" && -n "$(ls -A "$DATA" 2>/dev/null)" ]]; then
      die "$DATA exists, is not empty and is not a PostgreSQL data dir"
    fi
    mkdir -p "$DATA"
    [[ $EUID -eq 0 ]] && chown "$RUN_USER": "$DATA"
    chmod 700 "$DATA"
    as_user test -w "$DATA" || { rmdir "$DATA" 2>/dev/null || true; die "user $RUN_USER cannot write $DATA (a parent dir is not traversable?) — use a dir under /tmp"; }
    log "initdb $DATA (OS user $RUN_USER, db superuser postgres, trust auth)"
    initdb_sync=(--no-sync); [[ "${PG_DURABLE:-0}" == 1 ]] && initdb_sync=()
    as_user "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 "${initdb_sync[@]}" >/dev/null
    {
      echo ""
      echo "# --- added by start-pg.sh (throwaway server) ---"
      echo "port = $PORT"
      echo "listen_addresses = '127.0.0.1'"
      echo "unix_socket_directories = '$SOCK'"
      if [[ "${PG_DURABLE:-0}" != 1 ]]; then
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
      fi
    } | as_user tee -a "$DATA/postgresql.conf" >/dev/null
    as_user touch "$DATA/$MARKER"
  fi
  log "pg_ctl start (port $PORT, socket dir $SOCK, log $DATA/server.log)"
  if ! as_user "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -o "-p $PORT" -w -t 60 start >&2; then
    tail -n 30 "$DATA/server.log" >&2 || true
    die "server did not start"
  fi
fi

if [[ "$PG_DB" != postgres ]] && \
   [[ -z "$("${PSQL[@]}" -At "postgres://postgres@127.0.0.1:$PORT/postgres" -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" ]]; then
  log "createdb $PG_DB"
  "${PSQL[@]}" "postgres://postgres@127.0.0.1:$PORT/postgres" -c "CREATE DATABASE \"$PG_DB\""
fi
"${PSQL[@]}" "$URL" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS vector" >&2
log "ready: $("${PSQL[@]}" -At "$URL" -c "SELECT 'PostgreSQL ' || current_setting('server_version') || ', pgvector ' || extversion FROM pg_extension WHERE extname = 'vector'")"
log "stop with: $(dirname "$0")/stop-pg.sh $PORT $DATA"
echo "DATABASE_URL=$URL"
