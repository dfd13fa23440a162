#!/usr/bin/env bash
# Checks what `npm run package` left in out/vsix/: one .vsix per target, a plausible size, the
# bundles and the built-in model inside, and exactly its own platform's onnxruntime binding — never
# another platform's (the reason there are five packages). Reads listings only (unzip -l): cheap.
# Usage: bash scripts/ci/checkVsix.sh [DIR]   (default out/vsix). Exits 1 on the first bad package.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/out/vsix}
MIN_MB=15 MAX_MB=100 # the built-in model alone is 12 MB; onnxruntime's largest platform ~70 MB unpacked
ORT=extension/node_modules/onnxruntime-node/bin
fail() { echo "checkVsix: $*" >&2; exit 1; }

for target in linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64; do
	vsix=$DIR/gated-memory-$target.vsix
	[ -f "$vsix" ] || fail "$vsix is missing"
	mb=$(( $(stat -c %s "$vsix") / 1048576 ))
	{ [ "$mb" -ge "$MIN_MB" ] && [ "$mb" -le "$MAX_MB" ]; } || fail "$target: $mb MB is outside $MIN_MB–$MAX_MB MB"
	listing=$(unzip -l "$vsix")
	for f in extension/package.json extension/dist/extension.js extension/dist/cli.js extension/dist/models/builtin/table.bin extension/dist/models/builtin/reranker.json; do
		grep -q " $f\$" <<<"$listing" || fail "$target: $f is not in the package"
	done
	platform=${target%-*} arch=${target#*-}
	bindings=$(grep -oE "$ORT/[^ ]+/onnxruntime_binding\.node\$" <<<"$listing" || true)
	foreign=$(grep -v "/$platform/$arch/" <<<"$bindings" || true)
	[ -z "$foreign" ] || fail "$target carries another platform's onnxruntime: $foreign"
	# onnxruntime-node ships no binary for some targets (1.30.0: none for darwin-x64); then the package
	# must have none either, and the built-in model (no onnxruntime) is what runs there.
	if ls "$ROOT"/node_modules/onnxruntime-node/bin/*/"$platform/$arch"/onnxruntime_binding.node >/dev/null 2>&1; then
		[ -n "$bindings" ] || fail "$target: its onnxruntime binding is not in the package"
		ort="onnxruntime $platform/$arch"
	else
		[ -z "$bindings" ] || fail "$target: unexpected onnxruntime binding $bindings"
		ort="no onnxruntime binary (onnxruntime-node ships none for $target)"
	fi
	echo "$target: $(du -h "$vsix" | cut -f1), $(tail -1 <<<"$listing" | awk '{print $2}') files, $ort"
done
