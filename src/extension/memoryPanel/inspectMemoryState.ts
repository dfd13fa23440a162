/**
 * "Gated Memory: Inspect Memory State": wires the memory panel (memoryPanel.ts) to the window —
 * the store, this session's decisions, the thresholds, index health — and registers the export /
 * import commands. `gatedMemory.exportMemory` / `gatedMemory.importMemory` take an optional file
 * path (scripts and the e2e pass one; without it they show the save / open dialog).
 */
import * as vscode from 'vscode';
import type { Thresholds } from '../../core/thresholds';
import type { Embedder } from '../../models/embedder';
import type { ReviewDeps } from './staleReviewActions';
import type { IndexHealthView, ThresholdView } from '../../core/memoryPanelProtocol';
import { workspaceId } from '../../store/location';
import type { Store } from '../../store/openStore';
import type { RecentDecision } from '../../chat/conversationSession';
import type { Logger } from '../../chat/logger';
import { MemoryPanel } from './memoryPanel';
import { storageFolder } from '../settings/settings';

/** Commands this module registers (contributed in package.json). */
export const MEMORY_COMMANDS = {
	exportMemory: 'gatedMemory.exportMemory',
	importMemory: 'gatedMemory.importMemory',
} as const;

/** What the panel reads from the rest of the extension. */
export interface MemoryPanelWiring {
	log: Logger;
	openStore: () => Promise<Store>;
	sessionDecisions: () => readonly RecentDecision[];
	thresholds: () => ThresholdView[];
	/** The indexer's health (IndexStatus.snapshot), when the host has one. */
	indexHealth?: () => IndexHealthView | null;
	/** Fires when index health changes, to refresh an open panel. */
	onIndexChange?: vscode.Event<unknown>;
	/** Fires when memory changed outside the panel (a memory went stale during chat, a chat forget): refresh it. */
	onMemoryChange?: vscode.Event<unknown>;
	/** The write path's embedder and thresholds (Update… of a stale memory). */
	embedder?: () => Promise<Embedder | null>;
	writeThresholds?: () => Thresholds;
	/** `gatedMemory.memory.decayDays` (0 = off): the panel lists the memories it demotes. */
	decayDays?: () => number;
}

function fileFolders(): vscode.WorkspaceFolder[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** Builds the panel and registers its export / import commands; the caller binds the inspect command to `show`. */
export function registerMemoryPanel(context: vscode.ExtensionContext, w: MemoryPanelWiring): MemoryPanel {
	const workspaceIds = () => fileFolders().map((f) => workspaceId(f.uri.fsPath));
	const restricted = () => !vscode.workspace.isTrusted;
	const panel = new MemoryPanel({
		extensionUri: context.extensionUri,
		log: w.log,
		sources: {
			openStore: w.openStore,
			workspaceIds,
			sessionDecisions: w.sessionDecisions,
			thresholds: w.thresholds,
			restricted,
			storeSource: () => storageFolder().source,
			indexHealth: w.indexHealth,
			decayDays: w.decayDays,
		},
		actions: {
			openStore: w.openStore,
			workspaceIds,
			firstFolder: () => fileFolders()[0]?.uri,
			restricted,
			embedder: w.embedder,
			writeThresholds: w.writeThresholds,
		} as ReviewDeps,
	});
	const pathArg = (arg: unknown) => (typeof arg === 'string' && arg.trim() ? arg : undefined);
	context.subscriptions.push(
		panel,
		vscode.commands.registerCommand(MEMORY_COMMANDS.exportMemory, (file?: unknown) => panel.runExport(pathArg(file))),
		vscode.commands.registerCommand(MEMORY_COMMANDS.importMemory, (file?: unknown) => panel.runImport(pathArg(file))),
		// Trust granted mid-session lifts the read-only view.
		vscode.workspace.onDidGrantWorkspaceTrust(() => panel.refresh()),
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration('gatedMemory')) panel.refresh();
		}),
	);
	if (w.onMemoryChange) context.subscriptions.push(w.onMemoryChange(() => panel.refresh()));
	if (w.onIndexChange) {
		// Progress fires often while indexing: one store read per burst is enough.
		let timer: ReturnType<typeof setTimeout> | undefined;
		context.subscriptions.push(
			w.onIndexChange(() => {
				timer ??= setTimeout(() => {
					timer = undefined;
					panel.refresh();
				}, 1500);
			}),
			{ dispose: () => clearTimeout(timer) },
		);
	}
	return panel;
}
