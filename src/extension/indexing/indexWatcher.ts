/**
 * Keeps the workspace index current: saved documents (edits) and FileSystemWatcher events
 * (external changes: git checkout, a build, another editor) are filtered on the host (vendored
 * folders, secrets, the user's excludes, `files.watcherExclude`), collected by a PathBatcher
 * (`index_watch_debounce_ms` / `index_watch_max_wait_ms`) and sent to the worker as one
 * `reindexPaths` request (the worker walks a path that is a folder now and re-evaluates the folder
 * of a changed `.gitignore` / `.git/info/exclude`; what that removed is logged and shown in the
 * status bar). Only in a trusted workspace that was indexed once — never a surprise
 * indexing of a workspace the user did not ask to index.
 */
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { Thresholds } from '../../core/thresholds';
import { failureLine } from '../../indexing/fileFailures';
import { ignoreChangeText } from '../../indexing/ignoreChange';
import { isInstructionFile } from '../../indexing/instructionFiles';
import type { IndexStatus } from './indexStatus';
import { WatchFilter } from './indexExcludes';
import { currentTotals, fileFolders, runExclusive, type IndexBackend } from './indexWorkspaceCommand';
import { errorMessage } from '../../chat/logger';
import { PathBatcher } from './pathBatcher';

/** What the watcher needs. */
export interface IndexWatcherDeps {
	log: vscode.LogOutputChannel;
	memory: IndexBackend;
	status: IndexStatus;
	thresholds: () => Thresholds;
	/** The walk's excludes from settings (indexExcludes.ts). */
	excludes: () => string[];
	/** Told of every event on an instruction file (indexed or not: they are standing instructions too). */
	onInstructionFile?: (root: string, rel: string) => void;
}

/** The running watcher; `refresh()` re-reads the exclude settings. */
export interface IndexWatcher extends vscode.Disposable {
	refresh(): void;
	/** Drops pending paths (after Clear Workspace Index). */
	drop(): void;
}

/** Starts watching; events are ignored until the workspace is trusted and indexed once. */
export function registerIndexWatcher(context: vscode.ExtensionContext, deps: IndexWatcherDeps): IndexWatcher {
	const { log, memory, status } = deps;
	const makeFilter = () =>
		new WatchFilter(deps.excludes(), vscode.workspace.getConfiguration('files').get('watcherExclude'));
	let filter = makeFilter();
	const batcher = new PathBatcher(
		() => ({
			delayMs: deps.thresholds().index_watch_debounce_ms,
			maxWaitMs: deps.thresholds().index_watch_max_wait_ms,
		}),
		(paths) => runExclusive(() => flush(paths)),
	);
	const flush = async (paths: string[]) => {
		if (!memory.reindexPaths || !status.indexedOnce || !vscode.workspace.isTrusted) return;
		status.batchStarted();
		try {
			const r = await memory.reindexPaths(paths);
			const changed = r.files_indexed + r.files_removed;
			const walked = r.folders_walked ? `, ${r.folders_walked} new folder(s) walked` : '';
			log.info(
				`watcher: ${paths.length} path(s) → ${r.files_indexed} indexed, ${r.files_removed} removed, ${r.files_unchanged} unchanged, ${r.chunks} chunks, ${r.embedded} embedded${walked} (${r.ms} ms)`,
			);
			for (const f of r.failures ?? []) log.warn(`watcher: skipped ${failureLine(f)}`);
			const said = (r.ignore_changes ?? []).map(ignoreChangeText);
			for (const line of said) log.info(`watcher: ${line}`);
			if (said.length) vscode.window.setStatusBarMessage(`$(database) Gated Memory: ${said.join('; ')}`, 10_000);
			status.finished(
				changed
					? await currentTotals(memory, fileFolders())
					: { files: status.snapshot().files, chunks: status.snapshot().chunks },
			);
		} catch (e) {
			log.error(`watcher: re-indexing ${paths.length} path(s) failed: ${errorMessage(e)}`);
			status.failed(errorMessage(e));
		}
	};
	const onUri = (uri: vscode.Uri) => {
		if (uri.scheme !== 'file' || !vscode.workspace.isTrusted) return;
		const folder = vscode.workspace.getWorkspaceFolder(uri);
		if (!folder || folder.uri.scheme !== 'file') return;
		const rel = relative(folder.uri.fsPath, uri.fsPath).split(sep).join('/');
		if (deps.onInstructionFile && isInstructionFile(rel)) deps.onInstructionFile(folder.uri.fsPath, rel);
		if (!status.indexedOnce) return;
		// .git/info/exclude is the one path inside .git the walk reads (the filter drops .git).
		if (rel === '.git/info/exclude' || filter.wants(rel)) batcher.add(uri.fsPath);
	};
	// One recursive watcher over the workspace folders; VS Code applies files.watcherExclude to it too.
	const watcher = vscode.workspace.createFileSystemWatcher('**/*');
	context.subscriptions.push(
		watcher,
		watcher.onDidCreate(onUri),
		watcher.onDidChange(onUri),
		watcher.onDidDelete(onUri),
		vscode.workspace.onDidSaveTextDocument((doc) => onUri(doc.uri)),
		{ dispose: () => batcher.dispose() },
	);
	return {
		refresh: () => (filter = makeFilter()),
		drop: () => batcher.clear(),
		dispose: () => batcher.dispose(),
	};
}
