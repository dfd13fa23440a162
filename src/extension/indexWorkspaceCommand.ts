/**
 * Gated Memory: Index Workspace — indexes the workspace folders through the indexing worker
 * thread (WorkspaceMemory → IndexWorkerClient), in a cancellable progress notification, and
 * reports the counts. Failures become a message and a log line, never an exception.
 */
import * as vscode from 'vscode';
import type { FolderIndexResult, IndexProgress } from '../indexing/indexer';
import { errorMessage } from './logger';
import type { WorkspaceMemory } from './workspaceMemory';

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

function progressText(p: IndexProgress): string {
	if (p.phase === 'walk') return 'listing files…';
	const total = p.files_total === null ? '' : ` of ${p.files_total}`;
	return `${p.files_done}${total} files, ${p.chunks} chunks`;
}

let running = false;

/** Runs Index Workspace (the trusted case; Restricted Mode is handled by the caller). */
export async function indexWorkspace(memory: WorkspaceMemory, log: vscode.LogOutputChannel): Promise<void> {
	if (running) {
		void vscode.window.showInformationMessage('Gated Memory: the workspace is already being indexed.');
		return;
	}
	running = true;
	try {
		await indexOnce(memory, log);
	} finally {
		running = false;
	}
}

async function indexOnce(memory: WorkspaceMemory, log: vscode.LogOutputChannel): Promise<void> {
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
	if (!folders.length) {
		void vscode.window.showInformationMessage('Gated Memory: open a folder to index it.');
		return;
	}
	const ac = new AbortController();
	const t0 = performance.now();
	log.info(`indexing ${folders.length} folder(s): ${folders.join(', ')}`);
	try {
		const results = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: 'Gated Memory: indexing the workspace', cancellable: true },
			async (progress, token) => {
				token.onCancellationRequested(() => ac.abort());
				let last = 0;
				return memory.indexFolders(folders, {
					signal: ac.signal,
					onProgress: (p) => {
						const now = performance.now();
						if (now - last < 100 && p.phase === 'index') return; // a few updates a second is plenty
						last = now;
						progress.report({ message: progressText(p) });
					},
				});
			},
		);
		const summary = indexSummary(results);
		log.info(`indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${summary}`);
		void vscode.window.showInformationMessage(`Gated Memory: workspace indexed — ${summary}.`);
	} catch (e) {
		if (ac.signal.aborted || (e instanceof Error && e.name === 'AbortError')) {
			log.info('indexing cancelled');
			void vscode.window.showInformationMessage('Gated Memory: indexing cancelled. Files indexed so far stay searchable.');
			return;
		}
		log.error(`indexing failed: ${errorMessage(e)}`);
		void vscode.window.showErrorMessage(`Gated Memory: indexing failed: ${errorMessage(e)}`, 'Open Log').then((choice) => {
			if (choice) log.show(true);
		});
	}
}
