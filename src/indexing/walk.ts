/**
 * Walks a workspace folder and yields every file that may be indexed, plus every entry it left
 * out and why. Only names and `stat` are looked at here (contents are sniffed later, by the
 * indexer, and only for files whose size or time changed). Async throughout, so it never blocks
 * the event loop; an AbortSignal stops it between entries.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { entryKind, type SkipReason } from './fileText';
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

/** What one walk carries along: the root's real path (links may not lead out of it) and the folders seen (loops). */
type WalkState = { rootReal: string; visited: Set<string> };

/** True when `real` (a resolved path) is the root or lies inside it. */
export function insideRoot(rootReal: string, real: string): boolean {
	return real === rootReal || real.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}

/**
 * A failed stat/readdir as a skip. Node decodes names as UTF-8, so a name whose bytes are not
 * UTF-8 comes back with U+FFFD in it and no longer names the entry (ENOENT): that is an
 * `encoding` skip, not an unreadable file.
 */
function failedSkip(relPath: string, e: unknown): WalkEntry {
	const code = (e as NodeJS.ErrnoException).code ?? String(e);
	if (code === 'ENOENT' && relPath.includes('\uFFFD'))
		return { kind: 'skip', relPath, reason: 'encoding', detail: 'file name is not valid UTF-8' };
	return { kind: 'skip', relPath, reason: 'unreadable', detail: code };
}

/** Walks `root` depth-first in name order (deterministic, so runs and tests are comparable). */
export async function* walkFolder(root: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
	const visited = new Set<string>();
	const rootStat = await stat(root);
	visited.add(`${rootStat.dev}:${rootStat.ino}`);
	const state = { rootReal: await realpath(root), visited };
	yield* walkFrames(
		root,
		[{ relDir: '', rules: await IgnoreStack.forRoot(root, options.excludes ?? []) }],
		options,
		state,
	);
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
		if (l.isSymbolicLink() && !options.followSymlinks)
			return yield { kind: 'skip', relPath: relDir, reason: 'symlink' };
		s = l.isSymbolicLink() ? await stat(join(root, relDir)) : l;
	} catch {
		return;
	}
	if (!s.isDirectory()) return;
	const r = await stat(root);
	const rootReal = await realpath(root);
	const real = await realpath(join(root, relDir)).catch(() => rootReal);
	if (!insideRoot(rootReal, real))
		return yield { kind: 'skip', relPath: relDir, reason: 'symlink-outside', detail: real };
	yield* walkFrames(root, [{ relDir, rules }], options, {
		rootReal,
		visited: new Set([`${r.dev}:${r.ino}`, `${s.dev}:${s.ino}`]),
	});
}

async function* walkFrames(
	root: string,
	stack: Frame[],
	options: WalkOptions,
	state: WalkState,
): AsyncGenerator<WalkEntry> {
	while (stack.length) {
		options.signal?.throwIfAborted();
		const frame = stack.pop()!;
		let entries: Dirent[];
		try {
			entries = await readdir(join(root, frame.relDir), { withFileTypes: true });
		} catch (e) {
			yield failedSkip(frame.relDir, e);
			continue;
		}
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		const subdirs: Frame[] = [];
		for (const entry of entries) {
			options.signal?.throwIfAborted();
			const relPath = frame.relDir ? `${frame.relDir}/${entry.name}` : entry.name;
			const out = await classify(root, relPath, entry, frame, options, state);
			if (out === null) continue;
			if ('relDir' in out) subdirs.push(out);
			else yield out;
		}
		// Reverse so the stack pops sub-folders in name order.
		for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
	}
}

// One directory entry → a file, a skip, or a sub-folder frame to walk. Only the entry's type and a
// stat are looked at: FIFOs, sockets and devices are reported `not_regular` and never opened.
async function classify(
	root: string,
	relPath: string,
	entry: Dirent,
	frame: Frame,
	options: WalkOptions,
	state: WalkState,
): Promise<WalkEntry | Frame | null> {
	const absPath = join(root, relPath);
	let isDir = entry.isDirectory();
	let isFile = entry.isFile();
	let kind = isDir || isFile ? '' : entryKind(entry);
	if (entry.isSymbolicLink()) {
		if (!options.followSymlinks) return { kind: 'skip', relPath, reason: 'symlink' };
		try {
			// A followed link may not lead out of the workspace (a home folder with keys in it).
			const real = await realpath(absPath);
			if (!insideRoot(state.rootReal, real)) return { kind: 'skip', relPath, reason: 'symlink-outside', detail: real };
			const target = await stat(absPath);
			isDir = target.isDirectory();
			isFile = target.isFile();
			kind = isDir || isFile ? '' : entryKind(target);
		} catch (e) {
			const code = (e as NodeJS.ErrnoException).code ?? String(e);
			if (code === 'ELOOP') return { kind: 'skip', relPath, reason: 'symlink-loop', detail: code };
			return { kind: 'skip', relPath, reason: 'unreadable', detail: `dangling link: ${code}` };
		}
	}
	if (isDir) {
		if (isExcludedDir(entry.name)) return { kind: 'skip', relPath, reason: 'excluded-folder' };
		if (frame.rules.excludes(relPath, true)) return { kind: 'skip', relPath, reason: 'ignored' };
		return enterDir(root, relPath, frame, state.visited);
	}
	if (!isFile)
		return frame.rules.excludes(relPath, false)
			? { kind: 'skip', relPath, reason: 'ignored' }
			: { kind: 'skip', relPath, reason: 'not_regular', detail: kind };
	if (isSecretFile(relPath)) return { kind: 'skip', relPath, reason: 'secret' };
	if (frame.rules.excludes(relPath, false)) return { kind: 'skip', relPath, reason: 'ignored' };
	if (isGeneratedFile(relPath)) return { kind: 'skip', relPath, reason: 'generated' };
	try {
		const s = await stat(absPath);
		if (!s.isFile()) return { kind: 'skip', relPath, reason: 'not_regular', detail: entryKind(s) }; // replaced since readdir
		if (s.size > options.maxFileBytes) return { kind: 'skip', relPath, reason: 'too_large', detail: `${s.size} bytes` };
		return { kind: 'file', relPath, absPath, size: s.size, mtimeMs: Math.floor(s.mtimeMs) };
	} catch (e) {
		return failedSkip(relPath, e);
	}
}

// A folder is walked once: a second arrival (through a followed link) is a loop or a duplicate.
async function enterDir(root: string, relPath: string, frame: Frame, visited: Set<string>): Promise<WalkEntry | Frame> {
	try {
		const s = await stat(join(root, relPath));
		const key = `${s.dev}:${s.ino}`;
		if (visited.has(key))
			return { kind: 'skip', relPath, reason: 'symlink-loop', detail: await realpath(join(root, relPath)) };
		visited.add(key);
		return { relDir: relPath, rules: await frame.rules.descend(root, relPath) };
	} catch (e) {
		return failedSkip(relPath, e);
	}
}
