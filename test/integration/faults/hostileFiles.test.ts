/**
 * Hostile entries in a workspace (issue #16): FIFOs, sockets and devices are never opened
 * (`not_regular`; a FIFO would block a read forever), a 10 MB one-line minified file is skipped by
 * rule without stalling, names with spaces, newlines or non-UTF-8 bytes index or skip cleanly, links
 * never lead outside the workspace, link loops terminate — in full runs and in the watcher's batch.
 * Every good file lands each time. Real files on disk, real engines.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { Indexer } from '../../../src/indexing/indexer';
import { HashingEmbedder } from '../../../src/models/hashingEmbedder';
import { codeTokens } from '../../../src/retrieval/codeTokens';
import { hybridSearch } from '../../../src/retrieval/hybridSearch';
import { workspaceId } from '../../../src/store/location';
import { checkConsistency, CONSISTENT, violations } from '../../fixtures/faults/consistency';
import { ordinaryWorkspace } from '../../fixtures/faults/hostileWorkspace';
import { suiteStore, testEngines } from '../../fixtures/store_engines';

const N = 5;
const goodIds = Array.from({ length: N }, (_, i) => `src/file${i}.ts`);
const posix = process.platform !== 'win32';

for (const engine of testEngines()) {
	describe(`faults: hostile files (${engine.name})`, function () {
		this.timeout(120_000);
		const store = suiteStore(engine);
		const embedder = new HashingEmbedder(384, codeTokens);
		let ws: ReturnType<typeof ordinaryWorkspace>;
		let servers: Server[] = [];
		const indexer = (extra: { followSymlinks?: boolean; maxFileBytes?: number } = {}) =>
			new Indexer({
				db: store().db,
				embedder,
				followSymlinks: extra.followSymlinks,
				thresholds: {
					...DEFAULT_THRESHOLDS,
					index_max_file_bytes: extra.maxFileBytes ?? DEFAULT_THRESHOLDS.index_max_file_bytes,
				},
			});
		const docIds = async () => (await checkConsistency(store().db, workspaceId(ws.root))).docIds;
		const assertGoodAndConsistent = async (extra: string[] = []) => {
			const c = await checkConsistency(store().db, workspaceId(ws.root));
			assert.deepEqual(violations(c), CONSISTENT);
			assert.deepEqual(c.docIds, [...goodIds, ...extra].sort());
		};

		beforeEach(() => (ws = ordinaryWorkspace(N)));
		afterEach(async () => {
			for (const s of servers) s.close();
			servers = [];
			await store().db.query(`DELETE FROM documents WHERE workspace_id = $1`, [workspaceId(ws.root)]);
			ws.cleanup();
		});

		(posix ? it : it.skip)(
			'FIFOs, sockets and devices are reported not_regular and never opened (full run and watcher batch)',
			async () => {
				execFileSync('mkfifo', [join(ws.root, 'pipe.log')]);
				execFileSync('mkfifo', [join(ws.root, 'src', 'pipe.ts')]);
				const server = createServer();
				await new Promise<void>((r) => server.listen(join(ws.root, 'app.sock'), r));
				servers.push(server);
				let devices = 0;
				try {
					execFileSync('mknod', [join(ws.root, 'zero.txt'), 'c', '1', '5'], { stdio: 'ignore' });
					devices = 1;
				} catch {
					process.stdout.write(
						'      (device node not created: mknod needs CAP_MKNOD here; FIFOs and sockets still checked)\n',
					);
				}
				const [r] = await indexer().indexFolders([ws.root]);
				assert.equal(r.files_indexed, N);
				assert.deepEqual(r.skipped, { not_regular: 3 + devices });
				assert.deepEqual(
					r.failures.map((f) => f.detail).sort(),
					[...(devices ? ['device'] : []), 'fifo', 'fifo', 'socket'].sort(),
				);
				// The watcher names the FIFO directly (a save event): stat first, never a blocking open.
				const b = await indexer().reindexPaths(
					[join(ws.root, 'pipe.log'), join(ws.root, 'src', 'pipe.ts')],
					undefined,
					[ws.root],
				);
				assert.deepEqual(b.skipped, { not_regular: 2 });
				await assertGoodAndConsistent();
			},
		);

		it('a 10 MB one-line minified file: too_large by stat at the default cap; skipped by the minified rule when the cap allows it', async () => {
			writeFileSync(join(ws.root, 'bundle.js'), 'var a=1;'.repeat((10 * 1024 * 1024) / 8));
			writeFileSync(
				join(ws.root, 'wide.js'),
				`const s = "${'x'.repeat(20_000)}"; // one wide line under the rule's size\n`,
			);
			const t0 = performance.now();
			const [r] = await indexer().indexFolders([ws.root]);
			assert.deepEqual(r.skipped, { too_large: 1 });
			assert.equal(r.files_indexed, N + 1, 'a single wide line in a small file is still indexed (as its own window)');
			const [big] = await indexer({ maxFileBytes: 20 * 1024 * 1024 }).indexFolders([ws.root]);
			const ms = performance.now() - t0;
			assert.deepEqual(big.skipped, { generated: 1 });
			assert.ok(ms < 30_000, `both runs took ${Math.round(ms)} ms`);
			await assertGoodAndConsistent(['wide.js']);
		});

		(posix ? it : it.skip)(
			'names with spaces and newlines are indexed; a name that is not UTF-8 is skipped as encoding',
			async () => {
				writeFileSync(join(ws.root, 'with space.ts'), 'export const spacedNameMarker = 1;\n');
				writeFileSync(join(ws.root, 'new\nline.ts'), 'export const newlineNameMarker = 1;\n');
				writeFileSync(
					Buffer.concat([Buffer.from(join(ws.root, 'latin')), Buffer.from([0xe9, 0xff]), Buffer.from('.ts')]),
					'export const badNameMarker = 1;\n',
				);
				const [r] = await indexer().indexFolders([ws.root]);
				assert.equal(r.files_indexed, N + 2);
				assert.deepEqual(r.skipped, { encoding: 1 });
				const ids = [workspaceId(ws.root)];
				for (const [word, path] of [
					['spacedNameMarker', 'with space.ts'],
					['newlineNameMarker', 'new\nline.ts'],
				]) {
					const out = await hybridSearch(store().db, word, {
						tier: 'workspace',
						workspaceIds: ids,
						k: 3,
						arm: 'fts',
						embedder,
						cosineFloor: null,
						thresholds: DEFAULT_THRESHOLDS,
					});
					assert.equal(out.hits[0]?.path, path);
				}
				await assertGoodAndConsistent(['new\nline.ts', 'with space.ts']);
			},
		);

		(posix ? it : it.skip)(
			'links never lead outside the workspace, and link loops terminate (following links, full run and watcher)',
			async () => {
				const outside = join(ws.base, 'outside');
				mkdirSync(outside);
				writeFileSync(join(outside, 'keys.ts'), 'export const outsideSecretMarker = 1;\n');
				symlinkSync(join(outside, 'keys.ts'), join(ws.root, 'keys-link.ts'));
				symlinkSync(outside, join(ws.root, 'outside-dir'));
				symlinkSync('..', join(ws.root, 'src', 'up')); // a loop: src/up → the root
				symlinkSync('self', join(ws.root, 'self')); // a link to itself
				symlinkSync('file0.ts', join(ws.root, 'src', 'alias.ts')); // inside: followed
				const [r] = await indexer({ followSymlinks: true }).indexFolders([ws.root]);
				assert.equal(r.files_indexed, N + 1);
				assert.deepEqual(r.skipped, { 'symlink-outside': 2, 'symlink-loop': 2 });
				await assertGoodAndConsistent(['src/alias.ts']);
				// The watcher names paths through the linked folder and the linked file: still outside.
				const b = await indexer({ followSymlinks: true }).reindexPaths(
					[join(ws.root, 'outside-dir', 'keys.ts'), join(ws.root, 'keys-link.ts')],
					undefined,
					[ws.root],
				);
				assert.equal(b.files_indexed, 0);
				assert.deepEqual(b.skipped, { 'symlink-outside': 2 });
				// Not following links: the same paths are plain `symlink` skips, never read.
				const c = await indexer().reindexPaths(
					[join(ws.root, 'outside-dir', 'keys.ts'), join(ws.root, 'keys-link.ts')],
					undefined,
					[ws.root],
				);
				assert.deepEqual(c.skipped, { symlink: 2 });
				assert.ok(!(await docIds()).some((d) => d.includes('keys')));
			},
		);
	});
}
