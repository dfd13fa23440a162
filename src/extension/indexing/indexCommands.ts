/**
 * The workspace-index commands beyond Index Workspace — Reindex Workspace, Clear Workspace Index,
 * Forget This File — plus the status-bar item, the file watcher and the exclude settings, wired
 * in one place. Every handler is guarded: a failure is logged and shown, never thrown.
 */
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { Thresholds } from '../../core/thresholds';
import { deleteDocuments } from '../../store/chunkRepo';
import { forget } from '../../store/forget';
import { workspaceId } from '../../store/location';
import { excludesFromSettings } from './indexExcludes';
import type { IndexStatus } from './indexStatus';
import { registerIndexStatusBar } from './indexStatusBar';
import { registerIndexWatcher } from './indexWatcher';
import { currentTotals, fileFolders, indexWorkspace, runExclusive, type IndexBackend } from './indexWorkspaceCommand';
import { errorMessage } from '../../chat/logger';

/** Command ids contributed in package.json. */
export const INDEX_COMMANDS = {
	reindexWorkspace: 'gatedMemory.reindexWorkspace',
	clearWorkspaceIndex: 'gatedMemory.clearWorkspaceIndex',
	forgetFile: 'gatedMemory.forgetFile',
} as const;

/** The settings that decide what is indexed (a change offers a reindex). */
const INDEX_SETTINGS = [
	'files.exclude',
	'search.exclude',
	'gatedMemory.index.exclude',
	'gatedMemory.index.maxFileSizeKB',
];

/** The index backend, plus a restart so a new worker picks up changed settings. */
export interface IndexCommandBackend extends IndexBackend {
	restartIndexer?(): Promise<void>;
	/** Told after a command wrote the index directly (clear, forget), so cached counts are redone. */
	indexChanged?(): void;
}

/** What the index commands act on. */
export interface IndexCommandDeps {
	log: vscode.LogOutputChannel;
	memory: IndexCommandBackend;
	status: IndexStatus;
	thresholds: () => Thresholds;
	inspectCommand: string;
	/** An instruction file (AGENTS.md, .cursor/rules/*.mdc …) changed or went: `root` its folder, `rel` its path. */
	onInstructionFile?: (root: string, rel: string) => void;
}

/** The walk's excludes from the current settings; unusable entries are logged once per read. */
export function indexExcludesFromConfig(log?: vscode.LogOutputChannel): string[] {
	const config = vscode.workspace.getConfiguration();
	const r = excludesFromSettings({
		filesExclude: config.get('files.exclude'),
		searchExclude: config.get('search.exclude'),
		indexExclude: config.get('gatedMemory.index.exclude'),
	});
	for (const why of r.ignored) log?.debug(`index excludes: left out ${why}`);
	return r.globs;
}

/** `gatedMemory.index.maxFileSizeKB` as the `index_max_file_bytes` threshold override (none when unset or invalid). */
export function maxFileBytesFromConfig(): Record<string, number> {
	const kb = vscode.workspace.getConfiguration('gatedMemory').get<number>('index.maxFileSizeKB');
	return typeof kb === 'number' && Number.isFinite(kb) && kb > 0 ? { index_max_file_bytes: Math.round(kb * 1024) } : {};
}

function guarded(
	log: vscode.LogOutputChannel,
	name: string,
	run: (...args: unknown[]) => unknown,
): (...args: unknown[]) => Promise<void> {
	return async (...args) => {
		try {
			await run(...args);
		} catch (e) {
			log.error(`${name} failed: ${errorMessage(e)}`);
			void vscode.window.showErrorMessage(`Gated Memory: ${name} failed: ${errorMessage(e)}`);
		}
	};
}

function restricted(): boolean {
	if (vscode.workspace.isTrusted) return false;
	void vscode.window.showInformationMessage(
		'Gated Memory: the workspace index is off in Restricted Mode: trust this workspace to index it.',
	);
	return true;
}

/** Registers the commands, the status bar, the watcher and the settings listener. */
export function registerIndexing(context: vscode.ExtensionContext, deps: IndexCommandDeps): void {
	const { log, memory, status } = deps;
	registerIndexStatusBar(context, status, deps.inspectCommand);
	const watcher = registerIndexWatcher(context, {
		log,
		memory,
		status,
		thresholds: deps.thresholds,
		excludes: () => indexExcludesFromConfig(log),
		onInstructionFile: deps.onInstructionFile,
	});
	context.subscriptions.push(watcher);
	const register = (id: string, name: string, run: (...args: unknown[]) => unknown) =>
		context.subscriptions.push(vscode.commands.registerCommand(id, guarded(log, name, run)));

	register(INDEX_COMMANDS.reindexWorkspace, 'Reindex Workspace', async () => {
		if (restricted()) return;
		await runExclusive(async () => memory.restartIndexer?.()); // a fresh worker reads the current excludes and size cap (never under a running batch)
		await indexWorkspace(memory, log, status, 'reindex');
	});

	register(INDEX_COMMANDS.clearWorkspaceIndex, 'Clear Workspace Index', async () => {
		const folders = fileFolders();
		if (!folders.length) return void vscode.window.showInformationMessage('Gated Memory: no workspace folder is open.');
		const ok = await vscode.window.showWarningMessage(
			`Clear the workspace index of ${folders.length === 1 ? 'this folder' : `these ${folders.length} folders`}?`,
			{
				modal: true,
				detail:
					'Every indexed file and chunk of this window\u2019s folders is removed from the store. Research memory and your profile are kept. Index Workspace builds the index again.',
			},
			'Clear Index',
		);
		if (ok !== 'Clear Index') return;
		watcher.drop();
		const removed = await runExclusive(async () => {
			const store = await memory.openStore();
			let chunks = 0;
			// The workspace tier only: forget()'s 'workspace' target would also take research memory,
			// profile and conversation rows of the folder, which this command promises to keep.
			for (const f of folders)
				chunks += await deleteDocuments(store.db, { workspaceId: workspaceId(f), tier: 'workspace' });
			await store.db.query('VACUUM'); // as forget() does: reclaim the space and dead index entries
			memory.indexChanged?.();
			return chunks;
		});
		status.cleared();
		log.info(`workspace index cleared: ${removed} chunks removed from ${folders.length} folder(s)`);
		void vscode.window.showInformationMessage(`Gated Memory: workspace index cleared (${removed} chunks removed).`);
	});

	register(INDEX_COMMANDS.forgetFile, 'Forget This File', async (arg?: unknown) => {
		if (restricted()) return;
		const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
		if (!uri || uri.scheme !== 'file')
			return void vscode.window.showInformationMessage(
				'Gated Memory: open or select a file of the workspace to forget it.',
			);
		const folder = vscode.workspace.getWorkspaceFolder(uri);
		if (!folder)
			return void vscode.window.showInformationMessage(
				'Gated Memory: this file is not in a workspace folder, so it is not indexed.',
			);
		const rel = relative(folder.uri.fsPath, uri.fsPath).split(sep).join('/');
		const counts = await runExclusive(async () => {
			const removed = await forget((await memory.openStore()).db, {
				kind: 'path',
				workspaceId: workspaceId(folder.uri.fsPath),
				path: rel,
			});
			memory.indexChanged?.();
			return removed;
		});
		log.info(`forgot ${rel}: ${counts.chunks} chunks`);
		if (status.indexedOnce) status.finished(await currentTotals(memory, fileFolders()));
		const choice = await vscode.window.showInformationMessage(
			`Gated Memory: forgot ${rel} (${counts.chunks} chunks). It is indexed again when it changes or on Reindex Workspace.`,
			'Always Exclude',
		);
		if (choice === 'Always Exclude') {
			const config = vscode.workspace.getConfiguration('gatedMemory', folder.uri);
			const current = config.get<string[]>('index.exclude') ?? [];
			if (!current.includes(rel))
				await config.update('index.exclude', [...current, rel], vscode.ConfigurationTarget.WorkspaceFolder);
		}
	});

	context.subscriptions.push(
		vscode.workspace.onDidChangeConfiguration((e) => {
			const relevant = INDEX_SETTINGS.some((s) => e.affectsConfiguration(s));
			if (e.affectsConfiguration('files.watcherExclude') || relevant) watcher.refresh();
			if (!relevant) return;
			void runExclusive(async () => memory.restartIndexer?.());
			if (!status.indexedOnce || !vscode.workspace.isTrusted) return;
			void vscode.window
				.showInformationMessage(
					'Gated Memory: the index exclude settings changed. Reindex the workspace to apply them?',
					'Reindex',
				)
				.then((choice) => {
					if (choice) void vscode.commands.executeCommand(INDEX_COMMANDS.reindexWorkspace);
				});
		}),
	);
}
