/**
 * Failures of an OpenAI-compatible server, classified into GenerationError codes with plain,
 * actionable messages (what happened, where, and what to do about it).
 */
import { GenerationError } from './generator';

/** Network error codes that mean "nothing is listening / the host is unknown or unreachable". */
const OFFLINE_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ECONNRESET',
	'EPIPE',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_SOCKET',
]);

/** The error's own code or its cause's (undici wraps the socket error as `cause`). */
function networkCode(e: unknown): string | null {
	for (
		let x: unknown = e, depth = 0;
		x && typeof x === 'object' && depth < 4;
		x = (x as { cause?: unknown }).cause, depth++
	) {
		const code = (x as { code?: unknown }).code;
		if (typeof code === 'string') return code;
	}
	return null;
}

/** A `fetch` that threw before a response: the server is unreachable (or the URL is malformed). */
export function networkError(e: unknown, baseUrl: string): GenerationError {
	const code = networkCode(e);
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return new GenerationError(
			'offline',
			`Cannot resolve the model server's host in ${baseUrl} (${code}) — check the base URL and your network.`,
			true,
		);
	}
	if (code !== null && OFFLINE_CODES.has(code)) {
		return new GenerationError(
			'offline',
			`Cannot reach the model server at ${baseUrl} — is it running? (${code})`,
			true,
		);
	}
	if (
		e instanceof TypeError &&
		/invalid url|failed to parse url/i.test(String(e.message) + String((e as { cause?: unknown }).cause ?? ''))
	) {
		return new GenerationError(
			'unavailable',
			`The model server URL "${baseUrl}" is not a valid URL — set a base URL such as http://127.0.0.1:11434/v1.`,
			false,
		);
	}
	const detail = e instanceof Error ? e.message : String(e);
	return new GenerationError(
		'offline',
		`Cannot reach the model server at ${baseUrl} — is it running? (${code ?? detail})`,
		true,
	);
}

/** The server's own error text from a JSON body (`{error: {message}}`, `{error: "…"}`, `{message}`), trimmed. */
export function serverMessage(body: string): string {
	let text = body;
	try {
		const j = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
		const err = j.error;
		const m =
			typeof err === 'string'
				? err
				: err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string'
					? (err as { message: string }).message
					: typeof j.message === 'string'
						? j.message
						: typeof j.detail === 'string'
							? j.detail
							: null;
		if (m !== null) text = m;
	} catch {
		// Not JSON: the raw body (an HTML error page, plain text) is the best detail there is.
		text = body.replace(/<[^>]*>/g, ' ');
	}
	const one = text.replace(/\s+/g, ' ').trim();
	return one.length > 200 ? `${one.slice(0, 200)}…` : one;
}

/** An HTTP error response, classified by status and body. */
export function httpError(
	status: number,
	body: string,
	retryAfter: string | null,
	baseUrl: string,
	model: string,
): GenerationError {
	const said = serverMessage(body);
	const detail = said ? ` The server said: "${said}"` : '';
	if (status === 429) {
		const wait = retryAfter
			? ` Retry after ${/^\d+$/.test(retryAfter.trim()) ? `${retryAfter.trim()} s` : retryAfter.trim()}.`
			: ' Wait a moment and retry.';
		return new GenerationError(
			'rate_limited',
			`The model server at ${baseUrl} is rate-limiting requests (HTTP 429).${wait}${detail}`,
			true,
		);
	}
	if (status === 401 || status === 403) {
		return new GenerationError(
			'unauthorized',
			`The model server at ${baseUrl} refused the request (HTTP ${status}) — check the API key set for it in Gated Memory.${detail}`,
			false,
		);
	}
	if (status === 404 || /model\b.*\bnot (found|exist)|no such model|unknown model|model_not_found/i.test(said)) {
		const mentionsModel = /model/i.test(said);
		const hint = mentionsModel
			? ` Check the model name in Gated Memory's settings, or install it on the server (Ollama: \`ollama pull ${model}\`).`
			: ` Check the base URL (OpenAI-compatible servers usually end in /v1) and the model name.`;
		return new GenerationError(
			'model_not_found',
			`Model "${model}" was not found at ${baseUrl} (HTTP ${status}).${hint}${detail}`,
			false,
		);
	}
	if (status >= 500) {
		return new GenerationError(
			'unavailable',
			`The model server at ${baseUrl} failed (HTTP ${status}) — it may be overloaded or still loading the model; retry in a moment.${detail}`,
			true,
		);
	}
	return new GenerationError(
		'unavailable',
		`The model server at ${baseUrl} rejected the request (HTTP ${status}).${detail}`,
		false,
	);
}
