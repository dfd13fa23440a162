/**
 * The two watcher events that stand for more than one file, on real engines: a folder that
 * appears as ONE event (a checkout, `cp -r`, an unzip) is walked under the full walk's rules and
 * indexed in the same batch; a deleted folder's documents are gone; a changed `.gitignore` (or
 * `.git/info/exclude`) re-evaluates only the folder it governs — newly ignored files leave the
 * store and search, un-ignored ones come back.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { ignoreChangeText } from '../../src/indexing/ignoreChange';
import { Indexer } from '../../src/indexing/indexer';
import { IndexWorkerClient } from '../../src/indexing/indexWorkerClient';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { hybridSearch } from '../../src/retrieval/hybridSearch';
import { deleteDocuments } from '../../src/store/chunkRepo';
import { workspaceId } from '../../src/store/location';
import type { Store } from '../../src/store/openStore';
import type { Queryable } from '../../src/store/queryable';
import { copyWorkspace } from '../fixtures/indexing/workspace';
import { countingDb } from '../fixtures/countingDb';
import { mustOpen, testEngines } from '../fixtures/store_engines';

for (const engine of testEngines()) {
	describe(`indexing: folders and ignore files in a watcher batch (${engine.name})`, function () {
		this.timeout(120_000);
		let store: Store;
		let dispose: () => Promise<void>;
		let ws: ReturnType<typeof copyWorkspace>;
		let db: Queryable & { transactions: number };
		let indexer: Indexer;
		const embedder = new HashingEmbedder(384, codeTokens);
		const abs = (...rel: string[]) => rel.map((r) => join(ws.root, ...r.split('/')));
		const storedUnder = async (prefix: string) =>
			(
				await store.db.query<{ doc_id: string }>(
					`SELECT doc_id FROM documents WHERE workspace_id = $1 AND doc_id LIKE $2 ORDER BY doc_id`,
					[workspaceId(ws.root), `${prefix}%`],
				)
			).map((r) => r.doc_id);
		// Paths of the full-text hits whose text holds `marker`.
		const found = async (marker: string) =>
			(
				await hybridSearch(store.db, marker, {
					tier: 'workspace',
					workspaceIds: [workspaceId(ws.root)],
					k: 50,
					arm: 'fts',
					embedder,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				})
			).hits
				.filter((h) => h.content.includes(marker))
				.map((h) => h.path)
				.sort();

		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			store = await mustOpen(created.location);
		});
		after(async () => {
			await store?.close();
			await dispose?.();
		});
		beforeEach(async () => {
			ws = copyWorkspace();
			db = countingDb(store.db);
			indexer = new Indexer({ db, embedder, thresholds: DEFAULT_THRESHOLDS });
			await indexer.indexFolders([ws.root]);
			db.transactions = 0;
		});
		afterEach(async () => {
			await deleteDocuments(store.db, { workspaceId: workspaceId(ws.root) });
			ws.cleanup();
		});

		it('a folder reported as one create event is walked with the walk rules and indexed in the batch', async () => {
			mkdirSync(join(ws.root, 'pkg', 'deep', 'node_modules', 'dep'), { recursive: true });
			writeFileSync(join(ws.root, 'pkg', 'alpha.py'), 'def axolotl_alpha():\n    return 1\n');
			writeFileSync(join(ws.root, 'pkg', 'beta.ts'), 'export const axolotlBeta = 2;\n');
			writeFileSync(join(ws.root, 'pkg', 'deep', 'gamma.go'), 'package deep\n\nfunc AxolotlGamma() int { return 3 }\n');
			writeFileSync(join(ws.root, 'pkg', 'deep', 'run.log'), 'axolotlLog ignored by the root *.log\n');
			writeFileSync(
				join(ws.root, 'pkg', 'deep', 'node_modules', 'dep', 'index.js'),
				'module.exports = "axolotlVendored";\n',
			);
			writeFileSync(join(ws.root, 'pkg', '.gitignore'), 'skipme.ts\n');
			writeFileSync(join(ws.root, 'pkg', 'skipme.ts'), 'export const axolotlSkipped = 4;\n');
			writeFileSync(join(ws.root, 'pkg', '.env'), 'AXOLOTL_TOKEN=planted\n');
			const r = await indexer.reindexPaths(abs('pkg'));
			assert.deepEqual(await storedUnder('pkg/'), [
				'pkg/.gitignore',
				'pkg/alpha.py',
				'pkg/beta.ts',
				'pkg/deep/gamma.go',
			]);
			assert.equal(r.files_indexed, 4);
			assert.equal(r.folders_walked, 1);
			assert.equal(r.transactions, 1);
			assert.equal(db.transactions, 1, 'the whole folder in one transaction');
			assert.deepEqual(await found('AxolotlGamma'), ['pkg/deep/gamma.go']);
			for (const m of ['axolotlLog', 'axolotlVendored', 'axolotlSkipped', 'AXOLOTL_TOKEN'])
				assert.deepEqual(await found(m), [], m);
		});

		it('a deleted folder (one event) removes every document under it, and only those', async () => {
			mkdirSync(join(ws.root, 'pkg', 'deep'), { recursive: true });
			writeFileSync(join(ws.root, 'pkg', 'alpha.py'), 'def wombat_alpha():\n    return 1\n');
			writeFileSync(join(ws.root, 'pkg', 'deep', 'gamma.go'), 'package deep\n\nfunc WombatGamma() int { return 3 }\n');
			writeFileSync(join(ws.root, 'pkg2.py'), 'def wombat_sibling():\n    return 2\n');
			await indexer.reindexPaths(abs('pkg', 'pkg2.py'));
			assert.deepEqual(await storedUnder('pkg'), ['pkg/alpha.py', 'pkg/deep/gamma.go', 'pkg2.py']);
			rmSync(join(ws.root, 'pkg'), { recursive: true });
			const r = await indexer.reindexPaths(abs('pkg'));
			assert.equal(r.files_removed, 2);
			assert.deepEqual(await storedUnder('pkg'), ['pkg2.py'], 'a sibling sharing the name prefix stays');
			assert.deepEqual(await found('WombatGamma'), []);
		});

		it('a pattern added to a nested .gitignore removes the matching files under its folder only; removing it brings them back', async () => {
			mkdirSync(join(ws.root, 'src', 'vault'));
			mkdirSync(join(ws.root, 'vault'));
			writeFileSync(join(ws.root, 'src', 'vault', 'tokens.ts'), 'export const quokkaVaultTokens = 1;\n');
			writeFileSync(join(ws.root, 'src', 'vault', 'more.ts'), 'export const quokkaVaultMore = 2;\n');
			writeFileSync(join(ws.root, 'src', 'notes.secretnotes'), 'quokkaNotes plain text\n');
			writeFileSync(join(ws.root, 'vault', 'root.ts'), 'export const quokkaRootVault = 3;\n');
			await indexer.reindexPaths(abs('src/vault', 'src/notes.secretnotes', 'vault'));
			assert.deepEqual(await found('quokkaVaultTokens'), ['src/vault/tokens.ts']);
			// Changed on disk without an event: outside the re-evaluated folder it must stay as stored.
			appendFileSync(join(ws.root, 'config.py'), '\nQUOKKA_UNSEEN = 1\n');

			writeFileSync(join(ws.root, 'src', '.gitignore'), 'vault/\n*.secretnotes\n');
			const r = await indexer.reindexPaths(abs('src/.gitignore'));
			assert.equal(r.files_removed, 3);
			assert.deepEqual(r.ignore_changes.map(ignoreChangeText), ['removed 3 files now ignored by src/.gitignore']);
			assert.equal(r.transactions, 1);
			for (const m of ['quokkaVaultTokens', 'quokkaVaultMore', 'quokkaNotes']) assert.deepEqual(await found(m), [], m);
			assert.deepEqual(await found('quokkaRootVault'), ['vault/root.ts'], 'a root vault/ is outside src/.gitignore');
			assert.deepEqual(await found('QUOKKA_UNSEEN'), [], 'files outside src/ were not looked at');
			assert.deepEqual(
				await storedUnder('src/.gitignore'),
				['src/.gitignore'],
				'the ignore file itself is indexed, as any text file',
			);

			writeFileSync(join(ws.root, 'src', '.gitignore'), '*.secretnotes\n');
			const back = await indexer.reindexPaths(abs('src/.gitignore'));
			assert.deepEqual(back.ignore_changes.map(ignoreChangeText), [
				'indexed 2 files no longer ignored by src/.gitignore',
			]);
			assert.deepEqual(await found('quokkaVaultTokens'), ['src/vault/tokens.ts']);
			assert.deepEqual(await found('quokkaVaultMore'), ['src/vault/more.ts']);
			assert.deepEqual(await found('quokkaNotes'), []);
		});

		it('a deleted nested .gitignore re-applies the parent rules to its folder', async () => {
			// src/sub/.gitignore: `generated.ts` and `!keep.log` (the root ignores *.log).
			assert.deepEqual(await storedUnder('src/sub/'), ['src/sub/.gitignore', 'src/sub/keep.log']);
			rmSync(join(ws.root, 'src', 'sub', '.gitignore'));
			const r = await indexer.reindexPaths(abs('src/sub/.gitignore'));
			assert.deepEqual(r.ignore_changes.map(ignoreChangeText), [
				'removed 1 file now ignored, indexed 1 file no longer ignored by src/sub/.gitignore',
			]);
			assert.deepEqual(await storedUnder('src/sub/'), ['src/sub/generated.ts']);
		});

		it('.git/info/exclude governs the whole folder', async () => {
			mkdirSync(join(ws.root, '.git', 'info'), { recursive: true });
			writeFileSync(join(ws.root, '.git', 'info', 'exclude'), 'docs/\n');
			const r = await indexer.reindexPaths(abs('.git/info/exclude'));
			assert.deepEqual(r.ignore_changes.map(ignoreChangeText), ['removed 1 file now ignored by .git/info/exclude']);
			assert.deepEqual(await storedUnder('docs/'), []);
		});
	});
}

describe('indexing: a changed .gitignore through the worker', function () {
	this.timeout(120_000);
	it('the batch result carries what the ignore change did', async () => {
		const [pglite] = testEngines();
		const created = await pglite.create();
		const ws = copyWorkspace();
		const client = new IndexWorkerClient({ config: { store: created.location, embedder: 'hashing' } });
		try {
			await client.indexFolders([ws.root]);
			appendFileSync(join(ws.root, '.gitignore'), 'legacy/\n');
			const r = await client.reindexPaths([join(ws.root, '.gitignore')], [ws.root]);
			assert.deepEqual(
				r.ignore_changes.map((c) => ({ rules: c.rules, folder: c.folder, removed: c.removed })),
				[{ rules: '.gitignore', folder: '', removed: 1 }],
			);
		} finally {
			await client.dispose();
			ws.cleanup();
			await created.dispose();
		}
	});
});
