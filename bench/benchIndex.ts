/**
 * `npm run bench:index` — workspace indexing on a real code base installed from a package
 * registry (default: Debian's python3-django, /usr/lib/python3/dist-packages/django; fallback:
 * node_modules/typescript/lib). The source is copied into a temp folder and indexed into a fresh
 * PGlite store (its owner is a child process, as in the product). Reports files/s, chunks/s,
 * peak RSS (this process and the store owner), the event-loop delay of the indexing thread, a
 * no-change re-index, and the time to re-index after editing one file; then the same through the
 * indexing worker thread (as the extension runs it) with the host thread's event-loop delay
 * meanwhile, and a one-file watcher batch timed end to end.
 *
 * Usage: node dist/bench/benchIndex.js [--src DIR] [--embedder hashing|none|standin|builtin] [--db postgres://…] [--json] [--worker-only]
 * (`--db URL` indexes into a PostgreSQL server instead of a fresh PGlite folder; its rows are deleted afterwards.)
 * `standin` = the real MiniLM-L6 architecture with random weights (as in bench:models): embedding
 * speed is real, quality is not measured here. `builtin` = the shipped static code-search model.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { Indexer } from '../src/indexing/indexer';
import { IndexWorkerClient } from '../src/indexing/indexWorkerClient';
import type { Embedder } from '../src/models/embedder';
import { HashingEmbedder } from '../src/models/hashingEmbedder';
import { codeTokens } from '../src/retrieval/codeTokens';
import { readLock } from '../src/store/lockFile';
import { deleteDocuments } from '../src/store/chunkRepo';
import { workspaceId, type StoreLocation } from '../src/store/location';
import { openStore } from '../src/store/openStore';
import { buildWorkerEmbedder, type WorkerEmbedderSpec } from '../src/indexing/workerEmbedder';
import { standInEmbedder } from './standInEmbedder';

const arg = (name: string, def: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : def;
};

function defaultSource(): string {
	const django = '/usr/lib/python3/dist-packages/django';
	if (existsSync(django)) return django;
	return join(__dirname, '..', '..', 'node_modules', 'typescript', 'lib');
}

// Peak resident set of a process from /proc (Linux); null elsewhere.
function peakRssMB(pid: number): number | null {
	try {
		const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Math.round(Number(m[1]) / 1024) : null;
	} catch (e) {
		void e; // not Linux, or the process is gone: report "unknown"
		return null;
	}
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const t = performance.now();
	const value = await f();
	return { ms: Math.round(performance.now() - t), value };
}

async function makeEmbedder(kind: string): Promise<{ embedder: Embedder | null; dispose: () => Promise<void> }> {
	if (kind === 'none') return { embedder: null, dispose: async () => undefined };
	if (kind === 'standin') return standInEmbedder();
	if (kind === 'builtin')
		return { embedder: await buildWorkerEmbedder({ kind: 'builtin' }), dispose: async () => undefined };
	return { embedder: new HashingEmbedder(384, codeTokens), dispose: async () => undefined };
}

async function main(): Promise<void> {
	// The store owner's bundle sits beside dist/cli.js, one folder up from this one.
	process.env.GMEM_OWNER_ENTRY ??= join(__dirname, '..', 'storeOwner.js');
	const src = arg('src', defaultSource());
	const work = mkdtempSync(join(tmpdir(), 'gmem-bench-index-'));
	const root = join(work, 'ws');
	cpSync(src, join(root, basename(src)), { recursive: true });
	const url = arg('db', '');
	const opened = await openStore(url ? { kind: 'url', url } : { kind: 'folder', dir: join(work, 'db') });
	if (!opened.ok) throw new Error(opened.error.message);
	const store = opened.value;
	if (process.argv.includes('--worker-only')) {
		// Only the product's set-up (worker thread + host loop delay): a shorter run on a busy machine.
		const hosted = await workerRun(
			work,
			src,
			url ? { kind: 'url', url } : { kind: 'folder', dir: join(work, 'db') },
			workerSpec(arg('embedder', 'hashing')),
		);
		const report = {
			source: src,
			load_average: loadavg().map((x) => Math.round(x * 10) / 10),
			engine: store.engine,
			worker: hosted.report,
		};
		if (url) await deleteDocuments(store.db, { workspaceId: workspaceId(hosted.root) });
		await store.close();
		rmSync(work, { recursive: true, force: true });
		process.stdout.write(JSON.stringify(report, null, 2) + '\n');
		return;
	}
	const { embedder, dispose } = await makeEmbedder(arg('embedder', 'hashing'));
	const indexer = new Indexer({ db: store.db, embedder, thresholds: DEFAULT_THRESHOLDS });
	const loop = monitorEventLoopDelay({ resolution: 10 });
	loop.enable();
	const full = await timed(async () => (await indexer.indexFolders([root]))[0]);
	loop.disable();
	const again = await timed(async () => (await indexer.indexFolders([root]))[0]);
	const edited = pickFileToEdit(root);
	appendFileSync(
		edited,
		'\n\ndef bench_added_function(values):\n    """Added by bench:index to measure a one-file re-index."""\n    return sorted(values)\n',
	);
	const oneFile = await timed(() => indexer.reindexFile(edited));
	const hosted = await workerRun(
		work,
		src,
		url ? { kind: 'url', url } : { kind: 'folder', dir: join(work, 'db') },
		workerSpec(arg('embedder', 'hashing')),
	);
	const ownerPid = readLock(join(work, 'db'))?.pid ?? -1;
	const r = full.value;
	const report = {
		source: src,
		load_average: loadavg().map((x) => Math.round(x * 10) / 10),
		embedder: embedder?.id ?? 'none (lexical-only)',
		files_indexed: r.files_indexed,
		chunks: r.chunks,
		skipped: r.skipped,
		full_ms: full.ms,
		files_per_s: Math.round((r.files_indexed / full.ms) * 1000),
		chunks_per_s: Math.round((r.chunks / full.ms) * 1000),
		unchanged_reindex_ms: again.ms,
		unchanged_reindex_embedded: again.value.embedded,
		one_file_reindex_ms: oneFile.ms,
		one_file_outcome: oneFile.value,
		event_loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
		worker: hosted.report,
		engine: store.engine,
		peak_rss_mb: {
			indexer: Math.round(process.resourceUsage().maxRSS / 1024),
			store_owner: url ? null : peakRssMB(ownerPid),
		},
	};
	await dispose();
	if (url) await deleteDocuments(store.db, { workspaceId: workspaceId(root) });
	if (url) await deleteDocuments(store.db, { workspaceId: workspaceId(hosted.root) });
	await store.close();
	rmSync(work, { recursive: true, force: true });
	if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(report) + '\n');
	else process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

const ms = (ns: number) => Math.round(ns / 1e5) / 10;

/**
 * The product's set-up: the same source indexed by the indexing worker thread while this (the
 * "editor host") thread only keeps its event loop turning — its delay is what a user would feel
 * as stutter. Then one edited file goes through the watcher's path (one `reindexPaths` batch),
 * timed end to end from the host.
 */
/** The worker's embedder for `--embedder` (the stand-in runs in-process only; the worker gets hashing then). */
function workerSpec(kind: string): WorkerEmbedderSpec {
	if (kind === 'none') return { kind: 'none' };
	if (kind === 'builtin') return { kind: 'builtin' };
	return { kind: 'hashing' };
}

async function workerRun(work: string, src: string, store: StoreLocation, embedder: WorkerEmbedderSpec) {
	const root = join(work, 'ws-worker');
	cpSync(src, join(root, basename(src)), { recursive: true });
	const client = new IndexWorkerClient({ config: { store, embedder } });
	// The same histogram over 10 s with nothing running: what the machine's load alone costs.
	const idle = monitorEventLoopDelay({ resolution: 10 });
	idle.enable();
	await new Promise((r) => setTimeout(r, 10_000));
	idle.disable();
	const loop = monitorEventLoopDelay({ resolution: 10 });
	try {
		loop.enable();
		const full = await timed(async () => (await client.indexFolders([root]))[0]);
		loop.disable();
		const edited = pickFileToEdit(root);
		appendFileSync(edited, '\n\ndef bench_worker_added(values):\n    return list(values)\n');
		const batch = await timed(() => client.reindexPaths([edited], [root]));
		return {
			root,
			report: {
				embedder,
				files_indexed: full.value.files_indexed,
				chunks: full.value.chunks,
				full_ms: full.ms,
				chunks_per_s: Math.round((full.value.chunks / full.ms) * 1000),
				host_event_loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
				host_event_loop_delay_idle_ms: {
					p50: ms(idle.percentile(50)),
					p99: ms(idle.percentile(99)),
					max: ms(idle.max),
				},
				one_file_batch_ms: batch.ms,
				one_file_batch: {
					indexed: batch.value.files_indexed,
					chunks: batch.value.chunks,
					embedded: batch.value.embedded,
					transactions: batch.value.transactions,
				},
			},
		};
	} finally {
		await client.dispose();
	}
}

// A large, central file: the edit case the watcher sees most (django's query.py, or TypeScript's lib.es5.d.ts).
function pickFileToEdit(root: string): string {
	const candidates = ['django/db/models/query.py', 'db/models/query.py', 'models/query.py', 'lib/lib.es5.d.ts'].map(
		(p) => join(root, p),
	);
	const found = candidates.find((p) => existsSync(p));
	if (!found)
		throw new Error('no file to edit found; pass --src with a django (or django/db) or typescript/lib folder');
	return found;
}

main().catch((e: unknown) => {
	process.stderr.write(`bench:index: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
	process.exitCode = 1;
});
