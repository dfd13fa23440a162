/**
 * The workspace indexer: walk → (unchanged? skip) → read, redact, chunk → embed what changed →
 * write; then remove what disappeared. Incremental by content hash: re-indexing an unchanged
 * tree reads no file and embeds nothing. Cancelling (AbortSignal) keeps what was written; the
 * next run resumes by skipping it. Used by `gmem index`, and by the extension from a worker.
 * A run that will write many chunks is a bulk load (bulkLoad.ts); the watcher's batches are not.
 */
import { resolve, sep } from 'node:path';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../core/thresholds';
import type { Embedder } from '../models/embedder';
import { workspaceId as workspaceIdOf } from '../store/location';
import type { Queryable } from '../store/queryable';
import { indexFileAt, prepareIfChanged, type FileContext, type FileOutcome } from './indexFile';
import { estimateIncomingChunks, startBulkLoad } from './bulkLoad';
import { writeFiles } from './indexBatch';
import { listIndexedFiles, removeIndexedFiles } from './indexStore';
import { noteFailure, type FileFailure } from './fileFailures';
import { indexSettings, type IndexSettings, type PreparedFile } from './prepareFile';
import { emptyPathsResult, reindexPathsIn, type PathsIndexResult } from './reindexPaths';
import { walkFolder, type WalkEntry } from './walk';

/** How the indexer is set up. */
export interface IndexerOptions {
	db: Queryable;
	/** Null: lexical-only (no vectors are written). */
	embedder: Embedder | null;
	thresholds?: Thresholds;
	/** User exclude globs (VS Code files.exclude / search.exclude / gatedMemory.index.exclude). */
	excludes?: readonly string[];
	followSymlinks?: boolean;
	/** Workspace folders known up front (reindexFile/removeFile find a file's folder among them). */
	folders?: readonly string[];
	/** The workspace id rows of a folder carry (default: the folder's absolute path, hashed). */
	workspaceIdOf?: (root: string) => string;
}

/** A progress report; `files_total` is known once the walk has finished. */
export interface IndexProgress {
	root: string;
	phase: 'walk' | 'index' | 'remove' | 'done';
	files_total: number | null;
	files_done: number;
	files_indexed: number;
	files_unchanged: number;
	chunks: number;
	path: string | null;
}

/** One folder's result: the `gmem index --json` object plus embedding counts. */
export interface FolderIndexResult {
	root: string;
	workspace_id: string;
	files_indexed: number;
	files_unchanged: number;
	files_removed: number;
	/** Chunks written by this run. */
	chunks: number;
	skipped: Record<string, number>;
	/** Files left out because something was wrong with them, with why (capped; for the log). */
	failures: FileFailure[];
	ms: number;
	embedded: number;
	reused: number;
}

/** Options of one run. */
export interface RunOptions {
	signal?: AbortSignal;
	onProgress?: (p: IndexProgress) => void;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** Indexes workspace folders into the store's workspace tier. */
export class Indexer {
	readonly settings: IndexSettings;
	private readonly folders = new Set<string>();

	constructor(private readonly options: IndexerOptions) {
		this.settings = indexSettings(options.thresholds ?? DEFAULT_THRESHOLDS);
		for (const f of options.folders ?? []) this.folders.add(resolve(f));
	}

	/** Indexes each folder in turn (multi-root: one workspace id per folder). */
	async indexFolders(folders: readonly string[], run: RunOptions = {}): Promise<FolderIndexResult[]> {
		const out: FolderIndexResult[] = [];
		for (const folder of folders) {
			const steps = this.indexFolderSteps(folder, run.signal);
			for (;;) {
				const step = await steps.next();
				if (step.done) {
					out.push(step.value);
					break;
				}
				run.onProgress?.(step.value);
			}
		}
		return out;
	}

	/** The same run as an async generator of progress, returning the result. */
	async *indexFolderSteps(folder: string, signal?: AbortSignal): AsyncGenerator<IndexProgress, FolderIndexResult> {
		const started = performance.now();
		const root = resolve(folder);
		this.folders.add(root);
		const ws = this.workspaceOf(root);
		const progress: IndexProgress = {
			root,
			phase: 'walk',
			files_total: null,
			files_done: 0,
			files_indexed: 0,
			files_unchanged: 0,
			chunks: 0,
			path: null,
		};
		const result: FolderIndexResult = {
			root,
			workspace_id: ws,
			files_indexed: 0,
			files_unchanged: 0,
			files_removed: 0,
			chunks: 0,
			skipped: {},
			failures: [],
			ms: 0,
			embedded: 0,
			reused: 0,
		};
		const skip = (reason: string, path = '', detail = '') => {
			result.skipped[reason] = (result.skipped[reason] ?? 0) + 1;
			noteFailure(result.failures, { path, reason, detail });
		};
		yield { ...progress };
		const files: Array<Extract<WalkEntry, { kind: 'file' }>> = [];
		for await (const e of walkFolder(root, {
			excludes: this.options.excludes,
			followSymlinks: this.options.followSymlinks,
			maxFileBytes: this.settings.maxFileBytes,
			signal,
		})) {
			if (e.kind === 'skip') skip(e.reason, e.relPath, e.detail);
			else files.push(e);
		}
		const stored = await listIndexedFiles(this.options.db, ws);
		const keep = new Set<string>();
		let batch: PreparedFile[] = [];
		let pending = 0;
		// Lexical-only runs write no vectors: nothing for the vector index to gain.
		const incoming = this.options.embedder ? estimateIncomingChunks(files, stored, this.settings.limits.maxChars) : 0;
		const bulk = await startBulkLoad(this.options.db, incoming);
		const flush = async () => {
			const w = await writeFiles(
				this.options.db,
				ws,
				batch,
				this.options.embedder,
				new Set(stored.keys()),
				this.settings.embedBatch,
				signal,
			);
			await bulk.wrote(w.chunks);
			// A refused file is that file's failure: counted, listed, not stored; the batch's others landed.
			for (const f of w.failed) {
				result.files_indexed--;
				skip('write_error', f.docId, f.error);
			}
			result.chunks += w.chunks;
			result.embedded += w.embedded;
			result.reused += w.reused;
			batch = [];
			pending = 0;
		};
		let ok = false;
		try {
			Object.assign(progress, { phase: 'index', files_total: files.length });
			for (const entry of files) {
				signal?.throwIfAborted();
				const outcome = await prepareIfChanged(this.context(), ws, entry, stored.get(entry.relPath));
				if (outcome === 'unchanged') {
					keep.add(entry.relPath);
					result.files_unchanged++;
				} else if ('skip' in outcome) skip(outcome.skip, entry.relPath, outcome.detail);
				else {
					keep.add(entry.relPath);
					batch.push(outcome);
					pending += outcome.chunks.length;
					result.files_indexed++;
					if (pending >= this.settings.embedBatch) await flush();
				}
				Object.assign(progress, {
					files_done: progress.files_done + 1,
					files_indexed: result.files_indexed,
					files_unchanged: result.files_unchanged,
					chunks: result.chunks + pending,
					path: entry.relPath,
				});
				yield { ...progress };
				await yieldToLoop(); // chunking is synchronous WASM work: let the event loop breathe between files
			}
			await flush();
			ok = true;
		} finally {
			// Also when cancelled or failed: a dropped vector index is rebuilt before the run ends.
			await bulk.finish(ok);
		}
		// Only after a complete walk: anything stored but not kept was deleted, ignored or became unreadable.
		yield { ...progress, phase: 'remove', path: null };
		const gone = [...stored.keys()].filter((d) => !keep.has(d));
		await removeIndexedFiles(this.options.db, ws, gone);
		result.files_removed = gone.length;
		result.ms = Math.round(performance.now() - started);
		yield { ...progress, phase: 'done', chunks: result.chunks, path: null };
		return result;
	}

	/** The workspace id of a folder's rows. */
	workspaceOf(root: string): string {
		return (this.options.workspaceIdOf ?? workspaceIdOf)(root);
	}

	/** What the single-file operations need. */
	private context(): FileContext {
		const o = this.options;
		return {
			db: o.db,
			embedder: o.embedder,
			settings: this.settings,
			excludes: o.excludes ?? [],
			followSymlinks: o.followSymlinks ?? false,
		};
	}

	/**
	 * Re-indexes one file after a change (file watcher): written if it changed, removed if it is
	 * gone, now excluded, a secret or unreadable. The file's folder must be known to the indexer.
	 */
	async reindexFile(absPath: string, signal?: AbortSignal): Promise<FileOutcome> {
		const { root, relPath } = this.locate(absPath);
		return indexFileAt(this.context(), root, relPath, this.workspaceOf(root), signal);
	}

	/**
	 * Re-indexes a batch of absolute paths (the file watcher's debounced events): per folder, one
	 * read of what is stored, the walk's rules per path, embedding of what changed, then one write
	 * transaction. `folders` adds workspace folders (a fresh worker knows none); paths outside
	 * every known folder are counted as skipped ('outside').
	 */
	async reindexPaths(
		absPaths: readonly string[],
		signal?: AbortSignal,
		folders: readonly string[] = [],
	): Promise<PathsIndexResult> {
		const started = performance.now();
		for (const f of folders) this.folders.add(resolve(f));
		const out = emptyPathsResult();
		const byRoot = new Map<string, string[]>();
		for (const p of absPaths) {
			let at: { root: string; relPath: string };
			try {
				at = this.locate(p);
			} catch {
				out.paths++;
				out.skipped.outside = (out.skipped.outside ?? 0) + 1;
				continue;
			}
			const list = byRoot.get(at.root) ?? [];
			list.push(at.relPath);
			byRoot.set(at.root, list);
		}
		for (const [root, rels] of byRoot)
			await reindexPathsIn(this.context(), root, this.workspaceOf(root), rels, out, signal);
		out.ms = Math.round(performance.now() - started);
		return out;
	}

	/** Removes one file from the index (deleted on disk, or "Forget This File"); returns chunks removed. */
	async removeFile(absPath: string): Promise<number> {
		const { root, relPath } = this.locate(absPath);
		return removeIndexedFiles(this.options.db, this.workspaceOf(root), [relPath]);
	}

	/** The folder holding `absPath` (the deepest known one) and the path relative to it, with `/`. */
	locate(absPath: string): { root: string; relPath: string } {
		const abs = resolve(absPath);
		const root = [...this.folders].filter((f) => abs.startsWith(f + sep)).sort((a, b) => b.length - a.length)[0];
		if (!root) throw new Error(`${absPath} is not inside an indexed workspace folder`);
		return {
			root,
			relPath: abs
				.slice(root.length + 1)
				.split(sep)
				.join('/'),
		};
	}
}
