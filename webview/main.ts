/**
 * The chat panel's script: restores the transcript from the view state, renders what the host
 * sends (every message checked by the protocol guard), and sends the user's messages.
 * Only the @vscode-elements components used here are imported, to keep the bundle small.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { TranscriptEntry } from '../src/core/protocol';
import { Composer } from './composer';
import { createWebviewMessenger } from './messenger';
import { loadState, saveState } from './state';
import { Transcript } from './transcript';
import { vscodeApi } from './vscodeApi';

function required<K extends keyof HTMLElementTagNameMap>(selector: string, tag: K): HTMLElementTagNameMap[K] {
	const node = document.querySelector(selector);
	if (!node || node.tagName.toLowerCase() !== tag) throw new Error(`Gated Memory panel: missing ${selector}`);
	return node as HTMLElementTagNameMap[K];
}

let turnCounter = 0;
/** A turn id unique within this page's life, for pairing replies with messages. */
function newTurnId(): string {
	turnCounter++;
	return `t${Date.now().toString(36)}-${turnCounter}`;
}

function main(): void {
	const api = vscodeApi();
	const state = loadState(api);
	const transcript = new Transcript(required('#transcript', 'section'), required('#empty', 'section'));
	const restricted = required('#restricted', 'p');
	const messenger = createWebviewMessenger(api);
	const save = () => saveState(api, state);
	const add = (entry: TranscriptEntry) => {
		state.entries.push(entry);
		transcript.append(entry, state.tracesOpen);
		save();
	};

	const composer = new Composer(required('#composer', 'form'), required('#input', 'vscode-textarea'), required('#send', 'vscode-button'), {
		send: (text) => {
			const turnId = newTurnId();
			state.lastSent = text;
			add({ kind: 'user', turnId, text, at: Date.now() });
			messenger.send('chat/send', { turnId, text });
		},
		lastSent: () => state.lastSent,
		draftChanged: (text) => {
			state.draft = text;
			save();
		},
	});

	messenger.on('chat/reply', (p) => add({ kind: 'assistant', turnId: p.turnId, markdown: p.markdown, trace: p.trace, at: Date.now() }));
	messenger.on('chat/error', (p) => add({ kind: 'error', turnId: p.turnId, message: p.message, at: Date.now() }));
	messenger.on('chat/clear', () => {
		state.entries = [];
		transcript.render(state.entries, state.tracesOpen);
		save();
		composer.focus();
	});
	messenger.on('chat/focus', () => composer.focus());
	messenger.on('state/restore', (p) => {
		// The host's session is the source of truth (New Conversation may have run while hidden).
		state.entries = p.entries;
		restricted.hidden = !p.restricted;
		transcript.render(state.entries, state.tracesOpen);
		save();
	});
	messenger.on('trace/toggle', (p) => {
		state.tracesOpen = p.open;
		transcript.setTracesOpen(p.open);
		save();
	});

	transcript.render(state.entries, state.tracesOpen);
	composer.setText(state.draft);
	messenger.send('webview/ready', {});
}

main();
