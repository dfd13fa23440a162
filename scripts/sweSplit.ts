/**
 * Writes the swe-dev / swe-test id lists (issue 15 item 1) outside the repository, then filters an
 * `eval nq` row file (from scripts/sweToNq.ts) by them:
 *
 *   npx tsx scripts/sweSplit.ts ../shared/eval/dev/swe_lite_loc_dev.jsonl OUTDIR [NQ_ROWS.jsonl]
 *
 * OUTDIR gets swe-dev.ids, swe-test.ids and, given NQ_ROWS, swe-dev.jsonl / swe-test.jsonl.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweSplitIds } from '../src/cli/sweSplit.js';

const [input, outDir, nqRows] = process.argv.slice(2);
if (!input || !outDir) throw new Error('usage: sweSplit.ts SWE_LOC.jsonl OUTDIR [NQ_ROWS.jsonl]');
const read = (f: string) =>
	readFileSync(f, 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as { id: string; repo: string });
const ids = sweSplitIds(read(input));
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'swe-dev.ids'), ids.dev.join('\n') + '\n');
writeFileSync(join(outDir, 'swe-test.ids'), ids.test.join('\n') + '\n');
console.log(`swe-dev ${ids.dev.length} ids, swe-test ${ids.test.length} ids`);
if (nqRows) {
	const lines = readFileSync(nqRows, 'utf8')
		.split('\n')
		.filter((l) => l.trim());
	for (const half of ['dev', 'test'] as const) {
		const keep = new Set(ids[half]);
		const rows = lines.filter((l) => keep.has((JSON.parse(l) as { id: string }).id));
		writeFileSync(join(outDir, `swe-${half}.jsonl`), rows.join('\n') + '\n');
		console.log(`swe-${half}: ${rows.length} rows kept of ${ids[half].length}`);
	}
}
