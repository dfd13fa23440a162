/**
 * A fresh store for one evaluation run (`eval retrieval`, `eval ab`): a temporary PGlite folder by
 * default, removed afterwards; or the store named by `--db` with a workspace id nobody else uses,
 * whose rows are deleted afterwards. Either way the measurement never sees, nor leaves, other data.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../models/embedder';
import { ingestDocuments, type IngestDoc } from '../retrieval/ingest';
import { deleteDocuments, type ChunkTier } from '../store/chunkRepo';
import { holderAlive, readLock } from '../store/lockFile';
import { resolveStoreLocation, workspaceId, type StoreLocation } from '../store/location';
import type { Store } from '../store/openStore';
import { UsageError, type CliIo } from './cliTypes';
import { parseIngestRow } from './commands/ingestCommand';
import { readLines } from './jsonl';
import { openCliStore } from './storeCli';

/** An open evaluation store and the workspace id its rows go to. */
export interface EvalStore {
	store: Store;
	workspaceId: string;
	/** The store's location and the folder whose workspace id the rows carry (for a chat host on the same rows: evalAbPipeline.ts). */
	location: StoreLocation;
	folder: string;
	/** Where it is, for the report ("temporary PGlite folder" or the store's own description). */
	where: string;
	/** Closes the store and removes what the run created. */
	dispose(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops the owner process this run started for a temporary folder (by the pid in its lock file):
 * an owner outlives its parent's connection until the parent exits, and the folder is about to go.
 */
async function stopTempOwner(dir: string): Promise<void> {
	const lock = readLock(dir);
	if (!lock || !holderAlive(lock)) return;
	process.kill(lock.pid, 'SIGTERM');
	for (let waited = 0; waited < 10_000 && holderAlive(lock); waited += 100) await sleep(100);
}

/** Opens a fresh evaluation store (see the file comment). Store failures exit 2 via openCliStore. */
export async function openEvalStore(db: string | undefined, io: CliIo): Promise<EvalStore> {
	if (db === undefined) {
		const dir = mkdtempSync(join(tmpdir(), 'gmem-eval-'));
		const store = await openCliStore(dir, io);
		return {
			store,
			workspaceId: workspaceId(dir),
			location: resolveStoreLocation(dir, io.env, io.cwd),
			folder: dir,
			where: `temporary PGlite folder (${store.engine}), removed afterwards`,
			dispose: async () => {
				await store.close();
				await stopTempOwner(dir);
				rmSync(dir, { recursive: true, force: true });
			},
		};
	}
	const store = await openCliStore(db, io);
	const folder = join(tmpdir(), `gmem-eval-${randomUUID()}`);
	const ws = workspaceId(folder);
	return {
		store,
		workspaceId: ws,
		location: resolveStoreLocation(db, io.env, io.cwd),
		folder,
		where: `${store.where} (${store.engine}), fresh workspace id ${ws}, deleted afterwards`,
		dispose: async () => {
			try {
				await deleteDocuments(store.db, { workspaceId: ws });
			} finally {
				await store.close();
			}
		},
	};
}

/**
 * A kept PGlite folder for one repository's index (`gmem eval nq --index-cache DIR`): opened in
 * place, its workspace id that of the folder, nothing deleted afterwards, so the next run's
 * indexer skips every unchanged file (content hash). Delete the folder when chunking changes.
 */
export async function openKeptStore(dir: string, io: CliIo): Promise<EvalStore> {
	mkdirSync(dir, { recursive: true });
	const store = await openCliStore(dir, io);
	return {
		store,
		workspaceId: workspaceId(dir),
		location: resolveStoreLocation(dir, io.env, io.cwd),
		folder: dir,
		where: `kept PGlite folder ${dir} (${store.engine})`,
		dispose: async () => {
			await store.close();
		},
	};
}

/** A corpus row as ingested, with the tier it asks for (`"tier"` field; default workspace). */
export interface CorpusDoc extends IngestDoc {
	tier: ChunkTier;
}

/**
 * Reads a corpus file in `gmem ingest` rows (`textField` names the text). A bad row is an input
 * error: the corpus defines what "relevant" means, so a silently missing row would skew every metric.
 */
export async function readCorpus(path: string, textField: string, io: CliIo): Promise<CorpusDoc[]> {
	const docs: CorpusDoc[] = [];
	for await (const { line, text } of readLines(path, io)) {
		const parsed = parseIngestRow(text, textField);
		if (typeof parsed === 'string') throw new UsageError(`corpus line ${line}: ${parsed}`);
		const tier = (JSON.parse(text) as { tier?: unknown }).tier ?? 'workspace';
		if (tier !== 'workspace' && tier !== 'research')
			throw new UsageError(`corpus line ${line}: "tier" must be workspace or research`);
		docs.push({ ...parsed, tier });
	}
	return docs;
}

/** Ingests the corpus tier by tier into the evaluation workspace; returns chunks written and ms. */
export async function ingestCorpus(
	es: EvalStore,
	docs: readonly CorpusDoc[],
	embedder: Embedder | null,
	io: CliIo,
): Promise<{ chunks: number; ms: number }> {
	const started = performance.now();
	let chunks = 0;
	for (const tier of ['workspace', 'research'] as const) {
		const part = docs.filter((d) => d.tier === tier);
		if (part.length === 0) continue;
		const stats = await ingestDocuments(es.store.db, part, { workspaceId: es.workspaceId, tier }, embedder, (done) =>
			io.stderr(`\rgmem eval: ingested ${done}/${part.length} ${tier} documents`),
		);
		io.stderr('\n');
		chunks += stats.chunks;
	}
	return { chunks, ms: Math.round(performance.now() - started) };
}

/**
 * Opens a fresh evaluation store, ingests `docs` into it, runs `fn`, and always removes what the
 * run created — the one lifecycle every store-backed evaluation shares.
 */
export async function withCorpusStore<T>(
	db: string | undefined,
	docs: readonly CorpusDoc[],
	embedder: Embedder | null,
	io: CliIo,
	fn: (es: EvalStore, ingest: { chunks: number; ms: number }) => Promise<T>,
): Promise<T> {
	const es = await openEvalStore(db, io);
	try {
		return await fn(es, await ingestCorpus(es, docs, embedder, io));
	} finally {
		await es.dispose();
	}
}
