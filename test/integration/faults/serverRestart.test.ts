/**
 * A real PostgreSQL restart in the middle of an index run: the server of GMEM_TEST_PG_URL is
 * stopped (`pg_ctl stop -m fast`, every connection terminated), left down for a moment, and started
 * again on the same data folder and port (fixtures/faults/serverControl.ts) while
 * fixtures/faults/index_runner.ts indexes in its own process. The run must either report the
 * failure (a connection error, or the files it could not write listed as write_error) or finish
 * through new connections; the test's own pool reconnects; the store is consistent right away
 * (no duplicate or orphan rows, statistics exact) and a re-run completes with every file once.
 * Server only, and only where the server can be restarted from here; otherwise it says so.
 */
import assert from 'node:assert/strict';
import { Indexer } from '../../../src/indexing/indexer';
import { workspaceId } from '../../../src/store/location';
import type { Store } from '../../../src/store/openStore';
import { HashingEmbedder } from '../../../src/models/hashingEmbedder';
import { codeTokens } from '../../../src/retrieval/codeTokens';
import { checkConsistency, CONSISTENT, violations } from '../../fixtures/faults/consistency';
import { ordinaryWorkspace } from '../../fixtures/faults/hostileWorkspace';
import { startRunner } from '../../fixtures/faults/runnerProcess';
import { serverControl, type ServerControl } from '../../fixtures/faults/serverControl';
import { mustOpen, testEngines } from '../../fixtures/store_engines';

const FILES = 240;
/** How long the server stays down: long enough that the runner's next statements meet a refused connection. */
const DOWN_MS = 1_500;

const server = testEngines().find((e) => e.name === 'postgres');

describe('faults: a real PostgreSQL restart mid-index (server)', function () {
	this.timeout(240_000);
	let control: ServerControl;
	let store: Store;
	let dispose: () => Promise<void>;
	let ws: ReturnType<typeof ordinaryWorkspace>;
	let url: string;
	before(async function () {
		if (!server) {
			process.stdout.write(
				'      [server restart] GMEM_TEST_PG_URL is not set: SKIPPED (needs a PostgreSQL server this machine can restart)\n',
			);
			return this.skip();
		}
		const c = await serverControl(process.env.GMEM_TEST_PG_URL!);
		if ('skip' in c) {
			process.stdout.write(`      [server restart] SKIPPED: ${c.skip}\n`);
			return this.skip();
		}
		control = c;
		const created = await server.create();
		dispose = created.dispose;
		if (created.location.kind !== 'url') throw new Error('the server engine gives a URL');
		url = created.location.url;
		store = await mustOpen(created.location);
		ws = ordinaryWorkspace(FILES);
	});
	after(async () => {
		await store?.close();
		await dispose?.();
		ws?.cleanup();
	});

	it('stopped and started while a run writes: the run reports it or reconnects, the store is consistent, a re-run completes', async () => {
		const runner = startRunner(url, ws.root);
		await runner.atLeast(FILES / 3);
		const before = await control.startedAt();
		await control.restart(DOWN_MS);
		assert.notEqual(await control.startedAt(), before, 'the server really restarted');
		const exit = await runner.exit;
		const done = /done (\{.*\})/.exec(exit.out)?.[1];
		const result = done ? (JSON.parse(done) as { files_indexed: number; skipped: Record<string, number> }) : null;
		process.stdout.write(
			`      (runner after the restart: exit ${exit.code}${result ? `, indexed ${result.files_indexed}, skipped ${JSON.stringify(result.skipped)}` : ''}${exit.err ? `, ${exit.err.trim().split('\n')[0]}` : ''})\n`,
		);
		if (exit.code === 0) {
			assert.ok(result, 'a finished run prints its result');
			// Finished: every file is either written or reported as not written (the outage), never silently missing.
			assert.equal(result.files_indexed + (result.skipped.write_error ?? 0), FILES, JSON.stringify(result));
		} else {
			assert.match(
				exit.err,
				/terminat|connect|ECONNREFUSED|ECONNRESET|EPIPE|shutting down|shut ?down|starting up|Connection/i,
				'the run failed with a connection error',
			);
		}

		const id = workspaceId(ws.root);
		// The test's own pool lost its connections too; this query runs on a new one.
		const after = await checkConsistency(store.db, id);
		assert.deepEqual(violations(after), CONSISTENT, 'consistent right after the restart');
		const [r] = await new Indexer({ db: store.db, embedder: new HashingEmbedder(384, codeTokens) }).indexFolders([
			ws.root,
		]);
		assert.equal(r.files_indexed + r.files_unchanged, FILES);
		assert.deepEqual(r.skipped, {});
		assert.equal(r.files_unchanged, after.docIds.length, 'what was written before the restart is not written again');
		const final = await checkConsistency(store.db, id);
		assert.deepEqual(violations(final), CONSISTENT);
		assert.equal(final.docIds.length, FILES);
	});
});
