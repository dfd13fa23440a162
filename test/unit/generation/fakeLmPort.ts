/** A fake `LmPort` (it stands in for a hosted model, which cannot run here): scripted models, fragments and errors. */
import type { LmMessage, LmModel, LmPort, LmSelector } from '../../../src/generation/lmGenerator';

export const GPT: LmModel = {
	id: 'copilot-gpt-4o',
	name: 'GPT-4o',
	vendor: 'copilot',
	family: 'gpt-4o',
	maxInputTokens: 64000,
};

/** An error shaped like `vscode.LanguageModelError` (a message and a string `code`). */
export function lmApiError(code: string, message: string): Error {
	return Object.assign(new Error(message), { code });
}

export class FakeLmPort implements LmPort {
	readonly sent: { model: LmModel; messages: LmMessage[]; justification: string }[] = [];
	selects = 0;
	/** Fragments to yield, and per-fragment delay (ms). */
	fragments = ['Retries ', 'three ', 'times ', '[1].'];
	delayMs = 0;
	/** Thrown by sendRequest before streaming, or by the stream after `failAfter` fragments. */
	error: Error | null = null;
	failAfter: number | null = null;
	/** Whether the last request saw its signal abort. */
	sawAbort = false;

	constructor(public models: LmModel[] = [GPT]) {}

	async selectModels(selector: LmSelector): Promise<LmModel[]> {
		this.selects++;
		return this.models.filter(
			(m) =>
				(!selector.vendor || m.vendor === selector.vendor) &&
				(!selector.family || m.family === selector.family) &&
				(!selector.id || m.id === selector.id),
		);
	}

	async sendRequest(
		model: LmModel,
		messages: LmMessage[],
		options: { justification: string },
		signal: AbortSignal,
	): Promise<AsyncIterable<string>> {
		this.sent.push({ model, messages, justification: options.justification });
		if (this.error && this.failAfter === null) throw this.error;
		signal.addEventListener('abort', () => (this.sawAbort = true), { once: true });
		return this.stream(signal);
	}

	private async *stream(signal: AbortSignal): AsyncIterable<string> {
		for (let i = 0; i < this.fragments.length; i++) {
			if (this.failAfter !== null && i === this.failAfter && this.error) throw this.error;
			if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
			// Like the LM API: a cancelled token ends the response with a CancellationError.
			if (signal.aborted) throw Object.assign(new Error('Canceled'), { name: 'Canceled' });
			yield this.fragments[i];
		}
	}
}
