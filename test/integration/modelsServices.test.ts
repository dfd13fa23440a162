/**
 * The wired model layer end to end: download from a local hub with the check done inside the
 * worker, failure memory and reset, and recovery after the worker process dies.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelServices, type ModelServices } from '../../src/models/modelServices';
import { OnnxReranker } from '../../src/models/onnxModels';
import { FakeHub } from '../fixtures/models/hubServer';
import { tempDir, tinyManifest, writeTinyModel } from '../fixtures/models/tinyModels';

describe('models: wired services (worker-side validation, failure memory, crash recovery)', function () {
	this.timeout(60_000);
	let tmp: ReturnType<typeof tempDir>;
	let hub: FakeHub;
	let services: ModelServices | undefined;
	const emb = tinyManifest('embedder');
	const rr = tinyManifest('reranker');

	beforeEach(async () => {
		tmp = tempDir('svc');
		hub = new FakeHub();
		await hub.start();
		for (const m of [emb, rr]) {
			const src = join(tmp.dir, 'src', m.name);
			writeTinyModel(src, m.kind);
			for (const f of Object.values(m.files)) hub.put(m.repo, m.revision, f.path, readFileSync(join(src, f.path)));
		}
	});
	afterEach(async () => {
		await services?.dispose();
		services = undefined;
		await hub.stop();
		tmp.cleanup();
	});

	it('downloads on first use (consent asked once per model) and then embeds and reranks', async () => {
		const asked: string[] = [];
		services = createModelServices({
			cacheDir: join(tmp.dir, 'cache'),
			hubEndpoint: hub.url,
			embedder: emb,
			reranker: rr,
			worker: { mode: 'child' },
			confirmDownload: async (m) => (asked.push(m.name), true),
		});
		assert.equal(services.client.running, false);
		const [v] = await services.embedder!.embed(['the database']);
		assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
		const r = await services.reranker.rerank('database', ['pg', 'code']);
		assert.equal(r.status, 'model');
		await services.embedder!.embed(['again']);
		assert.deepEqual(asked, ['tiny-embedder', 'tiny-reranker']);
		assert.equal(services.manager.status(emb).where, 'cache');
	});

	it('remembers a refusal instead of asking on every query; reset() asks again', async () => {
		let asks = 0;
		let answer = false;
		services = createModelServices({
			cacheDir: join(tmp.dir, 'cache'),
			hubEndpoint: hub.url,
			embedder: null,
			reranker: rr,
			confirmDownload: async () => (asks++, answer),
		});
		assert.equal(services.embedder, null);
		assert.equal((await services.reranker.rerank('q', ['a'])).status, 'passthrough');
		assert.equal((await services.reranker.rerank('q', ['a'])).status, 'passthrough');
		assert.equal(asks, 1);
		assert.ok(services.reranker instanceof OnnxReranker);
		const st = services.reranker.state();
		assert.equal(st.status, 'failed');
		assert.equal(st.status === 'failed' && st.error.code, 'refused');
		answer = true;
		assert.ok(services.reranker instanceof OnnxReranker);
		services.reranker.reset();
		assert.equal(services.reranker.state().status, 'idle');
		assert.equal((await services.reranker.rerank('q', ['a'])).status, 'model');
		assert.equal(services.reranker.state().status, 'loaded');
		assert.equal(asks, 2);
	});

	it('recovers when the worker process dies: the model is reloaded on the next call', async () => {
		const local = join(tmp.dir, 'local');
		writeTinyModel(join(local, emb.name), 'embedder');
		services = createModelServices({
			cacheDir: join(tmp.dir, 'cache'),
			localModelDir: local,
			embedder: emb,
			reranker: null,
			worker: { mode: 'child' },
		});
		const [before] = await services.embedder!.embed(['pg code']);
		const stats = await services.client.request({ type: 'stats' });
		assert.ok(stats.ok && stats.value.pid !== process.pid);
		process.kill(stats.ok ? stats.value.pid : 0, 'SIGKILL');
		await new Promise((r) => setTimeout(r, 200));
		assert.equal(services.client.running, false);
		const [after] = await services.embedder!.embed(['pg code']);
		assert.deepEqual(after, before);
		const r = await services.reranker.rerank('q', ['a']);
		assert.deepEqual([r.status, r.reason], ['passthrough', 'reranker disabled in settings']);
	});
});
