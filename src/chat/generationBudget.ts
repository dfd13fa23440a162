/**
 * The turn pipeline's time budget for the generator: the longest the turn waits for the next
 * piece of a reply (the first one included) before it stops waiting. A generator that stalls —
 * an LM API stream that never yields, a server that accepts the request and goes quiet, an
 * implementation that ignores its abort signal — would otherwise keep the turn "streaming"
 * forever, with no error and no Retry. When the budget ends, the request's signal is aborted
 * (so an HTTP call closes its connection) and the wait ends at once with a retryable
 * GenerationError, whatever the generator does afterwards. No `vscode` import.
 */
import {
	GenerationError,
	type GenerationRequest,
	type GenerationResult,
	type Generator,
} from '../generation/generator';

/**
 * 150 s of silence. A budget on silence, not on the whole reply: a slow model that keeps streaming
 * is never cut. Longer than the OpenAI-compatible generator's own 120 s silence timeout
 * (DEFAULT_TIMEOUT_MS, a local server loading its model), so that generator's more specific
 * message wins; this one is the backstop for generators without a timeout of their own (the LM
 * API has none). Not a decision-core threshold: it bounds a wait, it changes no decision.
 */
export const GENERATION_STALL_MS = 150_000;

/**
 * Runs `generator.generate(request)`, resolving or rejecting as it does, unless `stallMs` pass
 * without a delta: then rejects with a retryable GenerationError (`unavailable`) that says so.
 * Deltas that arrive after the budget ended are dropped (the panel already shows the error).
 */
export function generateWithin(
	generator: Generator,
	request: GenerationRequest,
	stallMs: number = GENERATION_STALL_MS,
): Promise<GenerationResult> {
	const inner = new AbortController();
	const forward = () => inner.abort();
	if (request.signal.aborted) inner.abort();
	else request.signal.addEventListener('abort', forward, { once: true });
	let timer: ReturnType<typeof setTimeout> | undefined;
	let stalled = false;
	return new Promise<GenerationResult>((resolve, reject) => {
		const arm = () => {
			clearTimeout(timer);
			timer = setTimeout(() => {
				stalled = true;
				inner.abort();
				reject(
					new GenerationError(
						'unavailable',
						`${generator.info.label} sent nothing for ${Math.round(stallMs / 1000)} s, so the turn stopped waiting. Your message is kept — Retry when the model answers again.`,
						true,
					),
				);
			}, stallMs);
		};
		arm();
		// Through a promise so that a generator throwing synchronously also ends in `reject` (and clears the timer).
		Promise.resolve()
			.then(() =>
				generator.generate({
					...request,
					signal: inner.signal,
					onDelta: (text) => {
						if (stalled) return;
						arm();
						request.onDelta(text);
					},
				}),
			)
			// After a stall the promise is already rejected; a late settlement is ignored (and never unhandled).
			.then(resolve, reject)
			.finally(() => {
				clearTimeout(timer);
				request.signal.removeEventListener('abort', forward);
			});
	});
}
