/**
 * Walks a workspace folder and yields every file that may be indexed, plus every entry it left
 * out and why. Only names and `stat` are looked at here (contents are sniffed later, by the
 * indexer, and only for files whose size or time changed). Async throughout, so it never blocks
 * the event loop; an AbortSignal stops it between entries.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkipReason } from './fileText';
import { isSecretFile } from './secretFiles';
import { IgnoreStack, isExcludedDir, isGeneratedFile } from './walkIgnore';

/** Options of one walk. */
export interface WalkOptions {
	/** Extra exclude globs (VS Code `files.exclude`/`search.exclude`, `gatedMemory.index.exclude`). */
	excludes?: readonly string[];
	/** Files larger than this are reported as 'too_large' (threshold `index_max_file_bytes`). */
	maxFileBytes: number;
	/**
	 * Follow symbolic links (loops are detected). Off by default: a link's target is either
	 * inside the folder, and walked under its own path, or outside it, where secrets may live.
	 */
	followSymlinks?: boolean;
	signal?: AbortSignal;
}

/** A file to index, or an entry left out. Paths are root-relative with `/` separators. */
export type WalkEntry =
	| { kind: 'file'; relPath: string; absPath: string; size: number; mtimeMs: number }
	| { kind: 'skip'; relPath: string; reason: SkipReason; detail?: string };

type Frame = { relDir: string; rules: IgnoreStack };

/** Walks `root` depth-first in name order (deterministic, so runs and tests are comparable). */
export async function* walkFolder(root: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
	const visited = new Set<string>();
	const rootStat = await stat(root);
	visited.add(`${rootStat.dev}:${rootStat.ino}`);
	yield* walkFrames(root, [{ relDir: '', rules: await IgnoreStack.forRoot(root, options.excludes ?? []) }], options, visited);
}

/**
 * Walks only the sub-folder `relDir` of `root` (a folder that appeared in one watcher event, the
 * folder a changed `.gitignore` governs) under exactly the rules a full walk would apply there:
 * every ancestor's ignore files, excluded folders and user excludes. A `relDir` that a full walk
 * would not enter yields one skip for it; one that is not a folder (or is gone) yields nothing.
 */
export async function* walkSubtree(root: string, relDir: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
	if (!relDir) {
		yield* walkFolder(root, options);
		return;
	}
	let rules = await IgnoreStack.forRoot(root, options.excludes ?? []);
	const parts = relDir.split('/');
	for (let i = 0; i < parts.length; i++) {
		const dir = parts.slice(0, i + 1).join('/');
		if (isExcludedDir(parts[i])) return yield { kind: 'skip', relPath: dir, reason: 'excluded-folder' };
		if (rules.excludes(dir, true)) return yield { kind: 'skip', relPath: dir, reason: 'ignored' };
		rules = await rules.descend(root, dir);
	}
	let s: Awaited<ReturnType<typeof stat>>;
	try {
		const l = await lstat(join(root, relDir));
		if (l.isSymbolicLink() && !options.followSymlinks) return yield { kind: 'skip', relPath: relDir, reason: 'symlink' };
		s = l.isSymbolicLink() ? await stat(join(root, relDir)) : l;
	} catch {
		return;
	}
	if (!s.isDirectory()) return;
	const r = await stat(root);
	yield* walkFrames(root, [{ relDir, rules }], options, new Set([`${r.dev}:${r.ino}`, `${s.dev}:${s.ino}`]));
}

async function* walkFrames(root: string, stack: Frame[], options: WalkOptions, visited: Set<string>): AsyncGenerator<WalkEntry> {
	while (stack.length) {
		options.signal?.throwIfAborted();
		const frame = stack.pop()!;
		let entries: Dirent[];
		try {
			entries = await readdir(join(root, frame.relDir), { withFileTypes: true });
		} catch (e) {
			yield { kind: 'skip', relPath: frame.relDir, reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
			continue;
		}
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		const subdirs: Frame[] = [];
		for (const entry of entries) {
			options.signal?.throwIfAborted();
			const relPath = frame.relDir ? `${frame.relDir}/${entry.name}` : entry.name;
			const out = await classify(root, relPath, entry, frame, options, visited);
			if (out === null) continue;
			if ('relDir' in out) subdirs.push(out);
			else yield out;
		}
		// Reverse so the stack pops sub-folders in name order.
		for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
	}
}

// One directory entry → a file, a skip, a sub-folder frame to walk, or null (sockets, FIFOs).
async function classify(root: string, relPath: string, entry: Dirent, frame: Frame, options: WalkOptions, visited: Set<string>): Promise<WalkEntry | Frame | null> {
	const absPath = join(root, relPath);
	let isDir = entry.isDirectory();
	let isFile = entry.isFile();
	if (entry.isSymbolicLink()) {
		if (!options.followSymlinks) return { kind: 'skip', relPath, reason: 'symlink' };
		try {
			const target = await stat(absPath);
			isDir = target.isDirectory();
			isFile = target.isFile();
		} catch (e) {
			return { kind: 'skip', relPath, reason: 'unreadable', detail: `dangling link: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
		}
	}
	if (isDir) {
		if (isExcludedDir(entry.name)) return { kind: 'skip', relPath, reason: 'excluded-folder' };
		if (frame.rules.excludes(relPath, true)) return { kind: 'skip', relPath, reason: 'ignored' };
		return enterDir(root, relPath, frame, visited);
	}
	if (!isFile) return null;
	if (isSecretFile(relPath)) return { kind: 'skip', relPath, reason: 'secret' };
	if (frame.rules.excludes(relPath, false)) return { kind: 'skip', relPath, reason: 'ignored' };
	if (isGeneratedFile(relPath)) return { kind: 'skip', relPath, reason: 'generated' };
	try {
		const s = await stat(absPath);
		if (s.size > options.maxFileBytes) return { kind: 'skip', relPath, reason: 'too_large', detail: `${s.size} bytes` };
		return { kind: 'file', relPath, absPath, size: s.size, mtimeMs: Math.floor(s.mtimeMs) };
	} catch (e) {
		return { kind: 'skip', relPath, reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
	}
}

// A folder is walked once: a second arrival (through a followed link) is a loop or a duplicate.
async function enterDir(root: string, relPath: string, frame: Frame, visited: Set<string>): Promise<WalkEntry | Frame> {
	try {
		const s = await stat(join(root, relPath));
		const key = `${s.dev}:${s.ino}`;
		if (visited.has(key)) return { kind: 'skip', relPath, reason: 'symlink-loop', detail: await realpath(join(root, relPath)) };
		visited.add(key);
		return { relDir: relPath, rules: await frame.rules.descend(root, relPath) };
	} catch (e) {
		return { kind: 'skip', relPath, reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
	}
}
