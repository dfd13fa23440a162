/**
 * Where should the indexing worker run the ONNX embedder? A: onnxruntime in the calling thread
 * (LocalOnnxEmbedder, what the indexing worker does); B: through a second worker thread
 * (OnnxEmbedder + InferenceClient, what the extension host does for queries). Same stand-in model
 * (real MiniLM-L6 shape, q8, random weights), same 256 chunk-like texts in batches of 64 (the
 * indexer's embed batch), alternating A/B rounds. Run: npx tsx bench/benchWorkerEmbed.ts
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ok } from '../src/core/result';
import { InferenceClient } from '../src/models/inferenceClient';
import { specFor } from '../src/models/lazyModel';
import { LocalOnnxEmbedder } from '../src/models/localOnnxEmbedder';
import { embedderId, MINILM_EMBEDDER } from '../src/models/manifests';
import { OnnxEmbedder } from '../src/models/onnxModels';
import type { Embedder } from '../src/models/embedder';

const root = join(tmpdir(), 'gmem-standin-models');
const dir = join(root, ...MINILM_EMBEDDER.repo.split('/'));
if (!existsSync(join(dir, MINILM_EMBEDDER.files.onnx.path)))
	execFileSync('npx', ['tsx', join(__dirname, '..', 'scripts', 'genStandInModels.ts'), root], { stdio: 'inherit' });

const words =
	'parse config retry backoff token stream index chunk vector store query answer cache worker thread model file path line symbol'.split(
		' ',
	);
const texts = Array.from({ length: 256 }, (_, i) =>
	Array.from({ length: 20 + ((i * 37) % 120) }, (_, j) => words[(i * 7 + j * 13) % words.length]).join(' '),
);

async function msPerText(e: Embedder): Promise<number> {
	const t0 = performance.now();
	for (let i = 0; i < texts.length; i += 64) await e.embed(texts.slice(i, i + 64));
	return (performance.now() - t0) / texts.length;
}

async function main(): Promise<void> {
	const settings = { intraOpThreads: 1, batchSize: 32 };
	const local = await LocalOnnxEmbedder.load(embedderId(MINILM_EMBEDDER), specFor(MINILM_EMBEDDER, dir), settings);
	const client = new InferenceClient({ mode: 'worker' });
	const remote = new OnnxEmbedder(client, MINILM_EMBEDDER, async () => ok(dir), { threads: 1, batchSize: 32 });
	await local.embed(texts.slice(0, 8));
	await remote.embed(texts.slice(0, 8));
	const a: number[] = [];
	const b: number[] = [];
	for (let round = 0; round < 3; round++) {
		a.push(await msPerText(local));
		b.push(await msPerText(remote));
	}
	const f = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
	console.log(
		`in-thread (A) ms/text: ${f(a)}; via a second worker (B): ${f(b)}; load avg ${(await import('node:os'))
			.loadavg()
			.map((x) => x.toFixed(1))
			.join(' ')}`,
	);
	await local.release();
	await client.dispose();
}

main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
