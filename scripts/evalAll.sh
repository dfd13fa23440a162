#!/usr/bin/env bash
# `npm run eval`: the whole evaluation suite on the development data (issue 7), deterministic and
# offline. Each step writes its table (.txt), its machine output (.json) and its stderr (.log) to
# $GMEM_EVAL_OUT (default ${TMPDIR:-/tmp}/gmem-eval); docs/evaluation.md quotes these tables.
# Data: our fixtures in test/fixtures/eval, and CAsT 2019 + CoSQA from $GMEM_SHARED (default
# ../shared); when the shared folder is missing those steps are skipped and the script says so.
# Env: GMEM_EVAL_COSQA_LIMIT=N evaluates only the first N CoSQA queries (default: all 500).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SHARED=$(cd "${GMEM_SHARED:-../shared}" 2>/dev/null && pwd || true)
OUT=${GMEM_EVAL_OUT:-${TMPDIR:-/tmp}/gmem-eval}
mkdir -p "$OUT"
# Quiet build; on failure, build again loudly so the error shows.
npm run --silent build >/dev/null 2>&1 || npm run build
FIX=test/fixtures/eval

# step NAME ARGS...: `gmem eval ARGS` → $OUT/NAME.txt (table), NAME.json, NAME.log
step() {
	local name=$1 started=$SECONDS
	shift
	node dist/cli.js eval "$@" --json-out "$OUT/$name.json" > "$OUT/$name.txt" 2> "$OUT/$name.log"
	echo "  $name: $OUT/$name.txt ($((SECONDS - started)) s)"
}

# followup has no --json-out: it is cheap, so it runs twice.
followup() {
	local name=$1 file=$2 started=$SECONDS
	node dist/cli.js eval followup "$file" > "$OUT/$name.txt" 2> "$OUT/$name.log"
	node dist/cli.js eval followup "$file" --json > "$OUT/$name.json" 2>> "$OUT/$name.log"
	echo "  $name: $OUT/$name.txt ($((SECONDS - started)) s)"
}

echo "gmem eval suite -> $OUT"
step gate gate "$FIX/conversations.jsonl" --baseline seed --errors
followup followup_coding test/fixtures/followup_coding.jsonl
step ab ab "$FIX/conversations.jsonl" --corpus "$FIX/corpus.jsonl" --k 4 --baseline seed
step retrieval_fixture retrieval --corpus "$FIX/corpus.jsonl" --queries "$FIX/queries.jsonl"
if [ -n "$SHARED" ] && [ -f "$SHARED/eval/dev/followup_cast2019.jsonl" ]; then
	followup followup_cast "$SHARED/eval/dev/followup_cast2019.jsonl"
	LIMIT=()
	if [ -n "${GMEM_EVAL_COSQA_LIMIT:-}" ]; then LIMIT=(--limit "$GMEM_EVAL_COSQA_LIMIT"); fi
	step retrieval_cosqa retrieval --corpus "$SHARED/eval/corpus/cosqa_corpus.jsonl" \
		--queries "$SHARED/eval/dev/cosqa_dev.jsonl" --text-field code "${LIMIT[@]}"
else
	echo "  SKIPPED: CAsT follow-up and CoSQA retrieval: no shared data at ${GMEM_SHARED:-../shared} (set GMEM_SHARED)"
fi
echo "tables: $OUT/*.txt (JSON beside them, stderr in *.log)"
