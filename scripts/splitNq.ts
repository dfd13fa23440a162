/**
 * Writes the dev/test halves of the natural-question set (test/fixtures/eval/nq/*.jsonl, the five
 * repositories' files) as dev.jsonl and test.jsonl beside them: per repository, ordered by the
 * SHA-256 of the id, first half dev (src/cli/nqSplit.ts). Tune on dev only; score test once.
 *
 *   npx tsx scripts/splitNq.ts [DIR]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseNqRows } from '../src/cli/evalNq';
import { nqSplit } from '../src/cli/nqSplit';

const dir = process.argv[2] ?? join(__dirname, '..', 'test', 'fixtures', 'eval', 'nq');
const sources = readdirSync(dir)
	.filter((f) => f.endsWith('.jsonl') && f !== 'dev.jsonl' && f !== 'test.jsonl')
	.sort();
const lines = sources.flatMap((f) =>
	readFileSync(join(dir, f), 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => ({ f, l })),
);
const rows = lines.map(({ f, l }) => ({ row: parseNqRows(l, f)[0], l }));
const split = nqSplit(rows.map((r) => r.row));
for (const half of ['dev', 'test'] as const) {
	const out = rows.filter((r) => split.get(r.row.id) === half).map((r) => r.l);
	writeFileSync(join(dir, `${half}.jsonl`), out.join('\n') + '\n');
	process.stdout.write(`${half}: ${out.length} questions\n`);
}
