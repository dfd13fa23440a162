/**
 * The `gatedMemory.*` commands and the first-run welcome view. Each handler is a thin call into
 * an object built in extension.ts; failures are logged and shown, never thrown at the workbench.
 */
import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { ChatViewProvider } from './chat/chatViewProvider';
import type { IndexStatus } from './indexing/indexStatus';
import { indexWorkspace } from './indexing/indexWorkspaceCommand';
import type { MemoryPanel } from './memoryPanel/memoryPanel';
import { errorMessage, type Logger } from '../chat/logger';
import type { WorkspaceMemory } from '../chat/workspaceMemory';

/** Command ids contributed in package.json. */
export const COMMANDS = {
	focusChat: 'gatedMemory.focusChat',
	newConversation: 'gatedMemory.newConversation',
	inspectMemoryState: 'gatedMemory.inspectMemoryState',
	indexWorkspace: 'gatedMemory.indexWorkspace',
	toggleTraces: 'gatedMemory.toggleTraces',
	showLog: 'gatedMemory.showLog',
	setApiKey: 'gatedMemory.setApiKey',
	clearApiKey: 'gatedMemory.clearApiKey',
} as const;

/** The welcome view shown until the first message (viewsWelcome needs a tree view). */
export const WELCOME_VIEW_ID = 'gatedMemory.welcome';
/** Context key (and globalState key) that hides the welcome view once the user has chatted. */
export const WELCOME_DONE_KEY = 'gatedMemory.welcomeDone';

/** What the commands act on. */
export interface CommandDeps {
	log: vscode.LogOutputChannel;
	controller: ChatController;
	provider: ChatViewProvider;
	memoryState: MemoryPanel;
	memory: WorkspaceMemory;
	indexStatus?: IndexStatus;
}

function guarded(log: Logger, name: string, run: () => unknown): () => Promise<void> {
	return async () => {
		try {
			await run();
		} catch (e) {
			log.error(`${name} failed: ${errorMessage(e)}`);
			void vscode.window.showErrorMessage(`Gated Memory: ${name} failed: ${errorMessage(e)}`);
		}
	};
}

/** Registers every command. */
export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
	const { log, controller, provider, memoryState, memory } = deps;
	let tracesOpen = false;
	const register = (id: string, name: string, run: () => unknown) =>
		context.subscriptions.push(vscode.commands.registerCommand(id, guarded(log, name, run)));

	register(COMMANDS.focusChat, 'Focus Chat', () => provider.focus());
	register(COMMANDS.newConversation, 'New Conversation', async () => {
		controller.clear();
		await provider.focus();
	});
	register(COMMANDS.inspectMemoryState, 'Inspect Memory State', () => memoryState.show());
	register(COMMANDS.indexWorkspace, 'Index Workspace', () => {
		if (vscode.workspace.isTrusted) return indexWorkspace(memory, log, deps.indexStatus);
		void vscode.window.showInformationMessage(
			'Gated Memory: Indexing is off in Restricted Mode: trust this workspace to index it.',
		);
	});
	register(COMMANDS.toggleTraces, 'Toggle Decision Traces', () => {
		tracesOpen = !tracesOpen;
		provider.post('trace/toggle', { open: tracesOpen });
	});
	register(COMMANDS.showLog, 'Show Log', () => log.show(true));
}

/**
 * The first-run welcome: an empty tree view whose viewsWelcome content offers the first steps.
 * Hidden (by context key) once the user has sent a message, remembered in globalState.
 */
export function registerWelcome(context: vscode.ExtensionContext): () => void {
	const empty: vscode.TreeDataProvider<never> = { getChildren: () => [], getTreeItem: (item: never) => item };
	context.subscriptions.push(vscode.window.registerTreeDataProvider(WELCOME_VIEW_ID, empty));
	const done = context.globalState.get<boolean>(WELCOME_DONE_KEY, false);
	void vscode.commands.executeCommand('setContext', WELCOME_DONE_KEY, done);
	return () => {
		if (context.globalState.get<boolean>(WELCOME_DONE_KEY, false)) return;
		void context.globalState.update(WELCOME_DONE_KEY, true);
		void vscode.commands.executeCommand('setContext', WELCOME_DONE_KEY, true);
	};
}
