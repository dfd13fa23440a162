/**
 * kill -9 in the middle of an index run, then a consistency check: documents = the indexed files,
 * no chunk without its document, no duplicate chunk, and BM25 statistics equal to a fresh rebuild
 * from the stored chunks (fixtures/faults/consistency.ts). Provoked on real processes: the index
 * process itself (an index worker dies with its host), the PGlite store owner (its clients reconnect
 * to a new owner), and on the server every connection of the database cut mid-run (what clients
 * see when PostgreSQL restarts: "terminating connection due to administrator command"). After each,
 * a re-run resumes (files already written are unchanged) and ends with every file indexed once.
 */
import assert from 'node:assert/strict';
import { Indexer } from '../../../src/indexing/indexer';
import { readLock } from '../../../src/store/lockFile';
import { workspaceId } from '../../../src/store/location';
import type { Store } from '../../../src/store/openStore';
import { HashingEmbedder } from '../../../src/models/hashingEmbedder';
import { codeTokens } from '../../../src/retrieval/codeTokens';
import { checkConsistency, CONSISTENT, violations } from '../../fixtures/faults/consistency';
import { ordinaryWorkspace } from '../../fixtures/faults/hostileWorkspace';
import { startRunner } from '../../fixtures/faults/runnerProcess';
import { mustOpen, testEngines } from '../../fixtures/store_engines';

const FILES = 240;

for (const engine of testEngines()) {
	describe(`faults: kill -9 mid-index, then a consistency check (${engine.name})`, function () {
		this.timeout(240_000);
		let where: string;
		let store: Store;
		let dispose: () => Promise<void>;
		let ws: ReturnType<typeof ordinaryWorkspace>;
		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			where = created.location.kind === 'folder' ? created.location.dir : created.location.url;
			store = await mustOpen(created.location);
		});
		after(async () => {
			await store?.close();
			await dispose?.();
		});
		beforeEach(() => (ws = ordinaryWorkspace(FILES)));
		afterEach(async () => {
			await store.db.query(`DELETE FROM documents WHERE workspace_id = $1`, [workspaceId(ws.root)]);
			ws.cleanup();
		});

		// The re-run after the fault: resumes, ends with every file once and the statistics exact.
		const rerunAndCheck = async () => {
			const [r] = await new Indexer({ db: store.db, embedder: new HashingEmbedder(384, codeTokens) }).indexFolders([
				ws.root,
			]);
			assert.equal(r.files_indexed + r.files_unchanged, FILES);
			assert.deepEqual(r.skipped, {});
			const c = await checkConsistency(store.db, workspaceId(ws.root));
			assert.deepEqual(violations(c), CONSISTENT);
			assert.equal(c.docIds.length, FILES);
			return r;
		};

		it('the index process killed mid-run: the re-run resumes and the store is consistent', async () => {
			const runner = startRunner(where, ws.root);
			await runner.atLeast(FILES / 2);
			runner.child.kill('SIGKILL');
			assert.equal((await runner.exit).signal, 'SIGKILL');
			const before = await checkConsistency(store.db, workspaceId(ws.root));
			assert.deepEqual(violations(before), CONSISTENT, 'consistent right after the kill, before any repair');
			assert.ok(
				before.docIds.length > 0 && before.docIds.length < FILES,
				`${before.docIds.length} files were written before the kill`,
			);
			const r = await rerunAndCheck();
			assert.equal(r.files_unchanged, before.docIds.length, 'what was written before the kill is not written again');
		});

		if (engine.name === 'pglite') {
			it('the store owner killed mid-run: the runner reconnects to a new owner, the store is consistent', async () => {
				const runner = startRunner(where, ws.root);
				await runner.atLeast(FILES / 3);
				const owner = readLock(where)?.pid;
				assert.ok(owner, 'an owner holds the lock');
				process.kill(owner, 'SIGKILL');
				const exit = await runner.exit;
				assert.equal(exit.code, 0, `the runner finished through a new owner: ${exit.err}`);
				assert.notEqual(readLock(where)?.pid, owner, 'a new owner took over');
				await rerunAndCheck();
			});
		} else {
			it('every connection cut mid-run (as in a server restart): the run fails cleanly or finishes, the re-run resumes, no duplicate or orphan rows', async () => {
				const runner = startRunner(where, ws.root);
				await runner.atLeast(FILES / 3);
				await store.db.query(
					`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
				);
				const exit = await runner.exit;
				process.stdout.write(
					`      (runner after the cut: exit ${exit.code}${exit.err ? `, ${exit.err.trim().split('\n')[0]}` : ''})\n`,
				);
				assert.ok(
					exit.code === 0 || /terminat|Connection/i.test(exit.err),
					`the runner ended with a connection error or finished: ${exit.code} ${exit.err}`,
				);
				assert.deepEqual(
					violations(await checkConsistency(store.db, workspaceId(ws.root))),
					CONSISTENT,
					'consistent right after the cut',
				);
				await rerunAndCheck();
			});
		}
	});
}
