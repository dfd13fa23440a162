/**
 * Runs the decision core for one turn and turns the outcome into reply text. A failure inside
 * the core becomes a value (shown in the panel, logged), never an exception that reaches the
 * extension host. No `vscode` import: the panel controller and the `@memory` participant share it.
 */
import { decideTurn, type DecideOptions } from '../core/decide';
import type { HookRegistry } from '../core/hooks';
import type { Thresholds } from '../core/thresholds';
import type { GateResult, HistoryTurn, TurnContext, TurnInput } from '../core/types';
import { errorMessage, type Logger } from './logger';

/** The decision core's entry point; injectable so tests and future pipelines can replace it. */
export type DecideFn = (input: TurnInput, options: DecideOptions) => GateResult;

/** Everything one decision needs. */
export interface TurnRequest {
	turnId: string;
	utterance: string;
	history: HistoryTurn[];
	context: TurnContext;
	thresholds: Thresholds;
	/** `policy_override` hooks (e.g. "retry with retrieval forced"); their steps land in the trace. */
	hooks?: HookRegistry;
}

/** A decided turn (reply Markdown + the core's result) or a failure to report. */
export type TurnOutcome = { ok: true; result: GateResult; ms: number } | { ok: false; message: string };

/** Longest message accepted; longer input is refused with a message rather than decided slowly. */
export const MAX_UTTERANCE_CHARS = 20_000;

/**
 * Decides one turn. Never throws: an exception from the core is logged with its stack and
 * returned as `{ ok: false }` with a message fit for the panel.
 */
export function runTurn(request: TurnRequest, log: Logger, decide: DecideFn = decideTurn): TurnOutcome {
	if (request.utterance.length > MAX_UTTERANCE_CHARS) {
		return { ok: false, message: `That message is longer than ${MAX_UTTERANCE_CHARS} characters; please shorten it.` };
	}
	const input: TurnInput = {
		id: request.turnId,
		history: request.history,
		utterance: request.utterance,
		context: request.context,
	};
	const t0 = performance.now();
	try {
		const result = decide(input, { thresholds: request.thresholds, hooks: request.hooks });
		const ms = performance.now() - t0;
		log.debug(
			`turn ${request.turnId}: trigger=${result.trigger} path=${result.path} tiers=[${result.tiers.join(',')}] route=${result.route} (${ms.toFixed(2)} ms)`,
		);
		return { ok: true, result, ms };
	} catch (e) {
		// The core is pure and should not throw; if it does, the panel must keep working.
		log.error(e instanceof Error ? e : new Error(errorMessage(e)));
		return {
			ok: false,
			message: `The decision core failed on this turn: ${errorMessage(e)}. The conversation goes on; details are in the "Gated Memory" log.`,
		};
	}
}
