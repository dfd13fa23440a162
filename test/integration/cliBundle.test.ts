/**
 * The bundled CLI (dist/cli.js, as `gmem` is installed) runs the product's defaults: the built-in
 * model and reranker resolve beside the bundle (dist/models/builtin/), from any working directory.
 * Needs `npm run build` first (npm test builds before the suites); without the bundle it says so.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { stopOwner } from '../../src/store/ownerClient';
import { tempStoreDir } from '../fixtures/store_engines';

const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');
const DOCS = resolve(__dirname, '..', 'fixtures', 'store_docs.jsonl');
const run = promisify(execFile);

describe('gmem bundle (dist/cli.js) with no flags', function () {
	this.timeout(120_000);
	const db = tempStoreDir('gmem-bundle-');
	after(async () => {
		await stopOwner(db);
		rmSync(db, { recursive: true, force: true });
	});

	it('ingests with the built-in embedder and search reranks with the built-in reranker', async function () {
		if (!existsSync(CLI)) {
			process.stdout.write('\n  [cli bundle] dist/cli.js is not built (npm run build): SKIPPED\n');
			this.skip();
		}
		// A working directory far from the repository, and no model-folder override: the files must
		// be found beside the bundle itself.
		const env = { ...process.env, GMEM_DB: '', GMEM_EMBEDDER: '', GMEM_BUILTIN_MODEL_DIR: '' };
		const opts = { cwd: tmpdir(), env };
		const ingested = await run(process.execPath, [CLI, 'ingest', DOCS, '--db', db, '--workspace', db, '--json'], opts);
		assert.doesNotMatch(ingested.stderr, /TEST embedder/);
		const searched = await run(
			process.execPath,
			[CLI, 'search', 'refresh access token', '--db', db, '--json', '--k', '3'],
			opts,
		);
		const o = JSON.parse(searched.stdout) as {
			hits: { id: string; arms: { vector: unknown }; rerank: { status: string } | null }[];
			notes: string[];
		};
		assert.equal(o.hits[0]?.id, 'auth');
		assert.ok(
			o.hits.some((h) => h.arms.vector),
			'built-in vectors were stored and searched',
		);
		assert.ok(
			o.hits.every((h) => h.rerank?.status === 'model'),
			searched.stderr,
		);
		assert.ok(
			o.notes.some((n) => /gmem-rerank-linear-v1/.test(n)),
			o.notes.join(' | '),
		);
	});
});
