/**
 * Single-file operations for the file watcher: decide whether a file changed (without reading it
 * when size and time match), and re-index or remove one file under the same rules as the walk
 * (ignore files, excluded folders, secrets, size, binary).
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Embedder } from '../models/embedder';
import type { Queryable } from '../store/queryable';
import { writeFiles } from './indexBatch';
import { getIndexedFile, removeIndexedFiles, touchIndexedFile, type IndexedFile } from './indexStore';
import { chunkerKey, prepareFile, sha256, type IndexSettings, type PreparedFile } from './prepareFile';
import { isSecretFile } from './secretFiles';
import { insideRoot } from './walk';
import { IgnoreStack, isExcludedDir, isGeneratedFile } from './walkIgnore';

/** What the indexer needs to handle one file. */
export interface FileContext {
	db: Queryable;
	embedder: Embedder | null;
	settings: IndexSettings;
	excludes: readonly string[];
	followSymlinks: boolean;
}

/** The result of re-indexing one file. */
export interface FileOutcome {
	status: 'indexed' | 'unchanged' | 'removed' | 'skipped';
	/** Why it was removed or skipped (a skip reason, or 'deleted'). */
	reason?: string;
	chunks: number;
	embedded: number;
}

/** A short tag of the chunk settings, prefixed to every file hash so a settings change re-chunks. */
export function settingsTag(settings: IndexSettings): string {
	return `${sha256(chunkerKey(settings)).slice(0, 8)}:`;
}

/**
 * The file prepared for writing, 'unchanged', or a skip. Unchanged without reading when size,
 * mtime, settings and embedder all match; after a read, when the content hash matches (the
 * stored mtime is then refreshed so the next run takes the fast path).
 */
export async function prepareIfChanged(
	ctx: FileContext,
	ws: string,
	entry: { relPath: string; absPath: string; mtimeMs: number; size: number },
	prev: IndexedFile | null | undefined,
): Promise<PreparedFile | 'unchanged' | { skip: string; detail?: string }> {
	const tag = settingsTag(ctx.settings);
	const sameKey = !!prev && prev.embedder === (ctx.embedder?.id ?? null) && prev.contentHash.startsWith(tag);
	if (sameKey && prev.mtimeMs === entry.mtimeMs && prev.size === entry.size) return 'unchanged';
	const prepared = await prepareFile(entry, ctx.settings);
	if ('skip' in prepared) return prepared;
	prepared.fileHash = tag + prepared.fileHash;
	if (sameKey && prev.contentHash === prepared.fileHash) {
		await touchIndexedFile(ctx.db, ws, entry.relPath, entry.mtimeMs);
		return 'unchanged';
	}
	return prepared;
}

/** Ignore rules per folder (relative path), shared by the paths of one batch so each .gitignore is read once. */
export type IgnoreCache = Map<string, Promise<IgnoreStack>>;

/** The walk's rules for one path: null when it may be indexed, else the skip reason. */
export async function excludedReason(
	ctx: FileContext,
	root: string,
	relPath: string,
	cache: IgnoreCache = new Map(),
): Promise<string | null> {
	const parts = relPath.split('/');
	const cached = (dir: string, make: () => Promise<IgnoreStack>) => {
		let p = cache.get(dir);
		if (!p) cache.set(dir, (p = make()));
		return p;
	};
	let rules = await cached('', () => IgnoreStack.forRoot(root, ctx.excludes));
	for (let i = 0; i < parts.length - 1; i++) {
		const dir = parts.slice(0, i + 1).join('/');
		if (isExcludedDir(parts[i])) return 'excluded-folder';
		if (rules.excludes(dir, true)) return 'ignored';
		const parent = rules;
		rules = await cached(dir, () => parent.descend(root, dir));
	}
	if (isSecretFile(relPath)) return 'secret';
	if (rules.excludes(relPath, false)) return 'ignored';
	return isGeneratedFile(relPath) ? 'generated' : null;
}

/**
 * lstat first: a link is only followed when the walk would follow it, and never out of `root`
 * (a watcher event may name a path below a linked folder the walk never entered). A FIFO, socket
 * or device is `not_regular` and never opened. A string is a skip reason.
 */
export async function fileStat(
	ctx: FileContext,
	absPath: string,
	root?: string,
): Promise<{ size: number; mtimeMs: number } | string> {
	try {
		const l = await lstat(absPath);
		if (l.isSymbolicLink() && !ctx.followSymlinks) return 'symlink';
		const s = l.isSymbolicLink() ? await stat(absPath) : l;
		if (s.isDirectory()) return 'deleted';
		if (!s.isFile()) return 'not_regular';
		if (root !== undefined) {
			const [rootReal, real] = await Promise.all([realpath(root), realpath(absPath)]);
			if (!insideRoot(rootReal, real)) return ctx.followSymlinks ? 'symlink-outside' : 'symlink';
			// Not following links: the path itself must be the file, not reached through a linked folder.
			if (!ctx.followSymlinks && real !== join(rootReal, absPath.slice(root.length))) return 'symlink';
		}
		if (s.size > ctx.settings.maxFileBytes) return 'too_large';
		return { size: s.size, mtimeMs: Math.floor(s.mtimeMs) };
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code;
		return code === 'ENOENT' || code === 'ENOTDIR' ? 'deleted' : 'unreadable';
	}
}

/** Re-indexes `relPath` inside `root`, or removes it when it may no longer be indexed. */
export async function indexFileAt(
	ctx: FileContext,
	root: string,
	relPath: string,
	ws: string,
	signal?: AbortSignal,
): Promise<FileOutcome> {
	const absPath = join(root, ...relPath.split('/'));
	const prev = await getIndexedFile(ctx.db, ws, relPath);
	const gone = async (reason: string): Promise<FileOutcome> => {
		if (!prev) return { status: 'skipped', reason, chunks: 0, embedded: 0 };
		await removeIndexedFiles(ctx.db, ws, [relPath]);
		return { status: 'removed', reason, chunks: 0, embedded: 0 };
	};
	const reason = await excludedReason(ctx, root, relPath);
	if (reason) return gone(reason);
	const st = await fileStat(ctx, absPath, root);
	if (typeof st === 'string') return gone(st);
	const prepared = await prepareIfChanged(ctx, ws, { relPath, absPath, ...st }, prev);
	if (prepared === 'unchanged') return { status: 'unchanged', chunks: 0, embedded: 0 };
	if ('skip' in prepared) return gone(prepared.skip);
	const w = await writeFiles(
		ctx.db,
		ws,
		[prepared],
		ctx.embedder,
		new Set(prev ? [relPath] : []),
		ctx.settings.embedBatch,
		signal,
	);
	if (w.failed.length) return { status: 'skipped', reason: 'write_error', chunks: 0, embedded: w.embedded };
	return { status: 'indexed', chunks: w.chunks, embedded: w.embedded };
}
