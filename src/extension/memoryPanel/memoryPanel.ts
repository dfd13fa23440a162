/**
 * The "Gated Memory: Memory State" editor panel (a WebviewPanel, one per window): shows the
 * state gathered by memoryPanelState.ts, runs the actions of memoryPanelActions.ts and refreshes
 * after each. Opening never waits for the store: the page shows a loading state at once and the
 * state follows when the store has answered.
 */
import * as vscode from 'vscode';
import {
	isMemoryPanelToHostMessage,
	Messenger,
	type HostToMemoryPanel,
	type MemoryPanelToHost,
	type MessageTransport,
} from '../../core/memoryPanelProtocol';
import { makeNonce } from '../chat/chatViewProvider';
import { errorMessage, type Logger } from '../../chat/logger';
import {
	clearTierConfirmed,
	exportToFile,
	forgetItem,
	importFromFile,
	type ActionOutcome,
	type MemoryActionDeps,
} from './memoryPanelActions';
import { renderMemoryPanelHtml } from './memoryPanelHtml';
import { openSourceTurn, reviewStale, type ReviewDeps } from './staleReviewActions';
import { gatherMemoryPanelState, type MemoryPanelSources } from './memoryPanelState';

/** The panel's view type (also its identity in the e2e). */
export const MEMORY_PANEL_VIEW_TYPE = 'gatedMemory.memoryState';
/** The panel's title. */
export const MEMORY_PANEL_TITLE = 'Gated Memory: Memory State';

type HostMessenger = Messenger<MemoryPanelToHost, HostToMemoryPanel>;

/** What the panel needs. */
export interface MemoryPanelDeps {
	extensionUri: vscode.Uri;
	log: Logger;
	sources: MemoryPanelSources;
	actions: MemoryActionDeps;
}

function panelTransport(webview: vscode.Webview, log: Logger): MessageTransport {
	return {
		post: (message) => {
			webview.postMessage(message).then(
				() => undefined,
				(e: unknown) => log.warn(`memory panel postMessage failed: ${errorMessage(e)}`),
			);
		},
		listen: (listener) => {
			const sub = webview.onDidReceiveMessage((data: unknown) => listener(data));
			return () => sub.dispose();
		},
	};
}

/** Creates, reveals and refreshes the one memory panel. */
export class MemoryPanel implements vscode.Disposable {
	private panel: vscode.WebviewPanel | null = null;
	private messenger: HostMessenger | null = null;
	/** Bumped per refresh so a slow earlier read never overwrites a newer one. */
	private generation = 0;

	constructor(private readonly deps: MemoryPanelDeps) {}

	/** Opens the panel (or reveals it and refreshes). */
	show(): void {
		if (this.panel) {
			this.panel.reveal(vscode.ViewColumn.Active);
			this.refresh();
			return;
		}
		const dist = vscode.Uri.joinPath(this.deps.extensionUri, 'dist');
		const panel = vscode.window.createWebviewPanel(
			MEMORY_PANEL_VIEW_TYPE,
			MEMORY_PANEL_TITLE,
			vscode.ViewColumn.Active,
			{
				enableScripts: true,
				localResourceRoots: [dist],
				retainContextWhenHidden: false,
			},
		);
		panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'icon.svg');
		this.panel = panel;
		const messenger: HostMessenger = new Messenger(
			panelTransport(panel.webview, this.deps.log),
			isMemoryPanelToHostMessage,
			(data) => this.deps.log.warn(`memory panel: ignored a malformed message ${JSON.stringify(data)?.slice(0, 200)}`),
		);
		this.messenger = messenger;
		this.route(messenger);
		panel.webview.html = renderMemoryPanelHtml({
			cspSource: panel.webview.cspSource,
			nonce: makeNonce(),
			scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'memoryPanel.js')).toString(),
			styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'memoryPanel.css')).toString(),
		});
		panel.onDidDispose(() => {
			messenger.dispose();
			if (this.panel === panel) {
				this.panel = null;
				this.messenger = null;
			}
		});
		this.deps.log.info('memory state panel opened');
	}

	/** Reads the state again and sends it (no-op when the panel is closed). */
	refresh(): void {
		const messenger = this.messenger;
		if (!messenger) return;
		const generation = ++this.generation;
		messenger.send('memory/loading', { message: 'Reading the memory store…' });
		gatherMemoryPanelState(this.deps.sources).then(
			(state) => {
				if (generation === this.generation && this.messenger === messenger) messenger.send('memory/state', state);
			},
			(e: unknown) =>
				messenger.send('memory/notice', {
					level: 'error',
					message: `Could not read the memory state: ${errorMessage(e)}`,
				}),
		);
	}

	/** Export / import from a command (with an optional path: no dialog). */
	runExport(file?: string): Promise<void> {
		return this.act('export', () => exportToFile(this.deps.actions, file));
	}

	runImport(file?: string): Promise<void> {
		return this.act('import', () => importFromFile(this.deps.actions, file));
	}

	private route(messenger: HostMessenger): void {
		messenger.on('memory/ready', () => this.refresh());
		messenger.on('memory/refresh', () => this.refresh());
		messenger.on('memory/forget', (target) => void this.act('forget', () => forgetItem(this.deps.actions, target)));
		messenger.on(
			'memory/clearTier',
			({ tier }) => void this.act('clear tier', () => clearTierConfirmed(this.deps.actions, tier)),
		);
		messenger.on('memory/export', () => void this.runExport());
		messenger.on('memory/import', () => void this.runImport());
		messenger.on('memory/openTurn', (p) => void this.act('open turn', () => openSourceTurn(this.deps.actions, p)));
		messenger.on(
			'memory/reviewStale',
			(p) => void this.act(`review (${p.action})`, () => reviewStale(this.deps.actions as ReviewDeps, p)),
		);
	}

	/** Runs an action, reports its outcome in the panel (and log), then refreshes. */
	private async act(name: string, run: () => Promise<ActionOutcome>): Promise<void> {
		let outcome: ActionOutcome;
		try {
			outcome = await run();
		} catch (e) {
			outcome = { level: 'error', message: `${name} failed: ${errorMessage(e)}` };
		}
		if (!outcome) return;
		if (outcome.level === 'error') this.deps.log.warn(`memory panel: ${outcome.message}`);
		else this.deps.log.info(`memory panel: ${outcome.message}`);
		if (this.messenger) {
			this.messenger.send('memory/notice', outcome);
			this.refresh();
		} else if (outcome.level === 'error') {
			void vscode.window.showErrorMessage(`Gated Memory: ${outcome.message}`);
		} else {
			void vscode.window.showInformationMessage(`Gated Memory: ${outcome.message}`);
		}
	}

	dispose(): void {
		this.panel?.dispose();
	}
}
