import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { captureIo } from '../../fixtures/captureIo';

// `--tuning` used to ignore names outside the retrieval-tuning table, so a run meant to change
// fts_max_query_terms silently measured the defaults. These runs fail on the names, before indexing.
describe('gmem eval nq --tuning names', () => {
	const dir = mkdtempSync(join(tmpdir(), 'gmem-nq-tuning-'));
	const questions = join(dir, 'q.jsonl');
	writeFileSync(
		questions,
		JSON.stringify({ id: 'q1', repo: 'tiny', question: 'where is x?', gold_files: ['a.py'] }) + '\n',
	);
	const tuning = (value: unknown): string => {
		const f = join(dir, `t${Math.random().toString(36).slice(2)}.json`);
		writeFileSync(f, JSON.stringify(value));
		return f;
	};
	const run = async (t: string) => {
		const c = captureIo(dir);
		const code = await runCli(['eval', 'nq', questions, '--root', `tiny=${dir}`, '--tuning', t], c.io);
		return { code, err: c.err() };
	};

	it('rejects a core threshold and points to --config', async () => {
		const r = await run(tuning({ fts_max_query_terms: 64 }));
		assert.equal(r.code, 1); // EXIT_USAGE
		assert.match(
			r.err,
			/"fts_max_query_terms" is a core threshold, not a retrieval-tuning one; pass it with --config FILE/,
		);
	});

	it('rejects a name that is no threshold at all, listing the known ones', async () => {
		const r = await run(tuning({ symbol_arm_wieght: 0 }));
		assert.equal(r.code, 1); // EXIT_USAGE
		assert.match(r.err, /unknown retrieval-tuning name "symbol_arm_wieght" \(known: [a-z_]+/);
	});

	it('rejects a file that is not a JSON object', async () => {
		const r = await run(tuning([1, 2]));
		assert.equal(r.code, 1); // EXIT_USAGE
		assert.match(r.err, /must be a JSON object of retrieval-tuning names/);
	});
});
