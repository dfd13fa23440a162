/**
 * The workspace index's health for this window: what the status bar, the progress notification
 * and Inspect Memory State show. Updated by the index runs, the watcher's batches and worker
 * crashes; the counts of the last finished run are kept in workspaceState, so a reload shows
 * "up to date · N chunks" without opening the store.
 */
import * as vscode from 'vscode';
import type { FolderIndexResult, IndexProgress } from '../../indexing/indexer';
import { NOT_INDEXED, percentDone, type IndexHealth } from './indexHealth';

export type { IndexHealth } from './indexHealth';

const MEMENTO_KEY = 'gatedMemory.indexHealth';

/** Holds the index health and tells listeners when it changes. */
export class IndexStatus implements vscode.Disposable {
	private health: IndexHealth;
	private readonly changed = new vscode.EventEmitter<IndexHealth>();
	readonly onDidChange: vscode.Event<IndexHealth> = this.changed.event;
	private roots: string[] = [];

	constructor(private readonly memento?: vscode.Memento) {
		const saved = memento?.get<Partial<IndexHealth>>(MEMENTO_KEY);
		this.health = saved ? { ...NOT_INDEXED, ...saved, state: 'idle', percent: null } : { ...NOT_INDEXED };
	}

	/** The current health (a copy). */
	snapshot(): IndexHealth {
		return { ...this.health, skipped: { ...this.health.skipped } };
	}

	/** True once this workspace was indexed (the watcher only runs then). */
	get indexedOnce(): boolean {
		return this.health.lastRun !== null;
	}

	/** A full run over `roots` started. */
	runStarted(roots: readonly string[]): void {
		this.roots = [...roots];
		this.set({ state: 'indexing', percent: 0 });
	}

	/** Progress of a full run: overall percent over its folders, run one after another. */
	runProgress(p: IndexProgress): void {
		const share = percentDone(p);
		if (share === null) return;
		const i = Math.max(0, this.roots.indexOf(p.root));
		const n = Math.max(1, this.roots.length);
		const percent = Math.min(99, Math.floor((i * 100 + share) / n));
		if (percent !== this.health.percent) this.set({ percent });
	}

	/** A watcher batch started (no percent: batches are short). */
	batchStarted(): void {
		if (this.health.state !== 'indexing') this.set({ state: 'indexing', percent: null });
	}

	/** A run or batch finished; `totals` are the counts now stored, `results` a full run's results. */
	finished(totals: { files: number; chunks: number }, results?: readonly FolderIndexResult[]): void {
		const skipped = results ? sumSkipped(results) : this.health.skipped;
		this.set({
			state: 'idle',
			percent: null,
			files: totals.files,
			chunks: totals.chunks,
			skipped,
			lastRun: Date.now(),
			lastError: null,
		});
	}

	/** A run was cancelled: what was written stays; the counts are refreshed by the caller. */
	cancelled(totals: { files: number; chunks: number } | null): void {
		this.set({ state: 'idle', percent: null, ...(totals ?? {}) });
	}

	/** A run, a batch or the worker failed. */
	failed(message: string): void {
		this.set({ state: 'error', percent: null, lastError: message });
	}

	/** The index was cleared: back to "not indexed". */
	cleared(): void {
		this.set({ ...NOT_INDEXED });
	}

	dispose(): void {
		this.changed.dispose();
	}

	private set(patch: Partial<IndexHealth>): void {
		this.health = { ...this.health, ...patch };
		const { files, chunks, skipped, lastRun, lastError } = this.health;
		void this.memento?.update(MEMENTO_KEY, { files, chunks, skipped, lastRun, lastError });
		this.changed.fire(this.snapshot());
	}
}

function sumSkipped(results: readonly FolderIndexResult[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const r of results) for (const [k, n] of Object.entries(r.skipped)) out[k] = (out[k] ?? 0) + n;
	return out;
}
