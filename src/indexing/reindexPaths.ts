/**
 * Re-indexing a batch of paths (the file watcher's debounced events, a branch switch): each path
 * is checked against the walk's rules (ignore files, excluded folders, secrets, size, binary),
 * unchanged files cost a stat or a hash, changed ones are embedded first (outside any
 * transaction), and then every write and removal of the folder happens in ONE transaction — a
 * checkout that touches 1,000 files is one commit, not 1,000.
 *
 * Two kinds of path stand for more than themselves: a path that is now a folder (a checkout,
 * `cp -r` or unzip may be reported as the folder's create alone) is walked with the full walk's
 * rules; a changed `.gitignore` (any depth) or `.git/info/exclude` re-evaluates the folder it
 * governs — its stored files that the rules now exclude are removed, its files no longer
 * excluded are indexed — and nothing outside that folder.
 */
export type { IgnoreRulesChange } from './ignoreChange';
import { deleteDocuments } from '../store/chunkRepo';
import { excludedReason, fileStat, prepareIfChanged, type FileContext, type IgnoreCache } from './indexFile';
import { noteFailure, type FileFailure } from './fileFailures';
import { embedFiles } from './indexBatch';
import { listIndexedFiles } from './indexStore';
import { upsertIsolated } from './isolatedWrite';
import type { PreparedFile } from './prepareFile';
import type { IgnoreRulesChange } from './ignoreChange';
import { walkSubtree } from './walk';
import { lstat, stat } from 'node:fs/promises';
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
	/** Files left out because something was wrong with them, with why (capped; for the log). */
	failures: FileFailure[];
	chunks: number;
	embedded: number;
	reused: number;
	/** Write transactions committed (one per folder with anything to write or remove). */
	transactions: number;
	/** Paths that were folders, walked with the full walk's rules. */
	folders_walked: number;
	/** Changed ignore files, each with what re-evaluating its folder did. */
	ignore_changes: IgnoreRulesChange[];
	ms: number;
}

/** An empty result, for summing. */
export function emptyPathsResult(): PathsIndexResult {
	return {
		paths: 0,
		files_indexed: 0,
		files_unchanged: 0,
		files_removed: 0,
		skipped: {},
		failures: [],
		chunks: 0,
		embedded: 0,
		reused: 0,
		transactions: 0,
		folders_walked: 0,
		ignore_changes: [],
		ms: 0,
	};
}

/** The folder an ignore file governs (root-relative, '' = root), or null when `relPath` is no ignore file. */
export function governedFolder(relPath: string): string | null {
	if (relPath === '.git/info/exclude' || relPath === '.gitignore') return '';
	return relPath.endsWith('/.gitignore') ? relPath.slice(0, -'/.gitignore'.length) : null;
}

// A path that is a folder now (a link to one only when links are followed).
async function isFolder(ctx: FileContext, absPath: string): Promise<boolean> {
	try {
		const l = await lstat(absPath);
		if (!l.isSymbolicLink()) return l.isDirectory();
		return ctx.followSymlinks && (await stat(absPath)).isDirectory();
	} catch {
		return false;
	}
}

const under = (folder: string, relPath: string) => folder === '' || relPath.startsWith(`${folder}/`);

/**
 * The paths a batch stands for: each path; a folder's walked files instead of the folder; a
 * path that is not a stored file, every stored file below it (a deleted folder arrives as one
 * event); and for a changed ignore file, the walked files and stored files of the folder it
 * governs, each remembered with the (deepest) change it belongs to.
 */
async function expandBatch(
	ctx: FileContext,
	root: string,
	relPaths: readonly string[],
	stored: ReadonlyMap<string, unknown>,
	out: PathsIndexResult,
	signal?: AbortSignal,
) {
	const paths = new Set<string>();
	const origin = new Map<string, IgnoreRulesChange>();
	const storedKeys = [...stored.keys()];
	const walkOptions = {
		excludes: ctx.excludes,
		followSymlinks: ctx.followSymlinks,
		maxFileBytes: ctx.settings.maxFileBytes,
		signal,
	};
	// A new folder's left-out entries count as the batch's skips; a re-evaluated folder's do not (they were skipped before too).
	const walk = async (folder: string, add: (relPath: string) => void, countSkips: boolean) => {
		for await (const e of walkSubtree(root, folder, walkOptions)) {
			if (e.kind === 'file') add(e.relPath);
			else if (countSkips && !stored.has(e.relPath)) out.skipped[e.reason] = (out.skipped[e.reason] ?? 0) + 1;
		}
		for (const k of storedKeys) if (under(folder, k)) add(k);
	};
	const changes: IgnoreRulesChange[] = [];
	for (const p of relPaths) {
		const folder = governedFolder(p);
		if (folder !== null && !changes.some((c) => c.rules === p))
			changes.push({ root, rules: p, folder, removed: 0, indexed: 0 });
		const folderNow = await isFolder(ctx, join(root, ...p.split('/')));
		if (stored.has(p) || !folderNow) {
			paths.add(p);
			if (!stored.has(p)) for (const k of storedKeys) if (k.startsWith(`${p}/`)) paths.add(k);
		}
		if (folderNow) {
			out.folders_walked++;
			await walk(p, (f) => paths.add(f), true);
		}
	}
	// Shallower first, so a deeper change's folder overrides the origin of its files.
	changes.sort((a, b) => a.folder.length - b.folder.length);
	for (const c of changes) {
		await walk(
			c.folder,
			(f) => {
				paths.add(f);
				// The ignore files themselves are indexed as files, not counted as what their change did.
				if (!changes.some((d) => d.rules === f)) origin.set(f, c);
			},
			false,
		);
		out.ignore_changes.push(c);
	}
	return { paths, origin };
}

/** Re-indexes `relPaths` (root-relative, `/`-separated) of one folder into workspace `ws`. */
export async function reindexPathsIn(
	ctx: FileContext,
	root: string,
	ws: string,
	relPaths: readonly string[],
	out: PathsIndexResult,
	signal?: AbortSignal,
): Promise<void> {
	const stored = await listIndexedFiles(ctx.db, ws);
	const rules: IgnoreCache = new Map();
	const prepared: PreparedFile[] = [];
	const gone: string[] = [];
	const skip = (reason: string) => (out.skipped[reason] = (out.skipped[reason] ?? 0) + 1);
	const { paths, origin } = await expandBatch(ctx, root, relPaths, stored, out, signal);
	for (const relPath of paths) {
		signal?.throwIfAborted();
		out.paths++;
		const prev = stored.get(relPath);
		const change = origin.get(relPath);
		const drop = (reason: string, detail = '') => {
			noteFailure(out.failures, { path: relPath, reason, detail });
			if (!prev) return skip(reason);
			gone.push(relPath);
			if (change && reason === 'ignored') change.removed++;
		};
		const reason = await excludedReason(ctx, root, relPath, rules);
		if (reason) {
			drop(reason);
			continue;
		}
		const st = await fileStat(ctx, join(root, ...relPath.split('/')), root);
		if (typeof st === 'string') {
			drop(st);
			continue;
		}
		const outcome = await prepareIfChanged(
			ctx,
			ws,
			{ relPath, absPath: join(root, ...relPath.split('/')), ...st },
			prev,
		);
		if (outcome === 'unchanged') out.files_unchanged++;
		else if ('skip' in outcome) drop(outcome.skip, outcome.detail);
		else {
			prepared.push(outcome);
			if (change && !prev) change.indexed++;
		}
	}
	if (!prepared.length && !gone.length) return;
	const { docs, embedded, reused } = await embedFiles(
		ctx.db,
		ws,
		prepared,
		ctx.embedder,
		new Set(stored.keys()),
		ctx.settings.embedBatch,
		signal,
	);
	signal?.throwIfAborted();
	// One transaction for the batch; a file the database refuses is rolled back alone (write_error).
	const written = await upsertIsolated(
		ctx.db,
		docs,
		async (db) => {
			for (const docId of gone) await deleteDocuments(db, { workspaceId: ws, tier: 'workspace', docId });
		},
		signal,
	);
	out.chunks += written.chunks;
	for (const f of written.failed) {
		skip('write_error');
		noteFailure(out.failures, { path: f.docId, reason: 'write_error', detail: f.error });
	}
	out.transactions++;
	out.files_indexed += prepared.length - written.failed.length;
	out.files_removed += gone.length;
	out.embedded += embedded;
	out.reused += reused;
}
