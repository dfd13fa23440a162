/**
 * The indexing worker thread through its host-side client: the Indexer API with progress and
 * cancellation off the host's thread, and crash reporting with restart on the next call.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexWorkerClient } from '../../src/indexing/indexWorkerClient';
import type { IndexProgress } from '../../src/indexing/indexer';
import { copyWorkspace } from '../fixtures/indexing/workspace';
import { testEngines } from '../fixtures/store_engines';

const [pglite] = testEngines();

describe('indexing: worker thread client (PGlite)', function () {
	this.timeout(120_000);
	let ws: ReturnType<typeof copyWorkspace>;
	let dispose: () => Promise<void>;
	let client: IndexWorkerClient;

	before(async () => {
		ws = copyWorkspace();
		const created = await pglite.create();
		dispose = created.dispose;
		client = new IndexWorkerClient({ config: { store: created.location, embedder: 'hashing' } });
	});
	after(async () => {
		await client?.dispose();
		await dispose?.();
		ws.cleanup();
	});

	it('indexes in the worker with progress, then re-indexes one file', async () => {
		const seen: IndexProgress[] = [];
		const [r] = await client.indexFolders([ws.root], { onProgress: (p) => seen.push(p) });
		assert.equal(r.files_indexed, 17);
		assert.deepEqual([...new Set(seen.map((p) => p.phase))], ['walk', 'index', 'remove', 'done']);
		assert.equal(seen.find((p) => p.phase === 'index')?.files_total, 19);
		writeFileSync(join(ws.root, 'src', 'format.ts'), 'export const euro = (v: number) => `€${v}`;\n');
		assert.equal((await client.reindexFile(join(ws.root, 'src', 'format.ts'))).status, 'indexed');
		assert.ok((await client.removeFile(join(ws.root, 'src', 'format.ts'))) > 0);
	});

	it('cancels a run through the AbortSignal', async () => {
		const ac = new AbortController();
		ac.abort();
		await assert.rejects(client.indexFolders([ws.root], { signal: ac.signal }), /abort/i);
		const late = new AbortController();
		const run = client.indexFolders([ws.root], {
			signal: late.signal,
			onProgress: (p) => p.phase === 'walk' && late.abort(),
		});
		await assert.rejects(run, (e: Error) => e.name === 'AbortError');
	});
});

describe('indexing: worker crash is reported and the worker restarted', () => {
	it('rejects pending work, calls onCrash, and starts a new worker on the next call', async () => {
		const script = join(mkdtempSync(join(tmpdir(), 'gmem-crash-')), 'crash.js');
		// A worker that starts fine and dies on its first request, like an out-of-memory crash would.
		writeFileSync(
			script,
			"const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ type: 'ready' }); parentPort.on('message', () => process.exit(3));\n",
		);
		const crashes: string[] = [];
		const client = new IndexWorkerClient({
			config: { store: { kind: 'folder', dir: '/nonexistent' }, embedder: 'none' },
			script,
			onCrash: (m) => crashes.push(m),
		});
		await assert.rejects(client.removeFile('/x/a.ts'), /exited with code 3/);
		await assert.rejects(client.removeFile('/x/a.ts'), /exited with code 3/); // a hung dead worker would time out here
		assert.equal(crashes.length, 2);
		await client.dispose();
	});
});
