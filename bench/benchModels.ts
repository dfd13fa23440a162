/**
 * `npm run bench:models` — speed and memory of the ONNX embedder and cross-encoder through the
 * real inference worker (a child process per configuration, so each peak RSS is its own).
 * Models are generated stand-ins with the REAL MiniLM-L6 architecture (6 layers, hidden 384,
 * 12 heads, FFN 1536, vocab 30522) and random weights, in fp32 and dynamic int8 ("q8", the same
 * quantisation scheme as the Xenova model_quantized.onnx files). Speed depends on the architecture,
 * not the weights; ranking quality is NOT measured here.
 *
 * Usage: node dist/bench/benchModels.js [--reps N] [--threads 1,2] [--precision fp32,q8] [--mode child|worker] [--json]
 * (--mode worker runs a worker thread; its peak RSS is then the whole benchmark process's.)
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok } from '../src/core/result';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import type { TraceHit } from '../src/core/trace';
import { runEvidenceStage } from '../src/retrieval/evidence/evidenceStage';
import type { EvidenceCandidate } from '../src/retrieval/evidence/types';
import { InferenceClient } from '../src/models/inferenceClient';
import { MINILM_EMBEDDER, MSMARCO_RERANKER, type ModelManifest } from '../src/models/manifests';
import { OnnxEmbedder, OnnxReranker } from '../src/models/onnxModels';
import { MINILM_L6 } from '../test/fixtures/models/bertOnnx';
import { BertEncoder } from '../src/models/tokenizer';
import { bertBaseVocab, tokenizerConfig, tokenizerJson, writeModelFolder } from '../test/fixtures/models/tokenizerJson';

interface Row {
	precision: 'fp32' | 'q8';
	threads: number;
	onnxMB: number;
	loadEmbedMs: number;
	loadRerankMs: number;
	queryMs: number;
	embedMsPerText: number;
	embedMsPerTextBest: number;
	/** Worker CPU time per text / per pair (all threads): the cost without waiting for a core. */
	embedCpuMsPerText: number;
	rerankCpuMsPerPair: number;
	rerank36MsPerPair: number;
	rerank36MsPerPairBest: number;
	rerank24Ms: number;
	/** Model side of one k = 4 retrieval: embed the query + rerank 24 candidates + select evidence. */
	retrievalP50Ms: number;
	retrievalP95Ms: number;
	peakRssMB: number;
}

const arg = (name: string, def: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : def;
};

/** Deterministic pseudo-text from real vocabulary words (length-varied like chunks and queries). */
function corpus(n: number, minWords: number, maxWords: number, seed: number): string[] {
	const words = bertBaseVocab()
		.slice(1996, 29612)
		.filter((w) => !w.startsWith('##') && /^[a-z]+$/.test(w));
	let s = seed;
	const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
	return Array.from({ length: n }, () =>
		Array.from(
			{ length: minWords + Math.floor(rnd() * (maxWords - minWords + 1)) },
			() => words[Math.floor(rnd() * words.length)],
		).join(' '),
	);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

/** The model side of one k = 4 retrieval (seed 000): query embedding, rerank of 2 × 3k = 24 candidates, evidence selection. */
async function retrievalOnce(emb: OnnxEmbedder, rr: OnnxReranker, query: string, passages: string[]): Promise<number> {
	const t = performance.now();
	await emb.embed([query]);
	const candidates = passages.slice(0, 24).map((text, i) => candidate(text, i));
	const stage = await runEvidenceStage({
		query,
		candidates,
		reranker: rr,
		embedder: { id: emb.id, semantic: true },
		cosineFloors: { workspace: 0.45 },
		k: 4,
		thresholds: DEFAULT_THRESHOLDS,
	});
	if (stage.rerankStep.status !== 'model') throw new Error(`rerank passthrough: ${stage.rerankStep.reason}`);
	return performance.now() - t;
}

function candidate(text: string, i: number): EvidenceCandidate {
	const hit: TraceHit = {
		id: `d${i}`,
		chunk_id: `c${i}`,
		path: `f${i % 8}.ts`,
		start_line: 1,
		end_line: 20,
		symbol: null,
		score: 1 / (61 + i),
		fused: 1 / (61 + i),
		arms: { fts: { rank: i + 1, score: 0.1 }, vector: { rank: i + 1, score: 0.5 } },
		rerank: null,
	};
	return { hit, tier: 'workspace', text };
}

function ensureModels(precision: 'fp32' | 'q8'): { emb: string; rr: string } {
	const root = join(tmpdir(), 'gmem-bench-models', precision);
	const out = { emb: join(root, 'embedder'), rr: join(root, 'reranker') };
	for (const [dir, head, m] of [
		[out.emb, 'embedder', MINILM_EMBEDDER],
		[out.rr, 'reranker', MSMARCO_RERANKER],
	] as const) {
		if (existsSync(join(dir, m.files.onnx.path))) continue;
		mkdirSync(dir, { recursive: true });
		writeModelFolder(dir, {
			shape: { ...MINILM_L6, head, quantize: precision === 'q8' },
			vocab: bertBaseVocab(),
			maxLength: 512,
			onnxPath: m.files.onnx.path,
		});
	}
	return out;
}

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
	const t = performance.now();
	const r = await f();
	return [performance.now() - t, r];
}

async function measure(
	precision: 'fp32' | 'q8',
	threads: number,
	reps: number,
	texts: string[],
	pairs: string[],
	queries: string[],
): Promise<Row> {
	const dirs = ensureModels(precision);
	const client = new InferenceClient({ mode: arg('mode', 'child') === 'worker' ? 'worker' : 'child' });
	const at = (d: string) => async () => ok(d);
	const emb = new OnnxEmbedder(client, MINILM_EMBEDDER, at(dirs.emb), { threads, batchSize: 32 });
	const rr = new OnnxReranker(client, MSMARCO_RERANKER as ModelManifest, at(dirs.rr), { threads, batchSize: 36 });
	try {
		// Start the worker first so model load time excludes process start-up.
		await client.request({ type: 'stats' });
		const le = await emb.load();
		const lr = await rr.load();
		if (!le.ok || !lr.ok) throw new Error(`load failed: ${JSON.stringify(!le.ok ? le.error : !lr.ok ? lr.error : '')}`);
		await emb.embed(texts.slice(0, 32));
		await rr.rerank(queries[0], pairs);
		const q: number[] = [];
		for (const query of queries) q.push((await timed(() => emb.embed([query])))[0]);
		const cpu = async () => {
			const st = await client.request({ type: 'stats' });
			return st.ok ? st.value.cpuMs : NaN;
		};
		const e: number[] = [];
		const r36: number[] = [];
		const r24: number[] = [];
		const c0 = await cpu();
		for (let i = 0; i < reps; i++) e.push((await timed(() => emb.embed(texts)))[0] / texts.length);
		const c1 = await cpu();
		for (let i = 0; i < reps; i++)
			r36.push((await timed(() => rr.rerank(queries[i % queries.length], pairs)))[0] / pairs.length);
		const c2 = await cpu();
		for (let i = 0; i < reps; i++)
			r24.push((await timed(() => rr.rerank(queries[i % queries.length], pairs.slice(0, 24))))[0]);
		const ret: number[] = [];
		for (let i = 0; i < reps * 6; i++) ret.push(await retrievalOnce(emb, rr, queries[i % queries.length], pairs));
		const stats = await client.request({ type: 'stats' });
		return {
			precision,
			threads,
			onnxMB: statSync(join(dirs.emb, MINILM_EMBEDDER.files.onnx.path)).size / 1e6,
			loadEmbedMs: le.value.loadMs,
			loadRerankMs: lr.value.loadMs,
			queryMs: median(q),
			embedMsPerText: median(e),
			embedMsPerTextBest: Math.min(...e),
			embedCpuMsPerText: (c1 - c0) / (reps * texts.length),
			rerankCpuMsPerPair: (c2 - c1) / (reps * pairs.length),
			rerank36MsPerPair: median(r36),
			rerank36MsPerPairBest: Math.min(...r36),
			rerank24Ms: median(r24),
			retrievalP50Ms: median(ret),
			retrievalP95Ms: p95(ret),
			peakRssMB: stats.ok ? stats.value.maxRssBytes / 1e6 : NaN,
		};
	} finally {
		await client.dispose();
	}
}

async function main(): Promise<void> {
	const reps = Number(arg('reps', '5'));
	const threads = arg('threads', '1,2').split(',').map(Number);
	const precisions = arg('precision', 'q8,fp32').split(',') as ('fp32' | 'q8')[];
	// 128 passages of 8–64 words (chunk-like), 36 passages of 6–30 words for the rerank batch, 20 queries.
	const texts = corpus(128, 8, 64, 1);
	const pairs = corpus(36, 6, 30, 2);
	const queries = corpus(20, 3, 10, 3);
	const enc = BertEncoder.fromJson(
		tokenizerJson(bertBaseVocab()),
		tokenizerConfig(512) as Record<string, unknown>,
		512,
	);
	if (!enc.ok) throw new Error(enc.error);
	const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
	const textTokens = texts.map((t) => enc.value.encode(t).ids.length);
	const pairTokens = pairs.map((p, i) => enc.value.encodePair(queries[i % queries.length], p).ids.length);
	const context = {
		reps,
		load_before: loadavg().map((x) => +x.toFixed(2)),
		texts: { n: texts.length, mean_tokens: +mean(textTokens).toFixed(1), max_tokens: Math.max(...textTokens) },
		pairs: { n: pairs.length, mean_tokens: +mean(pairTokens).toFixed(1), max_tokens: Math.max(...pairTokens) },
	};
	const rows: Row[] = [];
	for (const p of precisions)
		for (const t of threads) {
			process.stderr.write(`measuring ${p}, ${t} thread(s)…\n`);
			rows.push(await measure(p, t, reps, texts, pairs, queries));
		}
	const load_after = loadavg().map((x) => +x.toFixed(2));
	if (process.argv.includes('--json')) {
		process.stdout.write(JSON.stringify({ ...context, load_after, rows }, null, 1) + '\n');
		return;
	}
	console.log(
		`texts: ${JSON.stringify(context.texts)}; pairs: ${JSON.stringify(context.pairs)}; reps ${reps}; load average before ${context.load_before.join(' ')}, after ${load_after.join(' ')} (${process.env.GMEM_BENCH_NOTE ?? 'shared machine'})`,
	);
	const f = (x: number) => x.toFixed(2);
	console.log(
		'| precision | threads | onnx MB | load embed / rerank ms | query ms | embed ms/text (median / best, batches of 32) | rerank ms/pair, 36 pairs (median / best) | CPU ms/text / ms/pair | rerank 24 pairs ms | k=4 retrieval, model side p50 / p95 ms | peak RSS MB |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|---|');
	for (const r of rows) {
		console.log(
			`| ${r.precision} | ${r.threads} | ${r.onnxMB.toFixed(1)} | ${r.loadEmbedMs.toFixed(0)} / ${r.loadRerankMs.toFixed(0)} | ${f(r.queryMs)} | ${f(r.embedMsPerText)} / ${f(r.embedMsPerTextBest)} | ${f(r.rerank36MsPerPair)} / ${f(r.rerank36MsPerPairBest)} | ${f(r.embedCpuMsPerText)} / ${f(r.rerankCpuMsPerPair)} | ${r.rerank24Ms.toFixed(1)} | ${r.retrievalP50Ms.toFixed(1)} / ${r.retrievalP95Ms.toFixed(1)} | ${r.peakRssMB.toFixed(0)} |`,
		);
	}
}

main().catch((e: unknown) => {
	process.stderr.write(`benchModels failed: ${(e as Error).stack ?? String(e)}\n`);
	process.exit(1);
});
