/**
 * The side-panel chat view (`gatedMemory.chat`): a webview with a strict CSP whose only script is
 * dist/webview.js (nonce), whose only stylesheet is media/main.css, and which talks to the host
 * through the typed, guarded protocol of src/core/protocol.ts.
 */
import * as vscode from 'vscode';
import {
	isWebviewToHostMessage,
	Messenger,
	type HostToWebview,
	type MessageTransport,
	type WebviewToHost,
} from '../../core/protocol';
import type { ChatController } from '../../chat/chatController';
import { EditorActions } from './editorActions';
import type { Logger } from '../../chat/logger';
import { webviewPage, type WebviewAssets } from './webviewPage';

/** The view id contributed in package.json. */
export const CHAT_VIEW_ID = 'gatedMemory.chat';

/** A fresh random nonce for the one script tag. */
export function makeNonce(): string {
	const bytes = new Uint8Array(18);
	crypto.getRandomValues(bytes);
	return Buffer.from(bytes)
		.toString('base64')
		.replace(/[^A-Za-z0-9]/g, '');
}

/** The page: CSP first, then the stylesheet, the static skeleton, and the bundle. */
export function renderChatHtml(opts: WebviewAssets): string {
	return webviewPage(
		opts,
		'Gated Memory',
		`<main id="app">
	<header id="header" class="header">
		<span id="generator" class="generator" title="The generator that writes the replies"></span>
		<select id="history" class="history" aria-label="Conversation history" disabled><option value="">Current conversation</option></select>
		<vscode-button id="new-conversation" secondary aria-label="New conversation" title="New conversation">New</vscode-button>
	</header>
	<p id="restricted" class="banner" role="status" hidden>Restricted Mode: chat over the conversation only — no indexing, no model download.</p>
	<section id="transcript" role="log" aria-live="polite" aria-relevant="additions" aria-label="Conversation"></section>
	<section id="empty" class="empty">
		<h2>Ask about your code</h2>
		<p>Under every reply, a decision trace shows whether Gated Memory would look anything up, where, and how much — and which rule decided.</p>
	</section>
	<form id="composer" class="composer" aria-label="Send a message">
		<vscode-textarea id="input" rows="3" resize="none" aria-label="Message to Gated Memory" placeholder="Ask Gated Memory… (Enter to send, Shift+Enter for a new line)"></vscode-textarea>
		<div class="composer-actions">
			<span class="hint">↑ recalls your last message</span>
			<vscode-button id="send" aria-label="Send message">Send</vscode-button>
		</div>
	</form>
</main>`,
	);
}

export type HostMessenger = Messenger<WebviewToHost, HostToWebview>;

/** More routes for the panel's messages (memory proposals, …); `ready` runs after the state is sent. */
export type PanelRoutes = (messenger: HostMessenger) => { ready?: () => void };

function webviewTransport(webview: vscode.Webview, log: Logger): MessageTransport {
	return {
		post: (message) => {
			webview.postMessage(message).then(
				(delivered) => {
					if (!delivered) log.debug('webview message not delivered (panel hidden)');
				},
				(e: unknown) => log.warn(`webview postMessage failed: ${String(e)}`),
			);
		},
		listen: (listener) => {
			const sub = webview.onDidReceiveMessage((data: unknown) => listener(data));
			return () => sub.dispose();
		},
	};
}

/** Resolves the chat view and routes its messages to the ChatController. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
	private view: vscode.WebviewView | undefined;
	private messenger: HostMessenger | undefined;
	private readonly editor: EditorActions;
	private readonly extraRoutes: PanelRoutes[] = [];

	constructor(
		private readonly extensionUri: vscode.Uri,
		private readonly controller: ChatController,
		private readonly log: Logger,
	) {
		this.editor = new EditorActions(log);
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this.view = view;
		const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
		const media = vscode.Uri.joinPath(this.extensionUri, 'media');
		view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
		view.webview.html = renderChatHtml({
			cspSource: view.webview.cspSource,
			nonce: makeNonce(),
			scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
			styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'main.css')).toString(),
		});
		const messenger: HostMessenger = new Messenger(
			webviewTransport(view.webview, this.log),
			isWebviewToHostMessage,
			(data) => this.log.warn(`ignored a malformed message from the webview: ${JSON.stringify(data)?.slice(0, 200)}`),
		);
		messenger.on('chat/send', (p) => void this.controller.send(p.turnId, p.text));
		this.routeActions(messenger);
		const readies = this.extraRoutes.map((routes) => routes(messenger).ready);
		messenger.on('webview/ready', () => {
			this.controller.sendState();
			for (const ready of readies) ready?.();
		});
		this.messenger = messenger;
		this.controller.attach((type, params) => messenger.send(type, params));
		view.onDidDispose(() => {
			messenger.dispose();
			if (this.messenger === messenger) {
				this.messenger = undefined;
				this.view = undefined;
				this.controller.attach(undefined);
			}
		});
		// The panel is open, so a message is likely soon: warm the decision core off the critical path.
		setTimeout(() => this.controller.warmUp(), 0);
		this.log.debug('chat view resolved');
	}

	/** Routes the panel's turn controls to the controller and its editor actions to EditorActions. */
	private routeActions(messenger: HostMessenger): void {
		const turns = this.controller;
		messenger.on('chat/stop', (p) => turns.stop(p.turnId));
		messenger.on('chat/retry', (p) => void turns.retry(p.turnId, p.newTurnId, p.retrieval));
		messenger.on('history/open', (p) => void turns.openConversation(p.id));
		messenger.on('history/new', () => void turns.newConversation());
		messenger.on('code/copy', (p) => void this.editor.copy(p.code));
		messenger.on('code/insert', (p) => void this.editor.insert(p.code));
		messenger.on('code/newFile', (p) => void this.editor.newFile(p.code, p.language));
		messenger.on('citation/open', (p) => void this.editor.openCitation(p.uri, p.startLine, p.endLine));
		// A click on a proposed action: ids only; the controller holds the action itself.
		messenger.on('action/run', (p) => void this.controller.runAction(p.turnId, p.actionId));
	}

	/** Adds routes for messages this class does not handle itself (call before the view resolves). */
	addRoutes(routes: PanelRoutes): void {
		this.extraRoutes.push(routes);
	}

	/** Sends a message to the panel when it is open. */
	post<K extends keyof HostToWebview & string>(type: K, params: HostToWebview[K]): void {
		this.messenger?.send(type, params);
	}

	/** Reveals the panel (resolving it if needed) and puts the cursor in the input. */
	async focus(): Promise<void> {
		await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
		this.post('chat/focus', {});
	}

	/** True while the panel's webview exists. */
	get isResolved(): boolean {
		return this.view !== undefined;
	}
}
