/**
 * The generator for VS Code's Language Model API, written against `LmPort` (src/extension/chat/lmApi.ts
 * adapts `vscode.lm` to it) so it runs and is tested without `vscode`. The LM API has no system
 * role: the system prompt travels as the first user message.
 */
import {
	GenerationError,
	type ChatMessage,
	type GenerationRequest,
	type GenerationResult,
	type Generator,
	type GeneratorInfo,
} from './generator';

/** A chat model the editor offers (the fields of `vscode.LanguageModelChat` we use). */
export interface LmModel {
	id: string;
	name: string;
	vendor: string;
	family: string;
	maxInputTokens: number;
}

/** Which models to consider; empty = any. */
export interface LmSelector {
	vendor?: string;
	family?: string;
	id?: string;
}

/** A message as the LM API takes it (no system role). */
export interface LmMessage {
	role: 'user' | 'assistant';
	content: string;
}

/**
 * The slice of `vscode.lm` the generator needs. Errors keep the LM API's `code` property
 * (`NoPermissions`, `Blocked`, `NotFound`, `Unknown`); aborting `signal` cancels the request.
 */
export interface LmPort {
	selectModels(selector: LmSelector): Promise<LmModel[]>;
	/** Sends the request; the result yields the reply's text fragments in order. */
	sendRequest(
		model: LmModel,
		messages: LmMessage[],
		options: { justification: string },
		signal: AbortSignal,
	): Promise<AsyncIterable<string>>;
}

/** Shown in VS Code's consent prompt: why Gated Memory wants a model. */
export const LM_JUSTIFICATION =
	'Gated Memory answers your questions in its chat panel from the evidence it retrieved in this workspace.';

const GET_A_MODEL =
	"install and sign in to a chat model provider (for example GitHub Copilot Chat), or choose the OpenAI-compatible or evidence-only generator in Gated Memory's settings";

/** System messages become one user message at the front; the rest keep their order and roles. */
export function toLmMessages(messages: readonly ChatMessage[]): LmMessage[] {
	const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
	const rest = messages
		.filter((m) => m.role !== 'system')
		.map((m) => ({ role: m.role as LmMessage['role'], content: m.content }));
	return system.length ? [{ role: 'user', content: system.join('\n\n') }, ...rest] : rest;
}

/** Maps an LM API failure to a GenerationError (by its `code`, as `vscode.LanguageModelError` carries it). */
export function lmError(e: unknown, modelName: string): GenerationError {
	if (e instanceof GenerationError) return e;
	const code =
		e && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'string'
			? (e as { code: string }).code
			: 'Unknown';
	const detail = e instanceof Error && e.message ? ` (${e.message})` : '';
	switch (code) {
		case 'NoPermissions':
			return new GenerationError(
				'no_consent',
				`Gated Memory may not use ${modelName} yet — accept VS Code's language-model access prompt, or allow it under Accounts › Manage Language Model Access, then retry.${detail}`,
				false,
			);
		case 'NotFound':
			return new GenerationError(
				'model_not_found',
				`${modelName} is no longer available — ${GET_A_MODEL}.${detail}`,
				false,
			);
		case 'Blocked':
			return new GenerationError(
				'rate_limited',
				`${modelName} refused the request: its quota or rate limit is used up — wait and retry, or choose another model.${detail}`,
				true,
			);
		default:
			return new GenerationError('unavailable', `${modelName} failed to answer — retry in a moment.${detail}`, true);
	}
}

/** Streams replies from a model the editor offers through its Language Model API. */
export class LmGenerator implements Generator {
	private current: LmModel | null;

	/** `port` null: the editor has no LM API here; every call then fails with a clear model_not_found. */
	constructor(
		private readonly port: LmPort | null,
		private readonly selector: LmSelector = {},
		model: LmModel | null = null,
	) {
		this.current = model;
	}

	get info(): GeneratorInfo {
		return {
			kind: 'lm',
			label: this.current ? `VS Code language model · ${this.current.name}` : 'VS Code language model',
		};
	}

	async generate(request: GenerationRequest): Promise<GenerationResult> {
		const started = performance.now();
		let text = '';
		const done = (finish: GenerationResult['finish'], model: string): GenerationResult => ({
			text,
			finish,
			model,
			ms: performance.now() - started,
		});
		if (request.signal.aborted) return done('cancelled', this.current?.name ?? 'none');
		const model = await this.pickModel();
		try {
			const fragments = await this.port!.sendRequest(
				model,
				toLmMessages(request.prompt.messages),
				{ justification: LM_JUSTIFICATION },
				request.signal,
			);
			for await (const piece of fragments) {
				if (request.signal.aborted) break;
				if (!piece) continue;
				text += piece;
				request.onDelta(piece);
			}
			return done(request.signal.aborted ? 'cancelled' : 'stop', model.name);
		} catch (e) {
			// The LM API rejects with a CancellationError when the token fires: that is a Stop, not a failure.
			if (request.signal.aborted) return done('cancelled', model.name);
			if (e && typeof e === 'object' && (e as { code?: unknown }).code === 'NotFound') this.current = null;
			throw lmError(e, model.name);
		}
	}

	/** The model chosen earlier if the editor still offers it, else the first that matches. */
	private async pickModel(): Promise<LmModel> {
		if (!this.port)
			throw new GenerationError(
				'model_not_found',
				`VS Code's Language Model API is not available here — ${GET_A_MODEL}.`,
				false,
			);
		let models: LmModel[];
		try {
			models = await this.port.selectModels(this.selector);
		} catch (e) {
			throw lmError(e, 'The VS Code language model');
		}
		const model = models.find((m) => m.id === this.current?.id) ?? models[0];
		if (!model) {
			const which = [this.selector.vendor, this.selector.family, this.selector.id].filter(Boolean).join(' / ');
			throw new GenerationError(
				'model_not_found',
				`No VS Code language model${which ? ` matches ${which}` : ' is available'} — ${GET_A_MODEL}.`,
				false,
			);
		}
		this.current = model;
		return model;
	}
}
