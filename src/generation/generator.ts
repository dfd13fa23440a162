/**
 * The generation layer's one interface. Three implementations sit behind it (chosen by the
 * `gatedMemory.generator` setting and named in the panel header): VS Code's Language Model API,
 * an OpenAI-compatible HTTP endpoint, and evidence-only mode (no model: the reply is the selected
 * evidence quoted with citations). No `vscode` import here: the LM-API generator lives in
 * src/extension and adapts `vscode.lm` to this interface.
 */
import type { EvidenceSource } from '../core/evidence';

/** Which implementation; also the `gatedMemory.generator` setting's values (plus 'auto'). */
export type GeneratorKind = 'lm' | 'openai' | 'evidence';

/** One chat message sent to a model. Evidence never travels as `system`: it is quoted data in a user message. */
export interface ChatMessage {
	role: 'system' | 'user' | 'assistant';
	content: string;
}

/** One piece of evidence as numbered in the prompt; `[n]` in the reply refers to it. */
export interface PromptEvidence {
	/** 1-based citation number, in prompt order. */
	n: number;
	/** Where the item came from (a stored tier or live state); shown as the block's `tier` attribute. */
	tier: EvidenceSource;
	/** Human-readable source: `src/a.ts:10-24 (parseConfig)` or a memory's date and kind. */
	source: string;
	/** Workspace-relative path and lines when the evidence is a file chunk (citation links open them). */
	path: string | null;
	startLine: number | null;
	endLine: number | null;
	text: string;
}

/** What prompt assembly produced: the messages to send and the evidence they quote. */
export interface AssembledPrompt {
	messages: ChatMessage[];
	evidence: PromptEvidence[];
	/** Estimated prompt tokens (chars / 4 unless a tokenizer is given). */
	tokens: number;
	/** Evidence left out of the prompt and why ('budget' | 'duplicate' | …), for the trace. */
	dropped: { source: string; reason: string }[];
	/** Characters of the user's message left out of the prompt (its middle, marked in the text); absent when sent whole. */
	utteranceCut?: number;
}

/** One generation call. */
export interface GenerationRequest {
	prompt: AssembledPrompt;
	/** Aborting cancels the request end to end (the Stop button; New Conversation). */
	signal: AbortSignal;
	/** Called with each streamed piece of text, in order. */
	onDelta: (text: string) => void;
	maxTokens?: number;
}

/** A finished (or stopped) generation. `text` is everything streamed. */
export interface GenerationResult {
	text: string;
	finish: 'stop' | 'length' | 'cancelled';
	/** The model that answered, as the provider names it (or 'evidence-only'). */
	model: string;
	ms: number;
}

/** Why a generation failed; each has a plain message for the panel. */
export type GenerationErrorCode =
	| 'offline' // connection refused / DNS / network unreachable
	| 'rate_limited' // HTTP 429 or provider quota
	| 'model_not_found' // HTTP 404 for the model, or no LM-API model matches
	| 'unauthorized' // HTTP 401/403, missing key
	| 'no_consent' // the user declined the LM API consent prompt
	| 'bad_response' // unparsable or empty stream
	| 'unavailable'; // anything else (5xx, provider error)

/** The only error a Generator throws (cancellation is not an error: finish = 'cancelled'). */
export class GenerationError extends Error {
	constructor(
		readonly code: GenerationErrorCode,
		message: string,
		/** Whether retrying the same request may succeed (offline, rate limited, 5xx). */
		readonly retryable: boolean,
	) {
		super(message);
		this.name = 'GenerationError';
	}
}

/** Shown in the panel header. */
export interface GeneratorInfo {
	kind: GeneratorKind;
	/** e.g. "OpenAI-compatible · llama3 @ 127.0.0.1:11434", "Evidence only (no model)". */
	label: string;
}

/** Turns an assembled prompt into a streamed reply. */
export interface Generator {
	readonly info: GeneratorInfo;
	/** Resolves when done or cancelled; rejects only with GenerationError. */
	generate(request: GenerationRequest): Promise<GenerationResult>;
}
