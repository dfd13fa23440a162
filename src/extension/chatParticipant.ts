/**
 * The `@memory` chat participant: in VS Code's own Chat view, answers with the same decision
 * summary as the panel, using that chat's history. Registered only when the chat API exists
 * (it may be missing or disabled in some hosts).
 */
import * as vscode from 'vscode';
import type { HistoryTurn } from '../core/types';
import type { Logger } from './logger';
import { runTurn } from './turnRunner';
import type { ThresholdSettings } from './settings';

/** The participant id contributed in package.json (`chatParticipants`). */
export const PARTICIPANT_ID = 'gatedMemory.memory';

function historyOf(context: vscode.ChatContext): HistoryTurn[] {
	const turns: HistoryTurn[] = [];
	for (const turn of context.history) {
		if (turn instanceof vscode.ChatRequestTurn) {
			turns.push({ role: 'user', content: turn.prompt });
		} else if (turn instanceof vscode.ChatResponseTurn) {
			const text = turn.response
				.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
				.join('');
			if (text) turns.push({ role: 'assistant', content: text });
		}
	}
	return turns;
}

/** Registers `@memory` if `vscode.chat.createChatParticipant` is available. */
export function registerChatParticipant(
	context: vscode.ExtensionContext,
	deps: { log: Logger; settings: ThresholdSettings },
): void {
	// Older or stripped-down hosts lack the chat API; the panel works without it.
	const chatApi: Partial<typeof vscode.chat> | undefined = vscode.chat;
	if (typeof chatApi?.createChatParticipant !== 'function') {
		deps.log.info('chat participant API not available: @memory not registered');
		return;
	}
	const handler: vscode.ChatRequestHandler = (request, chatContext, stream) => {
		const outcome = runTurn(
			{
				turnId: `memory-${Date.now().toString(36)}`,
				utterance: request.prompt,
				history: historyOf(chatContext),
				context: { now: Date.now(), restricted: !vscode.workspace.isTrusted },
				thresholds: deps.settings.current(),
			},
			deps.log,
		);
		if (!outcome.ok) {
			stream.markdown(outcome.message);
			return { errorDetails: { message: outcome.message } };
		}
		stream.markdown(outcome.markdown);
		stream.markdown(`\n\nDecided in ${Math.round(outcome.result.trace.total_us)} µs. Open the Gated Memory panel to see the full decision trace.`);
		return { metadata: { route: outcome.result.route } };
	};
	const participant = chatApi.createChatParticipant(PARTICIPANT_ID, handler);
	participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.svg');
	context.subscriptions.push(participant);
	deps.log.debug('@memory chat participant registered');
}
