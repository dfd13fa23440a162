/**
 * Chat-path retrieval at scale (issue 15 item 7; not a test): the whole `retrieveWorkspace` a chat
 * turn runs — symbol arm, full-text (BM25), vector (built-in model), RRF, the built-in reranker,
 * priors and evidence selection — timed p50/p95 at growing store sizes (default 20k, 50k, 100k
 * chunks) on PGlite (through its owner's socket, as the product uses it) and on a PostgreSQL server
 * when GMEM_TEST_PG_URL (or --url) is set. Synthetic code chunks (a Zipf vocabulary in camelCase
 * and snake_case identifiers, one definition per chunk in the symbol table) with vectors from the
 * built-in embedder; three query mixes: chat questions in words, questions naming an identifier,
 * and a pasted Python traceback.
 *   npm run build && node dist/bench/benchChatRetrieval.js [--sizes 20000,50000,100000] [--queries 200] [--k 4]
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { mulberry32 } from '../src/core/metrics/seededRandom';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import type { Embedder } from '../src/models/embedder';
import { LinearReranker } from '../src/models/linearReranker';
import { searchTextFor } from '../src/retrieval/codeTokens';
import { contentHash } from '../src/retrieval/ingest';
import { DEFAULT_RETRIEVAL_TUNING, retrievalTuning } from '../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../src/retrieval/workspaceRetrieval';
import { analyzeChunks, upsertDocuments, withBulkVectorIndex, type DocumentInput } from '../src/store/chunkRepo';
import { openStore } from '../src/store/openStore';
import type { Queryable } from '../src/store/queryable';

// test/fixtures/eval/nq/new-parts-off.json: symbol arm, pins, file BM25 list, priors and frames off.
const NEW_PARTS_OFF = {
	rrf_weight_symbol: 0,
	symbol_pin_definitions: 0,
	file_bm25_weight: 0,
	prior_impl_over_other: 1,
	prior_tests_when_asked: 1,
	prior_docs_howto: 1,
	prior_docs_code: 1,
	stack_frame_max: 0,
};

const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';
const ENGLISH =
	'how does the where is what happens when why would config cache request handler parse load save retry timeout user session token error value list map file path option flag command'.split(
		' ',
	);

interface Corpus {
	chunk(i: number): { text: string; path: string; def: string };
	queries: { words: string[]; identifier: string[]; traceback: string[] };
}

function corpus(queries: number, maxChunks: number): Corpus {
	const r = mulberry32(42);
	const syllable = () => CONSONANTS[Math.floor(r() * CONSONANTS.length)] + VOWELS[Math.floor(r() * VOWELS.length)];
	const words = Array.from(
		{ length: 20000 },
		(_, i) => syllable() + syllable() + (i % 2 ? syllable() : '') + 'x'.repeat(i % 7 === 0 ? 1 : 0),
	);
	const zipf = () => words[Math.min(words.length - 1, Math.floor(Math.exp(r() * Math.log(words.length))) - 1)];
	const ident = (parts = 1 + Math.floor(r() * 3)) => {
		const p = Array.from({ length: parts }, zipf);
		return r() < 0.5 ? p.join('_') : p.map((x, i) => (i ? x[0].toUpperCase() + x.slice(1) : x)).join('');
	};
	const defs: string[] = [];
	const chunk = (i: number) => {
		const rr = mulberry32(1000 + i);
		const pick = () => words[Math.min(words.length - 1, Math.floor(Math.exp(rr() * Math.log(words.length))) - 1)];
		const name = [pick(), pick()].join('_');
		const body = Array.from(
			{ length: 6 + Math.floor(rr() * 10) },
			() =>
				`    ${Array.from({ length: 4 + Math.floor(rr() * 6) }, () => (rr() < 0.5 ? pick() : `${pick()}_${pick()}`)).join(' ')}`,
		);
		return { text: `def ${name}(x):\n${body.join('\n')}`, path: `src/m${i % 500}/f${i}.py`, def: name };
	};
	for (let i = 0; i < 200; i++) defs.push(chunk(Math.floor(r() * maxChunks)).def);
	const eng = () => ENGLISH[Math.floor(r() * ENGLISH.length)];
	return {
		chunk,
		queries: {
			words: Array.from({ length: queries }, () => `${eng()} ${eng()} ${zipf()} ${eng()} ${zipf()}?`),
			identifier: Array.from(
				{ length: queries },
				(_, i) => `how is ${defs[i % defs.length]} implemented and where is ${ident(2)} used?`,
			),
			traceback: Array.from({ length: queries }, (_, i) => {
				const n = Math.floor(r() * maxChunks);
				return `this fails:\nTraceback (most recent call last):\n  File "/home/u/.venv/lib/python3.11/site-packages/src/m${n % 500}/f${n}.py", line 3, in ${defs[i % defs.length]}\n    ${zipf()}(${zipf()})\nValueError: ${zipf()} ${zipf()} is not valid`;
			}),
		},
	};
}

async function load(db: Queryable, c: Corpus, from: number, to: number, embedder: Embedder): Promise<number> {
	const t = performance.now();
	await withBulkVectorIndex(db, to - from, async () => {
		for (let at = from; at < to; at += 500) {
			const items = Array.from({ length: Math.min(500, to - at) }, (_, j) => ({ i: at + j, ...c.chunk(at + j) }));
			const vectors = await embedder.embed(items.map((x) => x.text));
			const docs: DocumentInput[] = items.map((x, j) => ({
				workspaceId: 'bench',
				tier: 'workspace',
				docId: x.path,
				path: x.path,
				contentHash: contentHash(x.text),
				mtimeMs: null,
				metadata: {},
				embedder: embedder.id,
				chunks: [
					{
						path: x.path,
						startLine: 1,
						endLine: x.text.split('\n').length,
						symbol: x.def,
						kind: 'function',
						language: 'python',
						content: x.text,
						contentHash: contentHash(x.text),
						searchText: searchTextFor(`${x.path} · function ${x.def}\n${x.text}`, x.path),
						embedding: vectors[j],
						definitions: [{ name: x.def, kind: 'function', startLine: 1, endLine: x.text.split('\n').length }],
					},
				],
			}));
			await upsertDocuments(db, docs);
			process.stderr.write(`\r  inserted ${at + items.length}/${to}`);
		}
	});
	process.stderr.write('\n');
	await analyzeChunks(db);
	return Math.round(performance.now() - t);
}

function pct(xs: number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
}

async function timeMixes(db: Queryable, c: Corpus, embedder: Embedder, k: number): Promise<Record<string, number>> {
	const reranker = new LinearReranker();
	const out: Record<string, number> = {};
	// Each mix twice: the product, and with issue 15's new parts off (the same load, so the difference is theirs).
	const variants = [
		{ name: '', tuning: DEFAULT_RETRIEVAL_TUNING },
		{ name: '_off', tuning: retrievalTuning(NEW_PARTS_OFF) },
	];
	for (const [mixName, qs] of Object.entries(c.queries))
		for (const v of variants) {
			const mix = mixName + v.name;
			const run = (q: string) =>
				retrieveWorkspace(db, {
					query: q,
					workspaceIds: ['bench'],
					k,
					embedder,
					reranker,
					floor: DEFAULT_THRESHOLDS.floor_workspace_question,
					thresholds: DEFAULT_THRESHOLDS,
					tuning: v.tuning,
				});
			for (const q of qs.slice(0, 20)) await run(q); // warm-up
			const ms: number[] = [];
			for (const q of qs) {
				const t = performance.now();
				await run(q);
				ms.push(performance.now() - t);
			}
			out[`${mix}_p50_ms`] = pct(ms, 50);
			out[`${mix}_p95_ms`] = pct(ms, 95);
		}
	return out;
}

async function bench(
	engine: string,
	db: Queryable,
	c: Corpus,
	sizes: number[],
	embedder: Embedder,
	k: number,
): Promise<void> {
	let have = 0;
	for (const n of sizes) {
		const insertMs = await load(db, c, have, n, embedder);
		have = n;
		const times = await timeMixes(db, c, embedder, k);
		process.stdout.write(
			JSON.stringify({
				engine,
				chunks: n,
				k,
				insert_ms: insertMs,
				...times,
				load_avg_1m: Math.round(loadavg()[0] * 10) / 10,
				cpus: availableParallelism(),
			}) + '\n',
		);
	}
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			sizes: { type: 'string', default: '20000,50000,100000' },
			queries: { type: 'string', default: '200' },
			k: { type: 'string', default: '4' },
			url: { type: 'string' },
			engines: { type: 'string', default: 'pglite,postgres' },
		},
	});
	const sizes = values.sizes.split(',').map(Number);
	const c = corpus(Number(values.queries), sizes[0]);
	const embedder = await loadBuiltinEmbedder();
	const k = Number(values.k);
	process.stderr.write(
		`benchChatRetrieval: sizes ${sizes.join(', ')}, ${values.queries} queries per mix, k ${k}, ${embedder.id} + built-in reranker\n`,
	);
	if (values.engines.includes('pglite')) {
		const opened = await openStore({ kind: 'folder', dir: mkdtempSync(join(tmpdir(), 'gmem-bench-chat-')) });
		if (!opened.ok) throw opened.error;
		await bench('pglite (owner process, Unix socket)', opened.value.db, c, sizes, embedder, k);
		await opened.value.close();
	}
	const url = values.url ?? process.env.GMEM_TEST_PG_URL;
	if (values.engines.includes('postgres')) {
		if (!url) {
			process.stderr.write(
				'benchChatRetrieval: no GMEM_TEST_PG_URL / --url: the PostgreSQL server was NOT benchmarked\n',
			);
			return;
		}
		const name = `gmem_bench_chat_${process.pid}`;
		const admin = new pg.Client({ connectionString: url });
		await admin.connect();
		await admin.query(`CREATE DATABASE ${name}`);
		const u = new URL(url);
		u.pathname = `/${name}`;
		try {
			const opened = await openStore({ kind: 'url', url: u.toString() });
			if (!opened.ok) throw opened.error;
			await bench('postgres server', opened.value.db, c, sizes, embedder, k);
			await opened.value.close();
		} finally {
			await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
			await admin.end();
		}
	}
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		process.stderr.write(`benchChatRetrieval: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
		process.exit(1);
	},
);
