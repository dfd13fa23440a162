/**
 * The symbol arm end to end on both engines, with the product's models (built-in embedder and
 * reranker): definitions reach the symbol table through the indexer, a named definition leads the
 * results even where its changelog, docs and tests mention it more often, and the rows go with
 * their file.
 */
import assert from 'node:assert/strict';
import { cpSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { Indexer } from '../../src/indexing/indexer';
import { LinearReranker } from '../../src/models/linearReranker';
import { DEFAULT_RETRIEVAL_TUNING, retrievalTuning } from '../../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Store } from '../../src/store/openStore';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

const FIXTURE = join(__dirname, '..', 'fixtures', 'retrieval', 'webapp');
const copyFixture = (root: string) => cpSync(FIXTURE, root, { recursive: true });

for (const engine of testEngines()) {
	describe(`symbol arm (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, { prefix: 'gmem-symbols-', builtinEmbedder: true, write: copyFixture });
		const current = repo.store;
		let store: Store;
		beforeEach(() => {
			store = current();
		});
		const search = (query: string, tuning = DEFAULT_RETRIEVAL_TUNING) =>
			retrieveWorkspace(store.db, {
				query,
				workspaceIds: [repo.ws()],
				k: 5,
				embedder: repo.embedder(),
				reranker: new LinearReranker(),
				floor: DEFAULT_THRESHOLDS.floor_workspace_question,
				thresholds: DEFAULT_THRESHOLDS,
				tuning,
			});

		it('the indexer fills the symbol table with qualified names, kinds and lines', async () => {
			const rows = await store.db.query<{ path: string; name: string; kind: string; start_line: number }>(
				'SELECT path, name, kind, start_line FROM symbols WHERE workspace_id = $1 ORDER BY path, start_line',
				[repo.ws()],
			);
			const names = rows.map((r) => `${r.path}:${r.name}:${r.kind}`);
			for (const n of [
				'src/webapp/helpers.py:send_file:function',
				'src/webapp/app.py:WebApp.send_static_file:method',
				'src/webapp/app.py:WebApp:class',
				'tests/test_helpers.py:TestSendfile.test_send_file:method',
			]) {
				assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
			}
			assert.equal(rows.find((r) => r.name === 'send_file')?.start_line, 14);
		});

		it('"How is send_file implemented?" opens with def send_file, and the trace says why', async () => {
			const r = await search('How is send_file implemented?');
			assert.equal(r.ranked[0].path, 'src/webapp/helpers.py');
			assert.match(r.ranked[0].content, /def send_file\(/);
			assert.deepEqual(r.ranked[0].symbol_match && [r.ranked[0].symbol_match.match, r.ranked[0].symbol_match.name], [
				'definition',
				'send_file',
			]);
			assert.equal(r.evidence.selected.find((e) => e.rank === 1)?.candidate.hit.path, 'src/webapp/helpers.py');
			const note = r.steps.find((s) => s.kind === 'note' && s.message.startsWith('symbol arm:'));
			assert.ok(
				note &&
					note.kind === 'note' &&
					/send_file \(code\) → \d+ definition\(s\) \[send_file src\/webapp\/helpers\.py:14/.test(note.message),
				JSON.stringify(note),
			);
		});

		it('without the symbol arm the same question does not open with the definition (the fixture needs the arm)', async () => {
			const r = await search(
				'How is send_file implemented?',
				retrievalTuning({ rrf_weight_symbol: 0, symbol_pin_definitions: 0 }),
			);
			assert.doesNotMatch(r.ranked[0].content, /def send_file\(/);
		});

		it('camelCase and qualified spellings meet the same definitions', async () => {
			const camel = await search('what does sendFile do with the mimetype');
			assert.match(camel.ranked[0].content, /def send_file\(/);
			const qualified = await search('WebApp.send_static_file');
			assert.equal(qualified.ranked[0].symbol_match?.name, 'WebApp.send_static_file');
		});

		it("a file's definitions leave the table with the file", async () => {
			unlinkSync(join(repo.root(), 'src', 'webapp', 'app.py'));
			await new Indexer({ db: store.db, embedder: repo.embedder(), thresholds: DEFAULT_THRESHOLDS }).indexFolders([
				repo.root(),
			]);
			const rows = await store.db.query('SELECT 1 FROM symbols WHERE workspace_id = $1 AND path = $2', [
				repo.ws(),
				'src/webapp/app.py',
			]);
			assert.equal(rows.length, 0);
			const left = await store.db.query('SELECT 1 FROM symbols WHERE workspace_id = $1 AND path = $2', [
				repo.ws(),
				'src/webapp/helpers.py',
			]);
			assert.ok(left.length >= 3);
		});
	});
}

for (const engine of testEngines()) {
	describe(`pasted failures (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, { prefix: 'gmem-frames-', builtinEmbedder: true, write: copyFixture });
		const current = repo.store;
		const search = (query: string) =>
			retrieveWorkspace(current().db, {
				query,
				workspaceIds: [repo.ws()],
				k: 4,
				embedder: repo.embedder(),
				reranker: new LinearReranker(),
				floor: DEFAULT_THRESHOLDS.floor_workspace_question,
				thresholds: DEFAULT_THRESHOLDS,
				files: true,
			});

		it('frames in site-packages map to the workspace files; the innermost one leads, exact evidence, traced', async () => {
			const r = await search(`after upgrading, serving static files crashes:
Traceback (most recent call last):
  File "/srv/site/run.py", line 8, in <module>
    app.dispatch("/static/logo.png")
  File "/home/u/.venv/lib/python3.11/site-packages/webapp/app.py", line 21, in send_static_file
    return send_from_directory(self.static_folder, filename, max_age=3600)
  File "/home/u/.venv/lib/python3.11/site-packages/webapp/helpers.py", line 38, in send_from_directory
    raise NotFound()
webapp.helpers.NotFound`);
			assert.deepEqual(
				r.hits.slice(0, 2).map((h) => h.path),
				['src/webapp/helpers.py', 'src/webapp/app.py'],
			);
			const first = r.evidence.selected.find((e) => e.rank === 1)!.candidate.hit;
			assert.ok(first.start_line! <= 38 && first.end_line! >= 38, `${first.start_line}-${first.end_line}`);
			const note = r.steps.find((s) => s.kind === 'note' && s.message.startsWith('pasted failure:'));
			assert.ok(
				note &&
					note.kind === 'note' &&
					/3 frame\(s\), webapp\.helpers\.NotFound; 2 in the workspace \(src\/webapp\/helpers\.py:38, src\/webapp\/app\.py:21\)/.test(
						note.message,
					),
				JSON.stringify(note),
			);
		});
	});
}
