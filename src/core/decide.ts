/**
 * decideTurn: the pure decision for one chat turn — follow-up score, trigger, intent, behaviour,
 * policy, answer path — with its trace. No I/O; microseconds.
 * TODO(core-policy helper): real implementation. This stub only fixes the signature.
 */
import { DEFAULT_THRESHOLDS, type Thresholds } from './thresholds';
import type { GateResult, TurnInput } from './types';

export interface DecideOptions {
	thresholds?: Thresholds;
	/** Microsecond clock for stage timings; injectable for deterministic tests. */
	clock?: () => number;
}

export function decideTurn(input: TurnInput, options: DecideOptions = {}): GateResult {
	void input;
	void (options.thresholds ?? DEFAULT_THRESHOLDS);
	throw new Error('decideTurn: not implemented yet');
}
