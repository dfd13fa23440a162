/**
 * Re-indexing a batch of paths (the file watcher's debounced events, a branch switch): each path
 * is checked against the walk's rules (ignore files, excluded folders, secrets, size, binary),
 * unchanged files cost a stat or a hash, changed ones are embedded first (outside any
 * transaction), and then every write and removal of the folder happens in ONE transaction — a
 * checkout that touches 1,000 files is one commit, not 1,000.
 */
import type { Queryable, TxQueryable } from '../store/queryable';
import { deleteDocuments, upsertDocuments } from '../store/chunkRepo';
import { excludedReason, fileStat, prepareIfChanged, type FileContext, type IgnoreCache } from './indexFile';
import { embedFiles } from './indexBatch';
import { listIndexedFiles } from './indexStore';
import type { PreparedFile } from './prepareFile';
import { join } from 'node:path';

/** What one batch did (summed over its folders). */
export interface PathsIndexResult {
	paths: number;
	files_indexed: number;
	files_unchanged: number;
	/** Stored files removed: deleted on disk, now ignored, a secret, too large, unreadable. */
	files_removed: number;
	/** Paths neither stored nor indexable (ignored, deleted before the batch ran…), by reason. */
	skipped: Record<string, number>;
	chunks: number;
	embedded: number;
	reused: number;
	/** Write transactions committed (one per folder with anything to write or remove). */
	transactions: number;
	ms: number;
}

/** An empty result, for summing. */
export function emptyPathsResult(): PathsIndexResult {
	return { paths: 0, files_indexed: 0, files_unchanged: 0, files_removed: 0, skipped: {}, chunks: 0, embedded: 0, reused: 0, transactions: 0, ms: 0 };
}

// The store's write functions open their own transaction; inside ours they join it instead.
function joined(db: Queryable, tx: TxQueryable): Queryable {
	return { engine: db.engine, scope: db.scope, query: (sql, params) => tx.query(sql, params), transaction: (fn) => fn(tx), close: async () => undefined };
}

// A deleted folder arrives as one event for the folder: it stands for every stored file below it.
function withStoredChildren(relPaths: readonly string[], stored: ReadonlyMap<string, unknown>): Set<string> {
	const out = new Set<string>();
	let keys: string[] | null = null;
	for (const p of relPaths) {
		out.add(p);
		if (stored.has(p)) continue;
		keys ??= [...stored.keys()];
		for (const k of keys) if (k.startsWith(`${p}/`)) out.add(k);
	}
	return out;
}

/** Re-indexes `relPaths` (root-relative, `/`-separated) of one folder into workspace `ws`. */
export async function reindexPathsIn(ctx: FileContext, root: string, ws: string, relPaths: readonly string[], out: PathsIndexResult, signal?: AbortSignal): Promise<void> {
	const stored = await listIndexedFiles(ctx.db, ws);
	const rules: IgnoreCache = new Map();
	const prepared: PreparedFile[] = [];
	const gone: string[] = [];
	const skip = (reason: string) => (out.skipped[reason] = (out.skipped[reason] ?? 0) + 1);
	for (const relPath of withStoredChildren(relPaths, stored)) {
		signal?.throwIfAborted();
		out.paths++;
		const prev = stored.get(relPath);
		const drop = (reason: string) => (prev ? gone.push(relPath) : skip(reason));
		const reason = await excludedReason(ctx, root, relPath, rules);
		if (reason) {
			drop(reason);
			continue;
		}
		const st = await fileStat(ctx, join(root, ...relPath.split('/')));
		if (typeof st === 'string') {
			drop(st);
			continue;
		}
		const outcome = await prepareIfChanged(ctx, ws, { relPath, absPath: join(root, ...relPath.split('/')), ...st }, prev);
		if (outcome === 'unchanged') out.files_unchanged++;
		else if ('skip' in outcome) drop(outcome.skip);
		else prepared.push(outcome);
	}
	if (!prepared.length && !gone.length) return;
	const { docs, embedded, reused } = await embedFiles(ctx.db, ws, prepared, ctx.embedder, new Set(stored.keys()), ctx.settings.embedBatch, signal);
	signal?.throwIfAborted();
	out.chunks += await ctx.db.transaction(async (tx) => {
		const db = joined(ctx.db, tx);
		for (const docId of gone) await deleteDocuments(db, { workspaceId: ws, tier: 'workspace', docId });
		return upsertDocuments(db, docs);
	});
	out.transactions++;
	out.files_indexed += prepared.length;
	out.files_removed += gone.length;
	out.embedded += embedded;
	out.reused += reused;
}
