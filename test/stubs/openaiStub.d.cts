/** Types for openaiStub.cjs (a dependency-free stub OpenAI-compatible server). */
export interface StubRequest {
	method: string | undefined;
	path: string | undefined;
	headers: Record<string, string | string[] | undefined>;
	/** The parsed JSON body (or the raw text when it was not JSON). */
	body: unknown;
	/** The client closed the connection before the reply was complete (a Stop). */
	closedEarly: boolean;
	completed: boolean;
}

export interface StubOptions {
	port?: number;
	/** When set, requests need `Authorization: Bearer <apiKey>` (else 401). */
	apiKey?: string | null;
	/** Stops itself after this long without a request (default 10 min). */
	idleMs?: number;
	/** Delay between stub-slow tokens (default 150 ms). */
	slowDelayMs?: number;
	/** Per-model overrides. */
	script?: Record<string, { tokens?: string[]; delayMs?: number; status?: number }>;
}

export interface OpenAiStub {
	/** `http://127.0.0.1:PORT/v1` */
	url: string;
	port: number;
	requests: StubRequest[];
	close(): Promise<void>;
}

export function startOpenAiStub(options?: StubOptions): Promise<OpenAiStub>;
