/**
 * Headless soak (not a test): ITERATIONS chat-path rounds on one PGlite store through its owner, as
 * the product runs — hybrid search of the workspace tier with the built-in embedder (what a turn
 * retrieves), a research-memory write (what a turn saves) — interleaved with watcher batches
 * (`reindexPaths` of files just edited, every 10th round) and a full incremental index run (every
 * 250th), on a temp workspace. Reports RSS and heap of this process and the owner's RSS at start
 * and end, the store folder's size, search latency, errors, and a final consistency check.
 *   npx tsx bench/soak.ts [--iterations 2000] [--files 300]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { Indexer } from '../src/indexing/indexer';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import { hybridSearch } from '../src/retrieval/hybridSearch';
import { ingestDocuments } from '../src/retrieval/ingest';
import { readLock } from '../src/store/lockFile';
import { workspaceId } from '../src/store/location';
import { openStore } from '../src/store/openStore';
import { stopOwner } from '../src/store/ownerClient';
import { folderBytes } from '../src/store/storeStats';

const { values } = parseArgs({
	options: { iterations: { type: 'string', default: '2000' }, files: { type: 'string', default: '300' } },
});
const ITER = Number(values.iterations);
const FILES = Number(values.files);
const WORDS = [
	'parse',
	'config',
	'cart',
	'total',
	'render',
	'token',
	'cache',
	'retry',
	'socket',
	'index',
	'query',
	'vector',
];
const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

function ownerRss(dir: string): number {
	const pid = readLock(dir)?.pid;
	if (!pid) return 0;
	const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return m ? Number(m[1]) * 1024 : 0;
}

function fileText(i: number, rev: number): string {
	const w = (k: number) => WORDS[(i + k) % WORDS.length];
	return `// file ${i} revision ${rev}\nexport function ${w(0)}${w(1)}${i}(input: string): string {\n\tconst ${w(2)} = input.trim(); // ${w(3)} ${w(4)}\n\treturn ${w(2)} + '${rev}';\n}\n`;
}

function snapshot(label: string, dir: string) {
	(globalThis as { gc?: () => void }).gc?.();
	const m = process.memoryUsage();
	const s = { label, rss: m.rss, heapUsed: m.heapUsed, ownerRss: ownerRss(dir), storeBytes: folderBytes(dir) };
	process.stderr.write(
		`${label}: rss ${MB(s.rss)}, heap ${MB(s.heapUsed)}, owner rss ${MB(s.ownerRss)}, store ${MB(s.storeBytes)}\n`,
	);
	return s;
}

async function main(): Promise<void> {
	const base = mkdtempSync(join(tmpdir(), 'gmem-soak-'));
	const dir = join(base, 'db');
	const root = join(base, 'ws');
	mkdirSync(join(root, 'src'), { recursive: true });
	for (let i = 0; i < FILES; i++) writeFileSync(join(root, 'src', `f${i}.ts`), fileText(i, 0));
	const opened = await openStore({ kind: 'folder', dir });
	if (!opened.ok) throw opened.error;
	const db = opened.value.db;
	const embedder = await loadBuiltinEmbedder();
	const indexer = new Indexer({ db, embedder });
	const ws = workspaceId(root);
	const t0 = performance.now();
	await indexer.indexFolders([root]);
	const start = snapshot('start (after the first index run)', dir);
	const searchMs: number[] = [];
	let errors = 0;
	let batches = 0;
	for (let it = 0; it < ITER; it++) {
		try {
			const q = `${WORDS[it % WORDS.length]} ${WORDS[(it * 7) % WORDS.length]} function`;
			const s0 = performance.now();
			await hybridSearch(db, q, {
				tier: 'workspace',
				workspaceIds: [ws],
				k: 10,
				arm: 'hybrid',
				embedder,
				cosineFloor: null,
				thresholds: DEFAULT_THRESHOLDS,
			});
			searchMs.push(performance.now() - s0);
			await ingestDocuments(
				db,
				[{ id: `turn-${it}`, text: `Q: ${q}? A: see src/f${it % FILES}.ts, it ${WORDS[it % 5]}s the input.` }],
				{ workspaceId: ws, tier: 'research' },
				embedder,
			);
			if (it % 10 === 9) {
				const edited = [0, 1, 2].map((k) => (it * 3 + k) % FILES);
				for (const i of edited) writeFileSync(join(root, 'src', `f${i}.ts`), fileText(i, it));
				await indexer.reindexPaths(edited.map((i) => join(root, 'src', `f${i}.ts`)));
				batches++;
			}
			if (it % 250 === 249) await indexer.indexFolders([root]);
		} catch (e) {
			errors++;
			process.stderr.write(`iteration ${it}: ${e instanceof Error ? e.message : String(e)}\n`);
		}
		if (it % 500 === 499) snapshot(`after ${it + 1}`, dir);
	}
	const end = snapshot('end', dir);
	const [{ orphans }] = await db.query<{ orphans: number }>(
		`SELECT count(*)::int AS orphans FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.scope = c.scope AND d.workspace_id = c.workspace_id AND d.tier = c.tier AND d.doc_id = c.doc_id)`,
	);
	const [{ docs }] = await db.query<{ docs: number }>(
		`SELECT count(*)::int AS docs FROM documents WHERE workspace_id = $1 AND tier = 'workspace'`,
		[ws],
	);
	searchMs.sort((a, b) => a - b);
	const pct = (p: number) => searchMs[Math.min(searchMs.length - 1, Math.floor(p * searchMs.length))]?.toFixed(1);
	const report = {
		iterations: ITER,
		files: FILES,
		watcher_batches: batches,
		errors,
		orphan_chunks: orphans,
		workspace_docs: docs,
		search_ms: { p50: Number(pct(0.5)), p95: Number(pct(0.95)) },
		rss: { start: MB(start.rss), end: MB(end.rss) },
		heap: { start: MB(start.heapUsed), end: MB(end.heapUsed) },
		owner_rss: { start: MB(start.ownerRss), end: MB(end.ownerRss) },
		store: { start: MB(start.storeBytes), end: MB(end.storeBytes) },
		wall_s: Math.round((performance.now() - t0) / 1000),
		load: loadavg()
			.map((l) => l.toFixed(1))
			.join(' '),
	};
	process.stdout.write(JSON.stringify(report, null, 2) + '\n');
	await opened.value.close();
	await stopOwner(dir);
	rmSync(base, { recursive: true, force: true });
	if (errors || orphans || docs !== FILES) process.exitCode = 1;
}

void main();
