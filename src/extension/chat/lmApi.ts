/**
 * Adapts VS Code's Language Model API (`vscode.lm`) to the generation layer's `LmPort`.
 * Not wired here: the chat host creates it and hands it to `createGenerator`.
 */
import * as vscode from 'vscode';
import type { LmMessage, LmModel, LmPort, LmSelector } from '../../generation/lmGenerator';

/** `vscode.lm` as an LmPort; models are looked up again by id at send time (the list can change). */
export function vscodeLmPort(): LmPort {
	const seen = new Map<string, vscode.LanguageModelChat>();
	return {
		async selectModels(selector: LmSelector): Promise<LmModel[]> {
			// Older hosts (or code-server builds) may lack `vscode.lm`: then no model is on offer.
			if (!vscode.lm?.selectChatModels) return [];
			const models = await vscode.lm.selectChatModels(selector);
			for (const m of models) seen.set(m.id, m);
			return models.map((m) => ({
				id: m.id,
				name: m.name,
				vendor: m.vendor,
				family: m.family,
				maxInputTokens: m.maxInputTokens,
			}));
		},

		async sendRequest(
			model: LmModel,
			messages: LmMessage[],
			options: { justification: string },
			signal: AbortSignal,
		): Promise<AsyncIterable<string>> {
			const chat = seen.get(model.id) ?? (await vscode.lm.selectChatModels({ id: model.id }))[0];
			if (!chat) throw vscode.LanguageModelError.NotFound(`the model ${model.name} is no longer offered`);
			const source = new vscode.CancellationTokenSource();
			const cancel = () => source.cancel();
			signal.addEventListener('abort', cancel, { once: true });
			if (signal.aborted) source.cancel();
			const lmMessages = messages.map((m) =>
				m.role === 'user'
					? vscode.LanguageModelChatMessage.User(m.content)
					: vscode.LanguageModelChatMessage.Assistant(m.content),
			);
			try {
				const response = await chat.sendRequest(lmMessages, { justification: options.justification }, source.token);
				return disposingAfter(response.text, () => {
					signal.removeEventListener('abort', cancel);
					source.dispose();
				});
			} catch (e) {
				signal.removeEventListener('abort', cancel);
				source.dispose();
				throw e;
			}
		},
	};
}

/** Yields `fragments`, then releases the cancellation plumbing however the iteration ends. */
async function* disposingAfter(fragments: AsyncIterable<string>, dispose: () => void): AsyncIterable<string> {
	try {
		yield* fragments;
	} finally {
		dispose();
	}
}
