/**
 * Two editor windows on one folder while a `git checkout` of another branch changes 1,000 files
 * at once (400 created, 300 modified, 300 deleted): each window has its own indexing worker
 * (IndexWorkerClient, as WorkspaceMemory starts one per window) and its watcher hands the burst to
 * `reindexPaths` — window A as one batch, window B as two (its debounce's max wait cut the burst
 * in half) — all at the same time, through the one store owner on PGlite and straight to the
 * server on PostgreSQL. Afterwards the store must match the disk: documents = the files now there,
 * no orphan or duplicate chunk, BM25 statistics equal to a rebuild (fixtures/faults/consistency.ts),
 * the new text searchable and the deleted files' text gone, and a full run finds nothing to do.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexWorkerClient } from '../../../src/indexing/indexWorkerClient';
import type { PathsIndexResult } from '../../../src/indexing/reindexPaths';
import { workspaceId, type StoreLocation } from '../../../src/store/location';
import type { Store } from '../../../src/store/openStore';
import { checkConsistency, CONSISTENT, violations } from '../../fixtures/faults/consistency';
import { goodMarker, ordinaryWorkspace } from '../../fixtures/faults/hostileWorkspace';
import { mustOpen, testEngines } from '../../fixtures/store_engines';

const BEFORE = 600; // files on the first branch
const MODIFIED = 300; // src/file0..299: new contents
const DELETED = 300; // src/file300..599: gone on the other branch
const CREATED = 400; // src/new0..399: only on the other branch
const AFTER = BEFORE - DELETED + CREATED;
/** The burst must be absorbed in bounded time on a shared 2-core machine (a few seconds each run here). */
const BURST_BUDGET_MS = 90_000;

const workerScript = join(__dirname, '..', '..', '..', 'src', 'indexing', 'indexWorker.ts');

/** Checks out "the other branch": 1,000 paths changed at once; returns them in the order a watcher reports them. */
function checkoutOtherBranch(root: string): string[] {
	const paths: string[] = [];
	for (let i = 0; i < MODIFIED; i++) {
		const p = join(root, 'src', `file${i}.ts`);
		writeFileSync(
			p,
			`// changed on the other branch ${i}\nexport const value${i} = ${i} * 2; // branchtwomarker${goodMarker(i)}\n`,
		);
		paths.push(p);
	}
	for (let i = MODIFIED; i < MODIFIED + DELETED; i++) {
		const p = join(root, 'src', `file${i}.ts`);
		rmSync(p);
		paths.push(p);
	}
	for (let i = 0; i < CREATED; i++) {
		const p = join(root, 'src', `new${i}.ts`);
		writeFileSync(p, `// only on the other branch ${i}\nexport function added${i}(): number {\n\treturn ${i};\n}\n`);
		paths.push(p);
	}
	return paths;
}

const count = async (store: Store, sql: string, params: unknown[]) =>
	(await store.db.query<{ n: number }>(sql, params))[0].n;

for (const engine of testEngines()) {
	describe(`faults: two windows indexing one folder during a 1,000-file watcher burst (${engine.name})`, function () {
		this.timeout(240_000);
		let location: StoreLocation;
		let store: Store;
		let dispose: () => Promise<void>;
		let windowA: IndexWorkerClient;
		let windowB: IndexWorkerClient;
		let ws: ReturnType<typeof ordinaryWorkspace>;
		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			location = created.location;
			store = await mustOpen(location);
			const window = () =>
				new IndexWorkerClient({ config: { store: location, embedder: 'hashing' }, script: workerScript });
			windowA = window();
			windowB = window();
			ws = ordinaryWorkspace(BEFORE);
		});
		after(async () => {
			await windowA?.dispose();
			await windowB?.dispose();
			await store?.close();
			await dispose?.();
			ws?.cleanup();
		});

		it('both windows absorb the burst at once: the store matches the disk, consistent, and a full run finds nothing to do', async () => {
			const [first] = await windowA.indexFolders([ws.root]);
			assert.equal(first.files_indexed, BEFORE);
			const paths = checkoutOtherBranch(ws.root);
			assert.equal(paths.length, 1_000);
			const half = paths.length / 2;
			const t0 = performance.now();
			const [a, ...b] = await Promise.all([
				windowA.reindexPaths(paths, [ws.root]),
				// Window B's two batches run one after the other, as its watcher would hand them over.
				windowB
					.reindexPaths(paths.slice(0, half), [ws.root])
					.then(async (r) => [r, await windowB.reindexPaths(paths.slice(half), [ws.root])]),
			]).then(([ra, rb]) => [ra, ...rb] as PathsIndexResult[]);
			const ms = performance.now() - t0;
			process.stdout.write(
				`      (burst: ${ms.toFixed(0)} ms; A indexed ${a.files_indexed} removed ${a.files_removed}; B indexed ${b[0].files_indexed + b[1].files_indexed} removed ${b[0].files_removed + b[1].files_removed})\n`,
			);
			assert.ok(ms < BURST_BUDGET_MS, `the burst took ${ms.toFixed(0)} ms`);
			for (const r of [a, ...b]) assert.deepEqual(r.failures, [], 'no file failed in either window');
			// Between them the windows wrote every change; which window wrote which file is a race.
			assert.ok(
				a.files_indexed + a.files_unchanged === MODIFIED + CREATED,
				`window A saw every present file: ${JSON.stringify(a)}`,
			);

			const id = workspaceId(ws.root);
			const c = await checkConsistency(store.db, id);
			assert.deepEqual(violations(c), CONSISTENT);
			assert.equal(c.docIds.length, AFTER, 'documents = the files on disk');
			assert.ok(!c.docIds.some((d) => /^src\/file(3\d\d|4\d\d|5\d\d)\.ts$/.test(d)), 'no deleted file is still stored');
			const text = (pattern: string) =>
				count(store, 'SELECT count(*)::int AS n FROM chunks WHERE workspace_id = $1 AND content LIKE $2', [
					id,
					pattern,
				]);
			assert.equal(await text('%branchtwomarker%'), MODIFIED, 'every modified file holds its new text');
			assert.equal(await text('%ordinary file 0\n%'), 0, 'no stale copy of a modified file');
			assert.equal(await text('%only on the other branch%'), CREATED);

			const [again] = await windowB.indexFolders([ws.root]);
			assert.equal(again.files_indexed, 0, `a full run afterwards writes nothing: ${JSON.stringify(again)}`);
			assert.equal(again.files_unchanged, AFTER);
		});
	});
}
