/**
 * A generator for any OpenAI-compatible `/chat/completions` endpoint (Ollama, llama.cpp server,
 * LM Studio, vLLM, OpenAI), streamed over server-sent events with Node's global `fetch`.
 * Cancellation runs end to end: aborting the request's signal aborts the HTTP request (the server
 * sees the connection close) and the call resolves with the text so far, `finish: 'cancelled'`.
 */
import {
	GenerationError,
	type GenerationRequest,
	type GenerationResult,
	type Generator,
	type GeneratorInfo,
} from './generator';
import { httpError, networkError, serverMessage } from './openaiErrors';
import { SseParser } from './sseParser';

/** Where and what to call. */
export interface OpenAiGeneratorOptions {
	/** e.g. `http://127.0.0.1:11434/v1` (the `/chat/completions` path is appended). */
	baseUrl: string;
	model: string;
	/** Sent as `Authorization: Bearer …` when set. */
	apiKey: string | null;
	/** Longest silence (before the first byte, or between two reads) before giving up; default DEFAULT_TIMEOUT_MS. */
	timeoutMs?: number;
}

/**
 * 120 s: a local server may first load the model (tens of seconds on a CPU) and then read a
 * few-thousand-token prompt before its first byte; an unreachable server fails at once anyway.
 */
export const DEFAULT_TIMEOUT_MS = 120_000;

type Finish = GenerationResult['finish'];

/** One streamed chunk as OpenAI-compatible servers send it (only the fields we read). */
interface StreamChunk {
	model?: unknown;
	error?: unknown;
	choices?: { delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown }[];
}

/** Streams replies from an OpenAI-compatible server. */
export class OpenAiGenerator implements Generator {
	readonly info: GeneratorInfo;
	private readonly baseUrl: string;

	constructor(private readonly options: OpenAiGeneratorOptions) {
		this.baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
		this.info = {
			kind: 'openai',
			label: `OpenAI-compatible · ${options.model || '(no model set)'} @ ${hostOf(this.baseUrl)}`,
		};
	}

	async generate(request: GenerationRequest): Promise<GenerationResult> {
		const started = performance.now();
		const result = (text: string, finish: Finish, model = this.options.model): GenerationResult => ({
			text,
			finish,
			model,
			ms: performance.now() - started,
		});
		this.checkConfig();
		if (request.signal.aborted) return result('', 'cancelled');
		const call = new HttpCall(request.signal, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		const stream = new ReplyStream(request.onDelta, this.baseUrl);
		try {
			const res = await call.run(
				() => fetch(`${this.baseUrl}/chat/completions`, this.init(request, call.signal)),
				(e) => networkError(e, this.baseUrl),
			);
			if (res === null) return result('', 'cancelled');
			if (!res.ok) {
				// An unreadable error body still leaves the status to classify by.
				const body = await call.run(
					() => res.text().catch(() => ''),
					() => null,
				);
				if (body === null) return result('', 'cancelled');
				throw httpError(res.status, body, res.headers.get('retry-after'), this.baseUrl, this.options.model);
			}
			if ((res.headers.get('content-type') ?? '').includes('application/json')) {
				// A server that ignores `stream: true` answers with one JSON object: take it whole.
				const body = await call.run(
					() => res.text(),
					() =>
						new GenerationError(
							'unavailable',
							`The connection to the model server at ${this.baseUrl} broke mid-reply — retry.`,
							true,
						),
				);
				if (body === null) return result('', 'cancelled');
				stream.whole(body);
			} else {
				const finished = await this.readStream(res, call, stream);
				if (!finished) return result(stream.text, 'cancelled', stream.model ?? this.options.model);
			}
			return result(stream.text, stream.finish(), stream.model ?? this.options.model);
		} catch (e) {
			if (request.signal.aborted) return result(stream.text, 'cancelled', stream.model ?? this.options.model);
			if (e instanceof GenerationError) throw e;
			throw new GenerationError(
				'unavailable',
				`Generating with ${this.info.label} failed: ${e instanceof Error ? e.message : String(e)}`,
				true,
			);
		} finally {
			call.dispose();
		}
	}

	/** Reads the SSE body into `stream`; false when the user cancelled midway. */
	private async readStream(res: Response, call: HttpCall, stream: ReplyStream): Promise<boolean> {
		if (!res.body) throw stream.bad('sent an empty body');
		const reader = res.body.getReader();
		const parser = new SseParser();
		try {
			for (;;) {
				const r = await call.run(
					() => reader.read(),
					() =>
						new GenerationError(
							'unavailable',
							`The connection to the model server at ${this.baseUrl} broke mid-reply — retry.`,
							true,
						),
				);
				if (r === null) return false;
				if (r.done) break;
				for (const data of parser.push(r.value)) if (stream.event(data)) return true;
			}
			for (const data of parser.end()) if (stream.event(data)) return true;
			return true;
		} finally {
			// Releases the connection whether the stream ended, failed or was cancelled; a cancel of an
			// already-closed stream rejects, and there is nothing left to clean up then.
			reader.cancel().catch(() => undefined);
		}
	}

	private init(request: GenerationRequest, signal: AbortSignal): RequestInit {
		const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
		if (this.options.apiKey) headers.Authorization = `Bearer ${this.options.apiKey}`;
		const body: Record<string, unknown> = {
			model: this.options.model,
			messages: request.prompt.messages,
			stream: true,
		};
		if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
		return { method: 'POST', headers, body: JSON.stringify(body), signal };
	}

	private checkConfig(): void {
		if (!this.baseUrl) {
			throw new GenerationError(
				'unavailable',
				"No base URL is set for the OpenAI-compatible generator — set one (e.g. http://127.0.0.1:11434/v1 for Ollama) in Gated Memory's settings, or choose another generator.",
				false,
			);
		}
		if (!/^https?:\/\//i.test(this.baseUrl)) {
			throw new GenerationError(
				'unavailable',
				`The model server URL "${this.baseUrl}" must start with http:// or https:// (e.g. http://127.0.0.1:11434/v1).`,
				false,
			);
		}
		if (!this.options.model.trim()) {
			throw new GenerationError(
				'model_not_found',
				`No model name is set for the OpenAI-compatible generator at ${this.baseUrl} — set one in Gated Memory's settings.`,
				false,
			);
		}
	}
}

/**
 * One HTTP exchange's abort plumbing: the caller's signal and a silence timer both abort it.
 * `run` resolves null when the caller cancelled, and maps any other failure to a GenerationError.
 */
class HttpCall {
	private readonly controller = new AbortController();
	private timer: ReturnType<typeof setTimeout> | undefined;
	private timedOut = false;
	private readonly onAbort = () => this.controller.abort();

	constructor(
		private readonly outer: AbortSignal,
		private readonly timeoutMs: number,
	) {
		outer.addEventListener('abort', this.onAbort, { once: true });
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	async run<T>(step: () => Promise<T>, onError: (e: unknown) => GenerationError | null): Promise<T | null> {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.timedOut = true;
			this.controller.abort();
		}, this.timeoutMs);
		try {
			return await step();
		} catch (e) {
			if (this.outer.aborted) return null;
			if (this.timedOut) {
				throw new GenerationError(
					'unavailable',
					`The model server did not answer within ${seconds(this.timeoutMs)} s — it may still be loading the model; retry in a moment.`,
					true,
				);
			}
			if (e instanceof GenerationError) throw e;
			const mapped = onError(e);
			if (mapped === null) return null;
			throw mapped;
		} finally {
			clearTimeout(this.timer);
		}
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.outer.removeEventListener('abort', this.onAbort);
	}
}

/** Accumulates the streamed reply and checks each event is what the protocol promises. */
class ReplyStream {
	text = '';
	model: string | null = null;
	private finishReason: Finish | null = null;
	private events = 0;
	private done = false;

	constructor(
		private readonly onDelta: (text: string) => void,
		private readonly baseUrl: string,
	) {}

	/** Handles one SSE event's data; true at `[DONE]`. */
	event(data: string): boolean {
		if (data.trim() === '[DONE]') return (this.done = true);
		this.chunk(
			parse(data, () => this.bad('sent a line that is not JSON')),
			'delta',
		);
		return false;
	}

	/** A non-streamed JSON reply. */
	whole(body: string): void {
		this.chunk(
			parse(body, () => this.bad('sent a reply that is not JSON')),
			'message',
		);
		this.done = true;
	}

	/** How the reply ended; a stream that just stops, with no `[DONE]` and no finish reason, was cut off. */
	finish(): Finish {
		if (this.events === 0 && !this.done) throw this.bad('sent no reply (empty stream)');
		if (!this.done && this.finishReason === null) {
			throw new GenerationError(
				'unavailable',
				`The model server at ${this.baseUrl} closed the stream before the reply finished — retry.`,
				true,
			);
		}
		return this.finishReason ?? 'stop';
	}

	bad(what: string): GenerationError {
		return new GenerationError(
			'bad_response',
			`The model server at ${this.baseUrl} ${what} — is the base URL an OpenAI-compatible endpoint (usually ending in /v1)?`,
			false,
		);
	}

	private chunk(raw: unknown, field: 'delta' | 'message'): void {
		if (!raw || typeof raw !== 'object') throw this.bad('sent an unexpected chunk');
		const c = raw as StreamChunk;
		if (c.error !== undefined) {
			throw new GenerationError(
				'unavailable',
				`The model server at ${this.baseUrl} reported an error: ${serverMessage(JSON.stringify({ error: c.error }))}`,
				true,
			);
		}
		if (!Array.isArray(c.choices)) throw this.bad('sent a chunk without choices');
		this.events++;
		if (typeof c.model === 'string' && c.model) this.model = c.model;
		const choice = c.choices[0];
		if (!choice) return;
		const content = field === 'delta' ? choice.delta?.content : choice.message?.content;
		if (typeof content === 'string' && content.length) {
			this.text += content;
			this.onDelta(content);
		}
		if (choice.finish_reason === 'length') this.finishReason = 'length';
		else if (typeof choice.finish_reason === 'string' && choice.finish_reason) this.finishReason = 'stop';
	}
}

function parse(text: string, bad: () => GenerationError): unknown {
	try {
		return JSON.parse(text);
	} catch {
		throw bad();
	}
}

/** 0.3, 12, 120 — seconds as a person would say them. */
function seconds(ms: number): string {
	return ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000));
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url || '(no URL set)';
	}
}
