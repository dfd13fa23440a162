/**
 * The regression gate's fast subset: the offline, store-free evaluations (gate decisions on our
 * fixture conversations; follow-up detection on the coding fixture and, when ../shared is present,
 * CAsT 2019), flattened into named numbers, and their comparison with a committed baseline
 * (test/fixtures/eval/baseline.json). A metric fails when it is worse than the baseline by more
 * than the tolerance; improvements pass (refresh the baseline with scripts/evalBaseline.ts).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Thresholds } from '../core/thresholds';
import type { CliIo } from './cliTypes';
import { evaluateFollowupFile } from './evalFollowup';
import { evaluateGateFile } from './evalGate';

/** Where the fast subset reads its data, relative to the repository root. */
export const FAST_SUBSET = {
	conversations: 'test/fixtures/eval/conversations.jsonl',
	/** The blind-written gate corpus's held-out split (guarded here, never tuned on). */
	gateTest: 'test/fixtures/eval/gate/test.jsonl',
	followupFixture: 'test/fixtures/followup_coding.jsonl',
	cast: 'eval/dev/followup_cast2019.jsonl',
} as const;

/** Metrics where a smaller number is better; every other metric is better when larger. */
export const LOWER_IS_BETTER = new Set(['gate.tool_fallback_rate']);

/** The committed baseline file. */
export interface Baseline {
	tolerance: number;
	metrics: Record<string, number>;
}

/** The shared folder: $GMEM_SHARED, else ../shared beside the repository (CONTRACT.md). */
export function sharedDir(root: string, env: NodeJS.ProcessEnv): string {
	return resolve(root, env.GMEM_SHARED ?? '../shared');
}

/**
 * Computes the fast subset. `skipped` lists in plain words what could not run (CAsT when the
 * shared folder is missing), so callers print it rather than skipping silently.
 */
export async function collectRegressionMetrics(
	root: string,
	t: Thresholds,
	io: CliIo,
): Promise<{ metrics: Record<string, number>; skipped: string[] }> {
	const metrics: Record<string, number> = {};
	const gate = (await evaluateGateFile(join(root, FAST_SUBSET.conversations), t, [], io)).rules[0]!;
	metrics['gate.retrieve_accuracy'] = gate.fields.retrieve.accuracy;
	metrics['gate.tiers_accuracy'] = gate.fields.tiers.accuracy;
	metrics['gate.path_accuracy'] = gate.fields.path.accuracy;
	metrics['gate.trigger_accuracy'] = gate.fields.trigger.accuracy;
	metrics['gate.retrieval_recall'] = gate.retrieval.recall;
	metrics['gate.retrieval_specificity'] = gate.retrieval.specificity;
	metrics['gate.retrieval_mcc'] = gate.retrieval.mcc;
	metrics['gate.tool_fallback_rate'] = gate.tool_fallback.rate;
	metrics['gate.abstention_recall'] = gate.abstention.recall;
	const held = (await evaluateGateFile(join(root, FAST_SUBSET.gateTest), t, [], io)).rules[0]!;
	metrics['gate_test.retrieve_balanced_accuracy'] = held.retrieval.balanced_accuracy;
	metrics['gate_test.path_accuracy'] = held.fields.path.accuracy;
	metrics['gate_test.followup_balanced_accuracy'] = held.followup.balanced_accuracy;
	metrics['gate_test.trigger_accuracy'] = held.fields.trigger.accuracy;
	metrics['gate_test.refusal_recall'] = held.refusal.labelled ? held.refusal.refused / held.refusal.labelled : 1;
	const coding = await evaluateFollowupFile(
		join(root, FAST_SUBSET.followupFixture),
		FAST_SUBSET.followupFixture,
		t,
		undefined,
		io,
	);
	metrics['followup.coding.balanced_accuracy'] = coding.rules['gated-memory']!.balanced_accuracy;
	metrics['followup.coding.mcc'] = coding.rules['gated-memory']!.mcc;
	const skipped: string[] = [];
	const cast = join(sharedDir(root, io.env), FAST_SUBSET.cast);
	if (existsSync(cast)) {
		const c = await evaluateFollowupFile(cast, cast, t, undefined, io);
		metrics['followup.cast.recall'] = c.rules['gated-memory']!.recall;
		metrics['followup.cast.specificity'] = c.rules['gated-memory']!.specificity;
		metrics['followup.cast.mcc'] = c.rules['gated-memory']!.mcc;
	} else {
		skipped.push(`CAsT follow-up check SKIPPED: ${cast} not found (set GMEM_SHARED to the shared folder)`);
	}
	return { metrics, skipped };
}

/** One metric that fell below its baseline by more than the tolerance. */
export interface Regression {
	metric: string;
	baseline: number;
	current: number;
}

/**
 * Compares current metrics with the baseline. Pure. A baseline metric absent from `current` is
 * not a regression only when `optional` names it (the CAsT metrics without ../shared).
 */
export function findRegressions(
	current: Record<string, number>,
	baseline: Baseline,
	optional: (metric: string) => boolean = () => false,
): Regression[] {
	const out: Regression[] = [];
	for (const [metric, base] of Object.entries(baseline.metrics)) {
		const now = current[metric];
		if (now === undefined) {
			if (!optional(metric)) out.push({ metric, baseline: base, current: Number.NaN });
			continue;
		}
		const worse = LOWER_IS_BETTER.has(metric) ? now - base : base - now;
		// A small epsilon so a baseline written with rounded numbers does not fail on the last digit.
		if (worse > baseline.tolerance + 1e-9) out.push({ metric, baseline: base, current: now });
	}
	return out;
}
