/**
 * The `@memory` chat participant: in VS Code's own Chat view, answers through the same turn
 * pipeline as the panel (decide → retrieve → generate → persist), using that chat's history. Its
 * generator is the model the user picked in the Chat view (`request.model`, the LM API path);
 * without one, evidence-only. Registered only when the chat API exists.
 */
import * as vscode from 'vscode';
import type { HistoryTurn } from '../../core/types';
import { EvidenceOnlyGenerator } from '../../generation/evidenceOnlyGenerator';
import type { ChatMessage, Generator } from '../../generation/generator';
import { LmGenerator, type LmModel, type LmPort } from '../../generation/lmGenerator';
import { errorMessage, type Logger } from '../../chat/logger';
import type { ThresholdSettings } from '../settings/settings';
import { runPipeline, type PipelinePorts } from '../../chat/turnPipeline';

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

/** The Chat view's chosen model as an LmPort (no model lookup: the user already picked it). */
function requestModelPort(model: vscode.LanguageModelChat): { port: LmPort; model: LmModel } {
	const lmModel: LmModel = {
		id: model.id,
		name: model.name,
		vendor: model.vendor,
		family: model.family,
		maxInputTokens: model.maxInputTokens,
	};
	const port: LmPort = {
		selectModels: () => Promise.resolve([lmModel]),
		async sendRequest(_m, messages, options, signal) {
			const source = new vscode.CancellationTokenSource();
			const cancel = () => source.cancel();
			signal.addEventListener('abort', cancel, { once: true });
			if (signal.aborted) source.cancel();
			const lm = messages.map((m) =>
				m.role === 'user'
					? vscode.LanguageModelChatMessage.User(m.content)
					: vscode.LanguageModelChatMessage.Assistant(m.content),
			);
			const response = await model.sendRequest(lm, { justification: options.justification }, source.token);
			return response.text;
		},
	};
	return { port, model: lmModel };
}

function generatorFor(request: vscode.ChatRequest): Generator {
	// `request.model` exists from VS Code 1.95; older hosts give none, and evidence-only still answers.
	const model = (request as { model?: vscode.LanguageModelChat }).model;
	if (!model) return new EvidenceOnlyGenerator();
	const { port, model: lmModel } = requestModelPort(model);
	return new LmGenerator(port, {}, lmModel);
}

/** Registers `@memory` if `vscode.chat.createChatParticipant` is available. */
export function registerChatParticipant(
	context: vscode.ExtensionContext,
	deps: { log: Logger; settings: ThresholdSettings; ports?: Omit<PipelinePorts, 'log'> },
): void {
	// Older or stripped-down hosts lack the chat API; the panel works without it.
	const chatApi: Partial<typeof vscode.chat> | undefined = vscode.chat;
	if (typeof chatApi?.createChatParticipant !== 'function') {
		deps.log.info('chat participant API not available: @memory not registered');
		return;
	}
	const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
		const abort = new AbortController();
		const sub = token.onCancellationRequested(() => abort.abort());
		const history = historyOf(chatContext);
		const thresholds = deps.settings.current();
		const chat: ChatMessage[] = history
			.slice(-thresholds.conversation_window_turns)
			.map((h) => ({ role: h.role, content: h.content }));
		let streamed = '';
		try {
			const outcome = await runPipeline(
				{ log: deps.log, ...deps.ports },
				{
					turnId: `memory-${Date.now().toString(36)}`,
					utterance: request.prompt,
					history,
					chat,
					context: { now: Date.now(), restricted: !vscode.workspace.isTrusted },
					thresholds,
					retrieval: 'auto',
					generator: generatorFor(request),
					signal: abort.signal,
					conversationId: 'chat-participant',
				},
				{
					progress: (message) => stream.progress(message),
					start: () => undefined,
					delta: (text) => {
						streamed += text;
						stream.markdown(text);
					},
				},
			);
			if (outcome.kind === 'error') {
				stream.markdown(`\n\n${outcome.message}`);
				return { errorDetails: { message: outcome.message } };
			}
			// What the reply adds after the streamed text (the decision in evidence-only mode, notes).
			const done = streamed.trim();
			stream.markdown(
				done && outcome.markdown.startsWith(done)
					? outcome.markdown.slice(done.length)
					: done
						? `\n\n${outcome.markdown}`
						: outcome.markdown,
			);
			for (const c of outcome.citations) {
				if (!c.uri) continue;
				const uri = vscode.Uri.parse(c.uri);
				stream.reference(
					c.startLine === null
						? uri
						: new vscode.Location(uri, new vscode.Range(c.startLine - 1, 0, (c.endLine ?? c.startLine) - 1, 0)),
				);
			}
			// Proposed actions get their controls in the panel only: here nothing can be clicked, and nothing ran.
			if (outcome.actions?.length)
				stream.markdown(
					'\n\n*The proposed action has its control in the Gated Memory panel (ask there to run it); nothing was run.*',
				);
			stream.markdown(
				`\n\n*${outcome.generator} · route \`${outcome.result.route}\`. Open the Gated Memory panel to see the full decision trace.*`,
			);
			void outcome.persist().then((steps) => {
				for (const s of steps) if (s.kind === 'note' && s.level === 'error') deps.log.warn(`@memory: ${s.message}`);
			});
			return { metadata: { route: outcome.result.route, status: outcome.status } };
		} catch (e) {
			deps.log.error(`@memory failed: ${errorMessage(e)}`);
			return { errorDetails: { message: errorMessage(e) } };
		} finally {
			sub.dispose();
		}
	};
	const participant = chatApi.createChatParticipant(PARTICIPANT_ID, handler);
	participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.svg');
	context.subscriptions.push(participant);
	deps.log.debug('@memory chat participant registered');
}
