#!/usr/bin/env bash
# Real-workbench e2e: installs the linux-x64 .vsix that `npm run package` builds in code-server (a real VS Code
# workbench, 1.100.3), drives the workbench with Debian chromium through playwright-core and
# checks the chat panel, the decision trace and the Inspect Memory State command (test/e2e/e2e.cjs).
# Adapted from ../shared/recipes/vscode-e2e (verified offline kit).
#
# Usage: bash test/e2e/run.sh            (as root, or with the apt packages below already installed)
# Env:   GMEM_E2E_HOME  cache for code-server, playwright-core         (default ~/.cache/gmem-e2e)
#        GMEM_E2E_PORT  port on 127.0.0.1                             (default 18080)
#        GMEM_E2E_SETUP_ONLY=1  install the tools and stop (scripts/dev.sh uses this)
#        GMEM_E2E_SKIP_BUILD=1  install the last out/vsix/gated-memory-linux-x64.vsix as it is (CI: the one it checked)
#        GMEM_E2E_PACKAGE_ONLY=1  stop after building the .vsix (out/vsix/gated-memory-linux-x64.vsix)
# Prints "N passed, N failed" and exits non-zero on any failure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E_HOME=${GMEM_E2E_HOME:-$HOME/.cache/gmem-e2e}
PORT=${GMEM_E2E_PORT:-18080}
CS_VERSION=4.100.3 # the newest code-server that runs on Node 20 (VS Code 1.100.3 = our engines floor)
OUT=$ROOT/test/e2e/out
mkdir -p "$E2E_HOME"/{cs,tools,tmp,xdg} "$OUT"
# keep code-server's config.yaml, coder-logs and chromium's crash dir out of $HOME
export XDG_CONFIG_HOME=$E2E_HOME/xdg XDG_DATA_HOME=$E2E_HOME/xdg
now() { date +%s.%N; }
dt() { printf '%.1f' "$(echo "$2 - $1" | bc)"; }
log() { echo "== $*"; }
T_START=$(now)

# 1. Debian packages: chromium (the browser), ripgrep (replaces @vscode/ripgrep's GitHub download),
#    libkrb5-dev (kerberos native module of VS Code's server), bc (timings), curl (health check).
if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1 \
	|| ! command -v bc >/dev/null || ! command -v curl >/dev/null; then
	log "apt-get install chromium ripgrep libkrb5-dev bc curl"
	SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=300 chromium ripgrep libkrb5-dev bc curl >/dev/null
fi

# 2. code-server from npm; its postinstall builds VS Code's server dependencies with node-gyp.
CS=$E2E_HOME/cs/node_modules/.bin/code-server
if ! "$CS" --version 2>/dev/null | grep -q "^$CS_VERSION "; then
	log "installing code-server@$CS_VERSION into $E2E_HOME/cs"
	t0=$(now)
	cd "$E2E_HOME/cs" && rm -rf node_modules package-lock.json ./*.tgz && echo '{"private":true}' > package.json
	npm pack -s "code-server@$CS_VERSION" >/dev/null
	# Pre-seed @vscode/ripgrep's download cache with Debian's rg: its postinstall otherwise calls GitHub.
	rgv=$(tar xzf "code-server-$CS_VERSION.tgz" package/lib/vscode/npm-shrinkwrap.json -O \
		| node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s).packages["node_modules/@vscode/ripgrep"];console.log(p?p.version:"")})')
	if [ -n "$rgv" ]; then
		(cd "$E2E_HOME/tmp" && npm pack -s "@vscode/ripgrep@$rgv" >/dev/null && tar xzf "vscode-ripgrep-$rgv.tgz" package/lib/postinstall.js -O > rg-postinstall.js)
		rgtag=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$E2E_HOME/tmp/rg-postinstall.js")
		mkdir -p "$E2E_HOME/tmp/vscode-ripgrep-cache-$rgv" "$E2E_HOME/tmp/rgbin" && cp "$(command -v rg)" "$E2E_HOME/tmp/rgbin/rg"
		tar czf "$E2E_HOME/tmp/vscode-ripgrep-cache-$rgv/ripgrep-$rgtag-x86_64-unknown-linux-musl.tar.gz" -C "$E2E_HOME/tmp/rgbin" rg
	fi
	# npm 11 dropped --unsafe-perm but postinstall.sh still checks the variable as root;
	# npm_config_yes: node-pty's postinstall runs `npx node-gyp`, which a `yes=false` npmrc would cancel.
	TMPDIR=$E2E_HOME/tmp npm_config_unsafe_perm=true npm_config_yes=true npm install "./code-server-$CS_VERSION.tgz" > "$E2E_HOME/cs/install.log" 2>&1 \
		|| { grep -v '^npm error npm error  ' "$E2E_HOME/cs/install.log" | tail -30; exit 1; }
	echo "code-server install: $(dt "$t0" "$(now)") s, $(du -sh "$E2E_HOME/cs/node_modules" | cut -f1)"
	cd "$ROOT"
fi

# 3. Test tool, kept out of the project's package.json: playwright-core drives Debian's chromium
#    (no browser download). The .vsix comes from the project's own `npm run package` (pinned vsce).
TOOLS=$E2E_HOME/tools
if [ ! -d "$TOOLS/node_modules/playwright-core" ]; then
	log "npm install playwright-core@1.65.1 into $TOOLS"
	(cd "$TOOLS" && echo '{"private":true}' > package.json && npm install -s --no-audit --no-fund playwright-core@1.65.1 >/dev/null)
fi
echo "tools ready after $(dt "$T_START" "$(now)") s: code-server $("$CS" --version 2>/dev/null | grep -o "^$CS_VERSION [0-9a-f]*")"
[ "${GMEM_E2E_SETUP_ONLY:-}" = 1 ] && exit 0

# 4. Build and package: the same `npm run package` that makes the released .vsix files, for this
#    machine's target only (the kit — Debian's chromium, the ripgrep pre-seed — is linux-x64).
cd "$ROOT"
VSIX=$ROOT/out/vsix/gated-memory-linux-x64.vsix
if [ "${GMEM_E2E_SKIP_BUILD:-}" != 1 ] || [ ! -f "$VSIX" ]; then
	log "npm run package -- --target linux-x64"
	t0=$(now)
	npm run -s package -- --target linux-x64 > "$E2E_HOME/package.log" 2>&1 || { tail -30 "$E2E_HOME/package.log"; exit 1; }
	echo "build + package: $(dt "$t0" "$(now)") s, vsix $(du -h "$VSIX" | cut -f1)"
fi
[ "${GMEM_E2E_PACKAGE_ONLY:-}" = 1 ] && exit 0
# The test-only language model provider (test/e2e/lmProvider, never shipped): packaged with the same
# pinned vsce, installed beside the extension, its proposed API enabled on the server command line.
LM_VSIX=$E2E_HOME/gmem-e2e-lm-provider.vsix
LM_EXT=gated-memory-test.gmem-e2e-lm-provider
(cd "$ROOT/test/e2e/lmProvider" && "$ROOT/node_modules/.bin/vsce" package --no-dependencies --allow-missing-repository --skip-license -o "$LM_VSIX" > "$E2E_HOME/lm-package.log" 2>&1) \
	|| { tail -20 "$E2E_HOME/lm-package.log"; exit 1; }
# Stand-ins for the downloadable model pair (real MiniLM-L6 shape, random weights, ≈23 MB each),
# read through gatedMemory.models.localPath (machine-scoped: code-server's Machine settings) by checks/40-models.cjs.
MODELS=$E2E_HOME/standin-models
npx -s tsx scripts/genStandInModels.ts "$MODELS"

# 5. One code-server per scenario, each with a fresh user-data dir, extensions dir and workspace,
#    on 127.0.0.1 only. "trusted": the workspace is trusted; the thresholds setting holds one valid
#    override (rag_k 6, checked in the trace) and one unknown name (reported, never breaks the
#    panel). "restricted": workspace trust on, the e2e declines to trust (Restricted Mode).
CS_PID=
stop_cs() { if [ -n "$CS_PID" ] && kill -0 "$CS_PID" 2>/dev/null; then kill "$CS_PID"; wait "$CS_PID" 2>/dev/null || true; fi; CS_PID=; }
trap stop_cs EXIT
PASSED=0 FAILED=0

run_scenario() {
	local scenario=$1 trust=$2
	local RUN=$E2E_HOME/run-$1 WS=$E2E_HOME/ws-$1
	rm -rf "$RUN" "$WS" && mkdir -p "$RUN/ext" "$RUN/data/User" "$WS/src"
	printf '# demo workspace\n' > "$WS/README.md"
	# An instruction file other agents read: shown in Inspect Memory State, applied when relevant (checks/32, 55).
	printf '# Demo agents guide\n\n## Testing\nRun npm test before committing; unit tests use mocha.\n\n## Backoff policy\nWhen explaining retry code, say that the delay doubles after each attempt.\n' > "$WS/AGENTS.md"
	printf 'export function parseConfig(text: string) {\n\treturn JSON.parse(text);\n}\n' > "$WS/src/config.ts"
	# searched by the e2e after "Gated Memory: Index Workspace"
	printf 'export async function retryWithBackoff<T>(run: () => Promise<T>, attempts = 3): Promise<T> {\n\tfor (let i = 1; ; i++) {\n\t\ttry {\n\t\t\treturn await run();\n\t\t} catch (e) {\n\t\t\tif (i >= attempts) throw e;\n\t\t\tawait new Promise((r) => setTimeout(r, 100 * 2 ** i));\n\t\t}\n\t}\n}\n' > "$WS/src/retry.ts"
	# Live state (checks/60-live-state.cjs): a TypeScript project the language server loads whole,
	# a test script whose run leaves a marker file, and a git repository with one commit.
	printf '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "commonjs", "noEmit": true }, "include": ["src"] }\n' > "$WS/tsconfig.json"
	printf '{ "name": "demo", "private": true, "scripts": { "test": "node -e \\"require(\x27fs\x27).writeFileSync(\x27ran-tests.txt\x27, \x27ran\x27)\\"" } }\n' > "$WS/package.json"
	printf 'ran-tests.txt\n' > "$WS/.gitignore"
	git -C "$WS" init -q && git -C "$WS" add -A && git -C "$WS" -c user.name=e2e -c user.email=e2e@example.invalid commit -qm 'e2e workspace'
	# generator "evidence": with the test model provider installed, "auto" would pick it for every check;
	# checks/55-lm-api.cjs turns on "lm" in the workspace settings for its own turns.
	cat > "$RUN/data/User/settings.json" <<JSON
{ "workbench.startupEditor": "none", "workbench.tips.enabled": false, "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "update.mode": "none",
  "security.workspace.trust.enabled": $trust, "security.workspace.trust.startupPrompt": "always",
  "workbench.enableExperiments": false, "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden", "window.commandCenter": false,
  "workbench.colorTheme": "Default Dark Modern",
  "gatedMemory.generator": "evidence",
  "gatedMemory.thresholds": { "rag_k": 6, "no_such_threshold": 1 } }
JSON
	# Machine-scoped settings (the model folder) are read from the server's Machine settings in code-server.
	mkdir -p "$RUN/data/Machine" && printf '{ "gatedMemory.models.localPath": "%s" }\n' "$MODELS" > "$RUN/data/Machine/settings.json"
	local CSARGS=(--config "$RUN/config.yaml" --extensions-dir "$RUN/ext" --user-data-dir "$RUN/data")
	"$CS" "${CSARGS[@]}" --install-extension "$VSIX" > "$RUN/install.log" 2>&1 || { cat "$RUN/install.log"; FAILED=$((FAILED + 1)); return 0; }
	"$CS" "${CSARGS[@]}" --install-extension "$LM_VSIX" >> "$RUN/install.log" 2>&1 || { cat "$RUN/install.log"; FAILED=$((FAILED + 1)); return 0; }
	local trustArgs=(--disable-workspace-trust)
	[ "$trust" = true ] && trustArgs=()
	log "scenario $scenario: code-server on 127.0.0.1:$PORT"
	local t0 t1 rc=0
	t0=$(now)
	GMEM_DB=$RUN/db GMEM_E2E_LM_LOG=$RUN/lm-requests.jsonl "$CS" "${CSARGS[@]}" --enable-proposed-api "$LM_EXT" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
		"${trustArgs[@]}" --disable-getting-started-override "$WS" > "$RUN/cs.log" 2>&1 &
	CS_PID=$!
	for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
	echo "server listening after $(dt "$t0" "$(now)") s"
	t1=$(now)
	rm -f "$RUN/result.json"
	SCENARIO=$scenario CS_URL="http://127.0.0.1:$PORT/?folder=$WS" WS_DIR=$WS OUT_DIR=$OUT DOCS_IMAGE=$ROOT/docs/images/chat.png \
		RESULT_FILE=$RUN/result.json LM_LOG=$RUN/lm-requests.jsonl LOGS_DIR=$RUN/data/logs NODE_PATH=$TOOLS/node_modules timeout 900 node "$ROOT/test/e2e/e2e.cjs" || rc=$?
	stop_cs
	echo "scenario $scenario: $(dt "$t1" "$(now)") s"
	if [ -f "$RUN/result.json" ]; then
		PASSED=$((PASSED + $(node -p "require('$RUN/result.json').passed")))
		FAILED=$((FAILED + $(node -p "require('$RUN/result.json').failed")))
	else
		FAILED=$((FAILED + 1))
	fi
	if [ "$rc" -ne 0 ]; then
		echo "--- extension host log (last 40 lines)"
		find "$RUN/data/logs" -name '*Gated Memory*' -exec tail -40 {} \; 2>/dev/null || true
		grep -iE 'gated|error' "$RUN/cs.log" | tail -20 || true
	fi
}

run_scenario trusted false
run_scenario restricted true
echo "whole run: $(dt "$T_START" "$(now)") s; artifacts in $OUT"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
