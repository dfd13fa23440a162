/**
 * The full index run as a bulk load: when it is about to write many chunks, the store's
 * `withBulkVectorIndex` drops the HNSW index for the run and builds it once at the end, PGlite
 * checkpoints every `CHECKPOINT_EVERY_CHUNKS` written (`walCheckpointer`), and the planner
 * statistics are refreshed afterwards (`analyzeChunks`). The watcher's small batches never come here: they stay on the
 * incremental path (rows go into the live index one by one).
 */
import { ANALYZE_AFTER_CHUNKS } from '../retrieval/ingest';
import { analyzeChunks, walCheckpointer, withBulkVectorIndex } from '../store/chunkRepo';
import type { Queryable } from '../store/queryable';
import type { IndexedFile } from './indexStore';

/** A walked file, as far as the estimate needs it. */
export interface WalkedFile {
	relPath: string;
	size: number;
	mtimeMs: number;
}

/**
 * Chunks a run will (re)write, estimated before reading any file: every file that is new or whose
 * size or modification time changed (what `prepareIfChanged` will re-read), at one chunk per
 * `maxChars` of its size (at least one). An estimate only decides whether the index is rebuilt.
 */
export function estimateIncomingChunks(
	files: readonly WalkedFile[],
	stored: ReadonlyMap<string, IndexedFile>,
	maxChars: number,
): number {
	let n = 0;
	for (const f of files) {
		const s = stored.get(f.relPath);
		if (s && s.size === f.size && s.mtimeMs === f.mtimeMs) continue;
		n += Math.max(1, Math.ceil(f.size / Math.max(1, maxChars)));
	}
	return n;
}

/** One bulk load in progress: report each write, then `finish` (also when the run fails). */
export interface BulkLoad {
	/** Counts written chunks; checkpoints PGlite's WAL during long loads. */
	wrote(chunks: number): Promise<void>;
	/** Rebuilds the vector index if it was dropped, then refreshes statistics if much was written. */
	finish(ok: boolean): Promise<void>;
}

/**
 * Starts a bulk load of about `incoming` chunks. `withBulkVectorIndex` takes a callback, but an
 * index run is an async generator yielding progress between writes: the callback is held open
 * until `finish`, so the helper's own decision (drop or not) and its rebuild-in-finally apply. If
 * the run is abandoned without `finish`, the next store open rebuilds the index (`ensureVectorIndex`).
 */
export async function startBulkLoad(db: Queryable, incoming: number): Promise<BulkLoad> {
	let release!: () => void;
	const held = new Promise<void>((r) => (release = r));
	let entered!: () => void;
	const inside = new Promise<void>((r) => (entered = r));
	const done = withBulkVectorIndex(db, incoming, async () => {
		entered();
		await held;
	});
	// A failed DROP rejects `done` before the callback runs: surface it instead of waiting forever.
	await Promise.race([inside, done]);
	let written = 0;
	const checkpointed = walCheckpointer(db);
	return {
		async wrote(chunks) {
			written += chunks;
			await checkpointed(chunks);
		},
		async finish(ok) {
			release();
			await done;
			if (ok && written >= ANALYZE_AFTER_CHUNKS) await analyzeChunks(db);
		},
	};
}
