/**
 * Real onnxruntime-node inference in the real worker (thread and child process) on generated
 * BERT-shaped models with random weights. Checks the mechanics (pooling, norms, batching, order,
 * truncation, passthrough, cancellation); ranking quality cannot be checked with random weights.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ok } from '../../src/core/result';
import { InferenceClient } from '../../src/models/inferenceClient';
import { ModelUnavailableError, OnnxEmbedder, OnnxReranker, PassthroughReranker } from '../../src/models/onnxModels';
import { tempDir, tinyManifest, writeTinyModel } from '../fixtures/models/tinyModels';

const TEXTS = [
	'the database is pg',
	'a',
	'code file test',
	'the the the the the the the the the the the the the the the',
	'ts code',
	'x y z',
];
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
const at = (dir: string) => async () => ok(dir);

for (const mode of ['worker', 'child'] as const) {
	describe(`models: ONNX inference in a ${mode}`, function () {
		this.timeout(60_000);
		let tmp: ReturnType<typeof tempDir>;
		let client: InferenceClient;
		let embDir: string;
		let rrDir: string;

		before(() => {
			tmp = tempDir('infer');
			embDir = join(tmp.dir, 'emb');
			rrDir = join(tmp.dir, 'rr');
			writeTinyModel(embDir, 'embedder');
			writeTinyModel(rrDir, 'reranker');
			client = new InferenceClient({ mode });
		});
		after(async () => {
			await client.dispose();
			tmp.cleanup();
		});

		it('loads lazily: no worker until the first call', async () => {
			const e = new OnnxEmbedder(client, tinyManifest('embedder'), at(embDir));
			assert.equal(client.running, false);
			assert.equal(e.dim, 16);
			const v = await e.embed(['pg']);
			assert.equal(client.running, true);
			assert.equal(v[0].length, 16);
		});

		it('embeds to unit vectors, deterministically, independent of batch composition and sort', async () => {
			const e = new OnnxEmbedder(client, tinyManifest('embedder'), at(embDir), { batchSize: 2 });
			const all = await e.embed(TEXTS);
			const again = await e.embed(TEXTS);
			const reversed = await e.embed([...TEXTS].reverse());
			for (let i = 0; i < TEXTS.length; i++) {
				assert.ok(Math.abs(norm(all[i]) - 1) < 1e-5, `norm of ${i}`);
				assert.deepEqual(all[i], again[i]);
				assert.ok(maxDiff(all[i], reversed[TEXTS.length - 1 - i]) < 1e-5, `order ${i}`);
				const [alone] = await e.embed([TEXTS[i]]);
				assert.ok(maxDiff(all[i], alone) < 1e-5, `alone vs batched ${i}`);
			}
			// Different texts must give different vectors (pooling is not degenerate).
			assert.ok(maxDiff(all[0], all[2]) > 1e-3);
		});

		it('gives zeros for an empty text and truncates long texts to maxTokens', async () => {
			const e = new OnnxEmbedder(client, tinyManifest('embedder'), at(embDir));
			const [empty, long, prefix] = await e.embed([
				'  ',
				'a b c d e f g h i j k l m n o p q r s t u v w',
				'a b c d e f g h i j',
			]);
			assert.ok(empty.every((x) => x === 0));
			// maxTokens 12 = [CLS] + 10 pieces + [SEP]: the long text is cut to its first 10 words.
			assert.ok(maxDiff(long, prefix) < 1e-5);
		});

		it('works with an export that has no token_type_ids input', async () => {
			const dir = join(tmp.dir, 'notypes');
			writeTinyModel(dir, 'embedder', { tokenTypeInput: false });
			const e = new OnnxEmbedder(client, { ...tinyManifest('embedder'), name: 'notypes' }, at(dir));
			const info = await e.load();
			assert.ok(info.ok);
			assert.deepEqual(info.value.inputs, ['input_ids', 'attention_mask']);
			assert.ok(Math.abs(norm((await e.embed(['pg']))[0]) - 1) < 1e-5);
		});

		it('reranks to sigmoid probabilities with raw logits, order-independent', async () => {
			const r = new OnnxReranker(client, tinyManifest('reranker'), at(rrDir), { batchSize: 4 });
			const res = await r.rerank('database', TEXTS);
			assert.equal(res.status, 'model');
			assert.equal(res.scores.length, TEXTS.length);
			assert.ok(res.logits);
			res.scores.forEach((p, i) => {
				assert.ok(p !== null && p > 0 && p < 1);
				assert.ok(Math.abs(p - 1 / (1 + Math.exp(-res.logits![i]))) < 1e-9);
			});
			const rev = await r.rerank('database', [...TEXTS].reverse());
			res.scores.forEach((p, i) => assert.ok(Math.abs(p! - rev.scores[TEXTS.length - 1 - i]!) < 1e-5));
			assert.ok(new Set(res.scores.map((p) => p!.toFixed(6))).size > 1, 'scores differ between passages');
		});

		it('runs dynamic-int8 (q8) graphs: unit vectors, batch effects within tolerance', async () => {
			const dir = join(tmp.dir, 'q8');
			writeTinyModel(dir, 'embedder', { quantize: true });
			const e = new OnnxEmbedder(client, { ...tinyManifest('embedder'), name: 'q8' }, at(dir));
			const all = await e.embed(TEXTS);
			for (let i = 0; i < TEXTS.length; i++) {
				assert.ok(Math.abs(norm(all[i]) - 1) < 1e-5);
				// q8 activations are scaled per batch, so batched and single results differ slightly.
				const [alone] = await e.embed([TEXTS[i]]);
				assert.ok(maxDiff(all[i], alone) < 0.05, `q8 alone vs batched ${i}: ${maxDiff(all[i], alone)}`);
			}
			const rdir = join(tmp.dir, 'q8rr');
			writeTinyModel(rdir, 'reranker', { quantize: true });
			const res = await new OnnxReranker(client, { ...tinyManifest('reranker'), name: 'q8rr' }, at(rdir)).rerank(
				'pg',
				TEXTS,
			);
			assert.equal(res.status, 'model');
		});

		it('passes through (never throws) when the reranker model is missing or corrupt', async () => {
			const missing = new OnnxReranker(
				client,
				{ ...tinyManifest('reranker'), name: 'missing' },
				at(join(tmp.dir, 'nope')),
			);
			const a = await missing.rerank('q', ['p1', 'p2']);
			assert.equal(a.status, 'passthrough');
			assert.deepEqual(a.scores, [null, null]);
			assert.match(a.reason ?? '', /^missing: model file not found/);

			const bad = join(tmp.dir, 'corrupt');
			writeTinyModel(bad, 'reranker');
			writeFileSync(join(bad, 'onnx/model_quantized.onnx'), Buffer.from('this is not a protobuf at all'));
			const corrupt = new OnnxReranker(client, { ...tinyManifest('reranker'), name: 'corrupt' }, at(bad));
			const b = await corrupt.rerank('q', ['p']);
			assert.equal(b.status, 'passthrough');
			assert.match(b.reason ?? '', /^invalid: not a loadable ONNX model/);

			const none = await new PassthroughReranker().rerank('q', ['a', 'b', 'c']);
			assert.deepEqual(none, {
				scores: [null, null, null],
				status: 'passthrough',
				reason: 'no reranker model configured',
				ms: 0,
			});
		});

		it('refuses a model whose output dimension differs from the manifest', async () => {
			const e = new OnnxEmbedder(client, { ...tinyManifest('embedder'), name: 'wrongdim', dim: 384 }, at(embDir));
			const r = await e.tryEmbed(['pg']);
			assert.equal(r.ok, false);
			assert.equal(!r.ok && r.error.code, 'invalid');
			assert.match(!r.ok ? r.error.message : '', /last dimension 384/);
			await assert.rejects(
				e.embed(['pg']),
				(x: unknown) => x instanceof ModelUnavailableError && x.error.code === 'invalid',
			);
		});

		it('cancels: an aborted signal rejects embed with AbortError and the worker stays usable', async () => {
			const e = new OnnxEmbedder(client, tinyManifest('embedder'), at(embDir), { batchSize: 1 });
			await e.load();
			const ac = new AbortController();
			const p = e.embed(
				Array.from({ length: 200 }, (_, i) => `text ${i % 10}`),
				ac.signal,
			);
			ac.abort();
			await assert.rejects(p, (x: unknown) => (x as Error).name === 'AbortError');
			const pre = new AbortController();
			pre.abort();
			await assert.rejects(e.embed(['pg'], pre.signal), (x: unknown) => (x as Error).name === 'AbortError');
			assert.equal((await e.embed(['pg']))[0].length, 16);
		});
	});
}
