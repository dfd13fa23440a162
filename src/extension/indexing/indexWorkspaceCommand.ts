/**
 * Gated Memory: Index Workspace / Reindex Workspace — indexes the workspace folders through the
 * indexing worker thread (WorkspaceMemory → IndexWorkerClient), in a cancellable progress
 * notification (files, chunks, ETA), and reports the counts. Every index operation (a run, a
 * watcher batch, a clear) goes through one queue so two never write at once. Failures become a
 * message, a log line and the status bar's error state, never an exception.
 */
import * as vscode from 'vscode';
import { failureLine } from '../../indexing/fileFailures';
import type { FolderIndexResult, RunOptions } from '../../indexing/indexer';
import { indexedTotals } from '../../indexing/indexStore';
import type { PathsIndexResult } from '../../indexing/reindexPaths';
import { workspaceId } from '../../store/location';
import type { Store } from '../../store/openStore';
import { progressMessage } from './indexHealth';
import type { IndexStatus } from './indexStatus';
import { errorMessage } from '../../chat/logger';

/** What the index commands need of WorkspaceMemory. */
export interface IndexBackend {
	indexFolders(folders: readonly string[], run?: RunOptions): Promise<FolderIndexResult[]>;
	reindexPaths?(paths: readonly string[], signal?: AbortSignal): Promise<PathsIndexResult>;
	openStore(): Promise<Store>;
}

/** "12 files indexed, 3 unchanged, 40 chunks" over every folder of a run. */
export function indexSummary(results: readonly FolderIndexResult[]): string {
	const sum = (f: (r: FolderIndexResult) => number) => results.reduce((n, r) => n + f(r), 0);
	const skipped = sum((r) => Object.values(r.skipped).reduce((a, b) => a + b, 0));
	const parts = [`${sum((r) => r.files_indexed)} files indexed`, `${sum((r) => r.files_unchanged)} unchanged`];
	if (sum((r) => r.files_removed)) parts.push(`${sum((r) => r.files_removed)} removed`);
	if (skipped) parts.push(`${skipped} skipped`);
	parts.push(`${sum((r) => r.chunks)} chunks written`);
	return parts.join(', ');
}

let queue: Promise<unknown> = Promise.resolve();
let runActive = false;

/** Runs `work` after every index operation queued before it (one writer at a time). */
export function runExclusive<T>(work: () => Promise<T>): Promise<T> {
	const next = queue.then(work, work);
	queue = next.catch(() => undefined);
	return next;
}

/** The window's file workspace folders. */
export function fileFolders(): string[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** Indexed files and chunks of `folders` now (opens the store: only after an index operation). */
export async function currentTotals(
	memory: IndexBackend,
	folders: readonly string[],
): Promise<{ files: number; chunks: number }> {
	const store = await memory.openStore();
	return indexedTotals(
		store.db,
		folders.map((f) => workspaceId(f)),
	);
}

/** Runs Index Workspace or Reindex Workspace (the trusted case; Restricted Mode is handled by the caller). */
export async function indexWorkspace(
	memory: IndexBackend,
	log: vscode.LogOutputChannel,
	status?: IndexStatus,
	mode: 'index' | 'reindex' = 'index',
): Promise<void> {
	if (runActive) {
		void vscode.window.showInformationMessage('Gated Memory: the workspace is already being indexed.');
		return;
	}
	runActive = true;
	try {
		await runExclusive(() => indexOnce(memory, log, status, mode));
	} finally {
		runActive = false;
	}
}

async function indexOnce(
	memory: IndexBackend,
	log: vscode.LogOutputChannel,
	status: IndexStatus | undefined,
	mode: 'index' | 'reindex',
): Promise<void> {
	const folders = fileFolders();
	if (!folders.length) {
		void vscode.window.showInformationMessage('Gated Memory: open a folder to index it.');
		return;
	}
	const ac = new AbortController();
	const t0 = performance.now();
	const verb = mode === 'reindex' ? 'reindexing' : 'indexing';
	log.info(`${verb} ${folders.length} folder(s): ${folders.join(', ')}`);
	status?.runStarted(folders);
	try {
		const results = await vscode.window.withProgress(
			{
				location: vscode.ProgressLocation.Notification,
				title: `Gated Memory: ${verb} the workspace`,
				cancellable: true,
			},
			async (progress, token) => {
				token.onCancellationRequested(() => ac.abort());
				let last = 0;
				let reported = 0;
				let indexStarted = 0;
				return memory.indexFolders(folders, {
					signal: ac.signal,
					onProgress: (p) => {
						status?.runProgress(p);
						if (p.phase === 'index' && !indexStarted) indexStarted = performance.now();
						const now = performance.now();
						if (now - last < 100 && p.phase === 'index') return; // a few updates a second is plenty
						last = now;
						const percent = status?.snapshot().percent ?? null;
						const increment = percent === null ? undefined : Math.max(0, percent - reported);
						if (percent !== null) reported = Math.max(reported, percent);
						progress.report({ message: progressMessage(p, indexStarted ? now - indexStarted : 0), increment });
					},
				});
			},
		);
		const summary = indexSummary(results);
		log.info(`${verb} done in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${summary}`);
		for (const r of results) for (const f of r.failures ?? []) log.warn(`${verb}: skipped ${failureLine(f)}`);
		status?.finished(await currentTotals(memory, folders), results);
		void vscode.window.showInformationMessage(
			`Gated Memory: workspace ${mode === 'reindex' ? 'reindexed' : 'indexed'} — ${summary}.`,
		);
	} catch (e) {
		if (ac.signal.aborted || (e instanceof Error && e.name === 'AbortError')) {
			log.info(`${verb} cancelled`);
			status?.cancelled(await currentTotals(memory, folders).catch(() => null));
			void vscode.window.showInformationMessage(
				'Gated Memory: indexing cancelled. Files indexed so far stay searchable.',
			);
			return;
		}
		log.error(`${verb} failed: ${errorMessage(e)}`);
		status?.failed(errorMessage(e));
		void vscode.window
			.showErrorMessage(`Gated Memory: indexing failed: ${errorMessage(e)}`, 'Open Log')
			.then((choice) => {
				if (choice) log.show(true);
			});
	}
}
