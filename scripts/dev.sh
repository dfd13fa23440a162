#!/usr/bin/env bash
# One command to try Gated Memory on its embedded default store:
#   npm ci && npm run build, then
#   - with VS Code (`code` on PATH): an Extension Development Host window on this folder;
#   - without it: code-server (installed by test/e2e/run.sh into ${GMEM_E2E_HOME:-~/.cache/gmem-e2e})
#     on 127.0.0.1 with the packaged .vsix installed, and the URL to open.
# Env: GMEM_DEV_PORT (default 18081), GMEM_DEV_FOLDER (workspace to open; default this repo),
#      GMEM_DEV_SKIP_CI=1 (skip npm ci when node_modules is already there).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ "${GMEM_DEV_SKIP_CI:-}" != 1 ] || [ ! -d node_modules ]; then npm ci --no-audit --no-fund; fi
npm run build

if command -v code >/dev/null 2>&1; then
	echo "Starting an Extension Development Host (code --extensionDevelopmentPath=$ROOT)"
	exec code --extensionDevelopmentPath="$ROOT" "${GMEM_DEV_FOLDER:-$ROOT}"
fi

echo "VS Code not found: using code-server (a VS Code workbench in the browser)"
E2E_HOME=${GMEM_E2E_HOME:-$HOME/.cache/gmem-e2e}
# Installs chromium/ripgrep/code-server into the shared cache if missing, then packages the linux-x64
# .vsix with `npm run package` (out/vsix/).
GMEM_E2E_PACKAGE_ONLY=1 GMEM_E2E_SKIP_BUILD=0 bash test/e2e/run.sh
CS=$E2E_HOME/cs/node_modules/.bin/code-server
DEV=$E2E_HOME/dev
PORT=${GMEM_DEV_PORT:-18081}
mkdir -p "$DEV/ext" "$DEV/data/User"
[ -f "$DEV/data/User/settings.json" ] || echo '{ "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off", "update.mode": "none" }' > "$DEV/data/User/settings.json"
CSARGS=(--config "$DEV/config.yaml" --extensions-dir "$DEV/ext" --user-data-dir "$DEV/data")
export XDG_CONFIG_HOME=$E2E_HOME/xdg XDG_DATA_HOME=$E2E_HOME/xdg
"$CS" "${CSARGS[@]}" --force --install-extension "$ROOT/out/vsix/gated-memory-linux-x64.vsix" >/dev/null
FOLDER=${GMEM_DEV_FOLDER:-$ROOT}
echo "Gated Memory in code-server: http://127.0.0.1:$PORT/?folder=$FOLDER   (Ctrl+C stops it)"
# Bound to loopback with no password: reachable only from this machine.
exec "$CS" "${CSARGS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check "$FOLDER"
