/**
 * The model manager against a local hub-shaped HTTP server: real downloads, redirects, resume
 * after a cut connection, checksum and ONNX checks, offline and consent handling.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InferenceClient } from '../../src/models/inferenceClient';
import { ModelManager, type ModelProgress } from '../../src/models/modelManager';
import type { ModelManifest } from '../../src/models/manifests';
import { OnnxEmbedder, OnnxReranker } from '../../src/models/onnxModels';
import { FakeHub } from '../fixtures/models/hubServer';
import { tempDir, tinyManifest, writeTinyModel } from '../fixtures/models/tinyModels';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('models: model manager against a local hub', function () {
	this.timeout(60_000);
	let tmp: ReturnType<typeof tempDir>;
	let hub: FakeHub;
	let source: string;
	let onnxBytes: Uint8Array;
	const manifest = tinyManifest('embedder');
	const onnxPath = `/${manifest.repo}/resolve/${manifest.revision}/onnx/model_quantized.onnx`;

	const publish = (m: ModelManifest, onnx?: Uint8Array) => {
		for (const role of ['config', 'tokenizerConfig', 'tokenizer', 'onnx'] as const) {
			const p = m.files[role].path;
			hub.put(m.repo, m.revision, p, role === 'onnx' && onnx ? onnx : readFileSync(join(source, p)));
		}
	};
	const manager = (extra: Partial<ConstructorParameters<typeof ModelManager>[0]> = {}) =>
		new ModelManager({ cacheDir: join(tmp.dir, 'cache'), hubEndpoint: hub.url + '/', allowDownload: true, ...extra });

	beforeEach(async () => {
		tmp = tempDir('mgr');
		source = join(tmp.dir, 'source');
		onnxBytes = writeTinyModel(source, 'embedder');
		hub = new FakeHub();
		await hub.start();
		publish(manifest);
	});
	afterEach(async () => {
		await hub.stop();
		tmp.cleanup();
	});

	it('downloads through the redirect, verifies, caches, and the model then runs', async () => {
		const progress: ModelProgress[] = [];
		const m = manager({ onProgress: (p) => progress.push(p) });
		assert.deepEqual(m.status(manifest), { where: 'absent' });
		const r = await m.locate(manifest);
		assert.ok(r.ok, !r.ok ? r.error.message : '');
		assert.equal(r.value, m.cacheFolder(manifest));
		assert.equal(sha(readFileSync(join(r.value, 'onnx/model_quantized.onnx'))), sha(onnxBytes));
		assert.deepEqual(m.status(manifest), { where: 'cache', dir: r.value });
		assert.ok(
			hub.log.some((l) => l.status === 302) && hub.log.some((l) => l.path === `/cdn${onnxPath}` && l.status === 200),
		);
		const last = progress.filter((p) => p.file === 'onnx/model_quantized.onnx').at(-1);
		assert.deepEqual(
			[last?.received, last?.total, last?.index, last?.count],
			[onnxBytes.length, onnxBytes.length, 4, 4],
		);
		// A second locate is served from the cache: no new requests.
		const before = hub.log.length;
		assert.ok((await m.locate(manifest)).ok);
		assert.equal(hub.log.length, before);

		const client = new InferenceClient();
		try {
			const [v] = await new OnnxEmbedder(client, manifest, m.locator(manifest)).embed(['the database']);
			assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
		} finally {
			await client.dispose();
		}
	});

	it('resumes after a cut connection with a Range request and ends with identical bytes', async () => {
		const half = Math.floor(onnxBytes.length / 2);
		hub.cutAfter.set(onnxPath, half);
		const r = await manager().locate(manifest);
		assert.ok(r.ok, !r.ok ? r.error.message : '');
		const gets = hub.log.filter((l) => l.path === `/cdn${onnxPath}`);
		assert.deepEqual(
			gets.map((g) => [g.status, g.range]),
			[
				[200, null],
				[206, `bytes=${half}-`],
			],
		);
		assert.equal(sha(readFileSync(join(r.value, 'onnx/model_quantized.onnx'))), sha(onnxBytes));
	});

	it('drops a stalled connection after the idle timeout and resumes', async () => {
		hub.stallAfter.set(onnxPath, 700);
		const r = await manager({ idleTimeoutMs: 300 }).locate(manifest);
		assert.ok(r.ok, !r.ok ? r.error.message : '');
		const gets = hub.log.filter((l) => l.path === `/cdn${onnxPath}`);
		assert.deepEqual(
			gets.map((g) => g.range),
			[null, 'bytes=700-'],
		);
		assert.equal(sha(readFileSync(join(r.value, 'onnx/model_quantized.onnx'))), sha(onnxBytes));
	});

	it('restarts a download whose partial file is already complete (server answers 416)', async () => {
		const m = manager();
		const part = join(m.cacheFolder(manifest) + '.partial', 'onnx', 'model_quantized.onnx.part');
		mkdirSync(join(part, '..'), { recursive: true });
		writeFileSync(part, onnxBytes);
		const r = await m.locate(manifest);
		assert.ok(r.ok, !r.ok ? r.error.message : '');
		const gets = hub.log.filter((l) => l.path === `/cdn${onnxPath}`);
		assert.deepEqual(
			gets.map((g) => [g.status, g.range]),
			[
				[416, `bytes=${onnxBytes.length}-`],
				[200, null],
			],
		);
	});

	it('rejects a checksum mismatch and leaves nothing behind', async () => {
		const pinned: ModelManifest = {
			...manifest,
			files: { ...manifest.files, onnx: { ...manifest.files.onnx, sha256: 'ab'.repeat(32) } },
		};
		const m = manager();
		const r = await m.locate(pinned);
		assert.equal(r.ok, false);
		assert.equal(!r.ok && r.error.code, 'download-failed');
		assert.match(!r.ok ? r.error.message : '', /SHA-256 [0-9a-f]{64} differs from the expected abab/);
		assert.equal(existsSync(join(m.cacheFolder(pinned) + '.partial', 'onnx/model_quantized.onnx.part')), false);
		assert.deepEqual(m.status(pinned), { where: 'absent' });
		// A known size that differs is refused the same way.
		const sized: ModelManifest = {
			...manifest,
			files: { ...manifest.files, onnx: { ...manifest.files.onnx, size: onnxBytes.length + 1 } },
		};
		assert.match(
			await m.locate(sized).then((x) => (!x.ok ? x.error.message : '')),
			new RegExp(`size ${onnxBytes.length} differs from the expected ${onnxBytes.length + 1}`),
		);
		// The correct hash is accepted.
		const good: ModelManifest = {
			...manifest,
			files: { ...manifest.files, onnx: { ...manifest.files.onnx, sha256: sha(onnxBytes) } },
		};
		assert.ok((await m.locate(good)).ok);
	});

	it('checks the hub-reported SHA-256 (X-Linked-Etag) and records measured hashes in the cache marker', async () => {
		hub.linkedEtag.set(onnxPath, 'cd'.repeat(32));
		const m = manager();
		const bad = await m.locate(manifest);
		assert.match(!bad.ok ? bad.error.message : '', /differs from the hub-reported cdcd/);
		hub.linkedEtag.set(onnxPath, sha(onnxBytes));
		const good = await m.locate(manifest);
		assert.ok(good.ok);
		const marker = m.cachedInfo(manifest) as {
			files: Record<string, { sha256: string; size: number; checkedAgainst: string }>;
		};
		assert.deepEqual(marker.files['onnx/model_quantized.onnx'], {
			sha256: sha(onnxBytes),
			size: onnxBytes.length,
			checkedAgainst: 'hub',
		});
		assert.equal(marker.files['tokenizer.json'].checkedAgainst, 'none');
		assert.equal(marker.files['tokenizer.json'].sha256, sha(readFileSync(join(source, 'tokenizer.json'))));
	});

	it('refuses a download that is not a loadable ONNX model of the expected shape', async () => {
		publish(manifest, new TextEncoder().encode('<html>login required</html>'));
		const m = manager();
		const r = await m.locate(manifest);
		assert.equal(r.ok, false);
		assert.equal(!r.ok && r.error.code, 'invalid');
		assert.match(!r.ok ? r.error.message : '', /was refused: not a loadable ONNX model/);
		assert.equal(existsSync(m.cacheFolder(manifest) + '.partial'), false);
		assert.deepEqual(m.status(manifest), { where: 'absent' });

		// A real ONNX file with the wrong dimension is refused too.
		publish(manifest);
		const wrong = await m.locate({ ...manifest, dim: 384 });
		assert.match(!wrong.ok ? wrong.error.message : '', /last dimension 384/);
	});

	it('offline: a clear error naming the host and what to do', async () => {
		await hub.stop();
		const r = await manager({ retries: 1 }).locate(manifest);
		assert.equal(r.ok, false);
		assert.equal(!r.ok && r.error.code, 'download-failed');
		assert.match(
			!r.ok ? r.error.message : '',
			/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\).*local model folder/,
		);
	});

	it('a 404 fails at once without retries', async () => {
		const r = await manager().locate({ ...manifest, revision: 'no-such-revision' });
		assert.match(!r.ok ? r.error.message : '', /HTTP 404/);
		assert.equal(hub.log.length, 1);
	});

	it('downloads nothing without consent; the reranker then passes through with the reason', async () => {
		const declined = manager({ allowDownload: false, confirmDownload: async () => false });
		const r = await declined.locate(manifest);
		assert.equal(!r.ok && r.error.code, 'refused');
		assert.equal(manager({ allowDownload: undefined }).status(manifest).where, 'absent');
		assert.equal((await manager({ allowDownload: undefined }).locate(manifest)).ok, false);
		assert.equal(hub.log.length, 0);

		const client = new InferenceClient();
		try {
			const rr = tinyManifest('reranker');
			const res = await new OnnxReranker(client, rr, declined.locator(rr)).rerank('q', ['a']);
			assert.equal(res.status, 'passthrough');
			assert.match(res.reason ?? '', /^refused: /);
		} finally {
			await client.dispose();
		}
	});

	it('prefers the local model folder and never contacts the hub for it', async () => {
		const local = join(tmp.dir, 'local');
		writeTinyModel(join(local, manifest.name), 'embedder');
		const m = manager({ localModelDir: local });
		assert.deepEqual(m.status(manifest), { where: 'local', dir: join(local, manifest.name) });
		assert.ok((await m.locate(manifest)).ok);
		assert.equal(hub.log.length, 0);
	});

	it('cancels a running download and resumes it later', async () => {
		const ac = new AbortController();
		// The server sends 1000 bytes and stalls; the caller cancels once they have arrived.
		const m = manager({
			onProgress: (p) => void (p.file.endsWith('.onnx') && p.received >= 1000 && setTimeout(() => ac.abort(), 50)),
		});
		hub.stallAfter.set(onnxPath, 1000);
		const r = await m.locate(manifest, ac.signal);
		assert.equal(!r.ok && r.error.code, 'cancelled');
		const partial = readdirSync(join(m.cacheFolder(manifest) + '.partial', 'onnx'));
		assert.deepEqual(partial, ['model_quantized.onnx.part']);
		const again = await m.locate(manifest);
		assert.ok(again.ok);
		assert.equal(hub.log.filter((l) => l.path === `/cdn${onnxPath}`).at(-1)?.range, 'bytes=1000-');
		assert.equal(sha(readFileSync(join(again.value, 'onnx/model_quantized.onnx'))), sha(onnxBytes));
	});
});
