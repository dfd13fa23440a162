/**
 * The chat panel's script: restores the transcript from the view state, renders what the host
 * sends (every message checked by the protocol guard) — streamed replies included — and sends
 * the user's messages and actions. Only the @vscode-elements components used here are imported,
 * to keep the bundle small.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { DecisionTrace, TranscriptEntry } from '../src/core/protocol';
import { closeOpenMenus, wireActions } from './actions';
import { Composer } from './composer';
import { ProposalChips } from './proposalChips';
import { Header } from './header';
import { createWebviewMessenger } from './messenger';
import { loadState, mergeRestored, saveState, type PanelEntry, type StreamingEntry } from './state';
import { applyActionStatus } from './proposedActions';
import { Throttle, Transcript } from './transcript';
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
	const container = required('#transcript', 'section');
	const transcript = new Transcript(container, required('#empty', 'section'));
	const restricted = required('#restricted', 'p');
	const messenger = createWebviewMessenger(api);
	const save = () => saveState(api, state);
	// Streamed deltas change the state many times a second; the slot is written at most every 250 ms.
	const saveSoon = new Throttle(save, 250);
	let generatorLabel = '';

	const indexOfReply = (turnId: string | null) =>
		state.entries.findIndex((e) => e.kind !== 'user' && e.turnId === turnId);
	const add = (entry: PanelEntry) => {
		state.entries.push(entry);
		transcript.append(entry, state.tracesOpen);
		save();
	};
	/** Puts `entry` where the reply of its turn is (streaming → final), or at the end. */
	const settle = (entry: PanelEntry) => {
		const i = entry.turnId === null ? -1 : indexOfReply(entry.turnId);
		if (i < 0) return add(entry);
		state.entries[i] = entry;
		transcript.replaceReply(entry, state.tracesOpen);
		save();
	};
	/** The streaming entry of `turnId`, created when its `chat/start` was missed (panel hidden). */
	const stream = (turnId: string): StreamingEntry => {
		const i = indexOfReply(turnId);
		const found = i >= 0 ? state.entries[i] : undefined;
		if (found?.kind === 'streaming' && !found.interrupted) return found;
		const entry: StreamingEntry = {
			kind: 'streaming',
			turnId,
			markdown: found?.kind === 'streaming' ? found.markdown : '',
			generator: generatorLabel,
			progress: '',
			at: Date.now(),
			...(found?.kind === 'streaming' && found.retryOf ? { retryOf: found.retryOf } : {}),
		};
		settle(entry);
		return entry;
	};
	const activeStreams = () =>
		state.entries.filter((e): e is StreamingEntry => e.kind === 'streaming' && !e.interrupted);

	const composer = new Composer(
		required('#composer', 'form'),
		required('#input', 'vscode-textarea'),
		required('#send', 'vscode-button'),
		{
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
		},
	);

	const header = new Header(
		required('#generator', 'span'),
		required('#history', 'select'),
		required('#new-conversation', 'vscode-button'),
		{
			open: (id) => messenger.send('history/open', { id }),
			newConversation: () => messenger.send('history/new', {}),
		},
	);

	wireActions(container, {
		messenger,
		newTurnId,
		traceJson: (turnId) => {
			const entry = state.entries.find((e) => e.kind === 'assistant' && e.turnId === turnId);
			const trace: DecisionTrace | null = entry?.kind === 'assistant' ? entry.trace : null;
			return trace ? JSON.stringify(trace, null, 2) : null;
		},
	});
	// Escape closes an open menu, else stops the reply being streamed (if any).
	document.addEventListener('keydown', (e) => {
		if (e.key !== 'Escape' || e.isComposing) return;
		if (closeOpenMenus(container)) return;
		const streaming = activeStreams();
		for (const s of streaming) messenger.send('chat/stop', { turnId: s.turnId });
		if (streaming.length) e.preventDefault();
	});

	messenger.on('chat/start', (p) => {
		generatorLabel = p.generator || generatorLabel;
		settle({
			kind: 'streaming',
			turnId: p.turnId,
			markdown: '',
			generator: p.generator,
			progress: '',
			at: Date.now(),
			...(p.retryOf ? { retryOf: p.retryOf } : {}),
		});
	});
	messenger.on('chat/progress', (p) => {
		const entry = stream(p.turnId);
		entry.progress = p.message;
		transcript.streamChanged(entry);
		saveSoon.request();
	});
	messenger.on('chat/delta', (p) => {
		const entry = stream(p.turnId);
		entry.markdown += p.text;
		entry.progress = '';
		transcript.streamChanged(entry);
		saveSoon.request();
	});
	messenger.on('chat/reply', (p) => {
		const entry: TranscriptEntry = {
			kind: 'assistant',
			turnId: p.turnId,
			markdown: p.markdown,
			trace: p.trace,
			at: Date.now(),
			...(p.citations ? { citations: p.citations } : {}),
			...(p.status ? { status: p.status } : {}),
			...(p.generator ? { generator: p.generator } : {}),
			...(p.retryOf ? { retryOf: p.retryOf } : {}),
			...(p.retrieval ? { retrieval: p.retrieval } : {}),
			...(p.actions?.length ? { actions: p.actions } : {}),
		};
		settle(entry);
	});
	messenger.on('action/status', (p) => applyActionStatus(document, p));
	// What persisting wrote arrives after the reply: it joins that reply's trace.
	messenger.on('chat/persisted', (p) => {
		const i = indexOfReply(p.turnId);
		const entry = i >= 0 ? state.entries[i] : undefined;
		if (entry?.kind !== 'assistant' || !entry.trace) return;
		settle({ ...entry, trace: { ...entry.trace, steps: [...entry.trace.steps, ...p.steps] } });
	});
	messenger.on('chat/error', (p) =>
		settle({
			kind: 'error',
			turnId: p.turnId,
			message: p.message,
			at: Date.now(),
			...(p.retryable ? { retryable: true } : {}),
		}),
	);
	messenger.on('chat/clear', () => {
		state.entries = [];
		transcript.render(state.entries, state.tracesOpen);
		save();
		composer.focus();
	});
	messenger.on('chat/focus', () => composer.focus());
	messenger.on('generator/info', (p) => {
		generatorLabel = p.label;
		header.setGenerator(p);
	});
	messenger.on('history/list', (p) => header.setHistory(p));
	const chips = new ProposalChips(container, (type, params) => messenger.send(type, params));
	messenger.on('memory/proposals', (p) => chips.set(p.proposals));
	messenger.on('state/restore', (p) => {
		// The host's session is the source of truth (New Conversation may have run while hidden);
		// a reply still streaming that it does not hold yet is kept.
		state.entries = mergeRestored(p.entries, state.entries);
		restricted.hidden = !p.restricted;
		if (p.generator) {
			generatorLabel = p.generator.label;
			header.setGenerator(p.generator);
		}
		if (p.history) header.setHistory(p.history);
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
