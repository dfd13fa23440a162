/**
 * decideTurn: the pure decision for one chat turn — follow-up score, trigger, intent, behaviour,
 * policy, answer path — with its trace. No I/O; microseconds. The order of the stages and why is
 * in src/core/README.md; the trace format and every route label in docs/decision-trace.md.
 */
import { classifyIntent, turnFeatures } from './intent/classifyIntent';
import { decideBehavior } from './behavior/behaviorEngine';
import type { Classified } from './decision/classified';
import { roundUs, TraceRecorder } from './decision/traceRecorder';
import { resolveDecision, type Draft } from './decision/resolveDecision';
import { applyPolicyOverride } from './decision/policyOverride';
import { applyMemoryCommand } from './decision/memoryCommandStage';
import { applyLearnedGate } from './gate/learnedGate';
import type { GateWeights } from './gate/gateModel';
import { scoreFollowup } from './followup/followupScorer';
import { defaultClock, type HookRegistry } from './hooks';
import { analyzeText, type TurnText } from './text/turnText';
import { DEFAULT_THRESHOLDS, type Thresholds } from './thresholds';
import { TRACE_VERSION, type DecisionTrace } from './trace';
import { classifyTrigger } from './trigger/classifyTrigger';
import type { FollowupResult, GateResult, Tier, TurnContext, TurnInput } from './types';

export type { Classified } from './decision/classified';

/** How to decide: the thresholds table (defaults when absent), the clock, optional hooks. */
export interface DecideOptions {
	thresholds?: Thresholds;
	/** Microsecond clock for stage timings; injectable for deterministic tests. */
	clock?: () => number;
	/** `policy_override` hooks run after the rules and before the result is assembled. */
	hooks?: HookRegistry;
	/** The learned gate's weights (default: the fitted table in gate/gateWeights.ts). For fitting and evaluation. */
	gateWeights?: GateWeights;
}

const STANDALONE: FollowupResult = { score: 0, is_followup: false, signals: [] };

/**
 * The follow-up score, or "stands alone" with an error note if the scorer fails: a bug in one
 * signal must not take the chat down, and the trace makes it visible.
 */
function safeFollowup(input: TurnInput, text: TurnText, th: Thresholds, rec: TraceRecorder): FollowupResult {
	try {
		// The rule window, like every other stage: a pasted log must not make the scorer tokenise kilobytes.
		return scoreFollowup(text.raw, input.history, th, text);
	} catch (e) {
		rec.note(
			'followup',
			'error',
			`follow-up scorer failed, turn treated as standalone: ${e instanceof Error ? e.message : String(e)}`,
		);
		return { ...STANDALONE, signals: [] };
	}
}

/** Text view, follow-up score, trigger, intent and behaviour, each traced as a gate. */
function classify(input: TurnInput, th: Thresholds, rec: TraceRecorder): Classified {
	const text = analyzeText(input.utterance);
	const features = turnFeatures(text);
	rec.endStage('text');

	let start = rec.now();
	const followup = safeFollowup(input, text, th, rec);
	start = rec.gate(
		{
			gate: 'followup',
			inputs: { history_turns: input.history.length, signals: followup.signals.map((s) => s.name) },
			value: followup.score,
			threshold: th.followup_threshold,
			fired: followup.is_followup,
			effect: followup.is_followup ? 'depends on earlier turns' : 'stands alone',
		},
		start,
	);
	rec.endStage('followup', start);

	const trigger = classifyTrigger(text);
	start = rec.gate(
		{
			gate: 'trigger',
			inputs: { rule: trigger.rule, match: trigger.match },
			value: trigger.trigger,
			fired: trigger.retrieves,
			effect: trigger.retrieves ? 'asks for something: stored tiers may be searched' : 'asks nothing: no retrieval',
		},
		start,
	);
	const intent = classifyIntent(text, trigger, followup, features);
	start = rec.gate(
		{
			gate: 'intent',
			inputs: {
				rule: intent.rule,
				match: intent.match,
				about_user: features.about_user,
				personal_reference: features.personal_reference,
				workspace_cue: features.workspace?.name ?? null,
			},
			value: intent.intent,
			fired: intent.rule !== 'default',
			effect: `intent ${intent.intent}`,
		},
		start,
	);
	rec.endStage('classify', start);

	const behavior = decideBehavior(text, intent.intent, input.history, input.context, th);
	const action = behavior.skip_retrieval
		? 'skip'
		: behavior.reduce_retrieval
			? 'reduce'
			: behavior.boost_retrieval
				? 'boost'
				: 'none';
	start = rec.gate(
		{
			gate: 'behavior',
			inputs: { rule: behavior.rule, measured: behavior.value },
			value: behavior.mode,
			threshold: behavior.threshold,
			fired: behavior.mode !== 'standard',
			effect: `${action}: ${behavior.reason}`,
		},
		start,
	);
	rec.endStage('behavior', start);
	return { text, features, followup, trigger, intent, behavior };
}

const TIER_FLAGS: Record<Tier, keyof TurnContext> = {
	workspace: 'has_workspace_index',
	research: 'has_research_memory',
	profile: 'has_profile_data',
};

/** The decision stays what the rules require; the trace says when a searched tier is known to be empty. */
function noteEmptyTiers(tiers: readonly Tier[], context: TurnContext | undefined, rec: TraceRecorder): void {
	if (!context) return;
	for (const tier of tiers) {
		if (context[TIER_FLAGS[tier]] === false)
			rec.note('policy', 'info', `${tier} is searched but the host reports it empty: expect no hits`);
	}
}

function assemble(
	input: TurnInput,
	c: Classified,
	d: Draft,
	rec: TraceRecorder,
	t0: number,
	clock: () => number,
): GateResult {
	const id = input.id ?? null;
	const retrieve = d.tiers.length > 0;
	const p = d.policy;
	// Plain literals, not spreads of a shared object: spreading on this hot path cost more than
	// all the rules together (measured with bench:gate's profile).
	const trace: DecisionTrace = {
		version: TRACE_VERSION,
		turn_id: id,
		steps: rec.steps,
		decision: {
			trigger: c.trigger.trigger,
			intent: c.intent.intent,
			mode: c.behavior.mode,
			path: d.path.path,
			retrieve,
			tiers: d.tiers.slice(),
			write: d.write.slice(),
			route: d.route,
			followup_score: c.followup.score,
			rag_k: p.rag_k,
			qa_k: p.qa_k,
			rag_min_similarity: p.rag_min_similarity,
			qa_min_similarity: p.qa_min_similarity,
		},
		timings: rec.timings,
		total_us: 0,
	};
	if (d.command) trace.decision.memory_command = d.command;
	rec.endStage('assemble');
	trace.total_us = roundUs(clock() - t0);
	const result: GateResult = {
		id,
		followup: c.followup,
		trigger: c.trigger.trigger,
		intent: c.intent.intent,
		mode: c.behavior.mode,
		path: d.path.path,
		retrieve,
		tiers: d.tiers,
		write: d.write,
		route: d.route,
		policy: p,
		trace,
	};
	if (d.command) result.memory_command = d.command;
	return result;
}

/**
 * Decides one turn. Pure and synchronous; never throws for a policy outcome (a throwing hook is
 * recorded in the trace and ignored). `retrieve` is true exactly when `tiers` is non-empty; `tiers`
 * is in contract order (workspace, research, profile); `write` ⊆ research, profile.
 */
export function decideTurn(input: TurnInput, options: DecideOptions = {}): GateResult {
	const th = options.thresholds ?? DEFAULT_THRESHOLDS;
	const clock = options.clock ?? defaultClock;
	const t0 = clock();
	const rec = new TraceRecorder(clock);
	const ruled = classify(input, th, rec);
	const learned = applyLearnedGate(input, ruled, resolveDecision(input, ruled, th, rec), th, rec, options.gateWeights);
	let d = applyMemoryCommand(input, learned.d, rec);
	// "Forget that …" retracts something stored: the rubric's nearest trigger is correction ("a stored
	// belief is wrong … please update it"), whatever the rules read the wording as.
	const c: Classified =
		d.command?.action === 'forget' && learned.c.trigger.trigger !== 'correction'
			? {
					...learned.c,
					trigger: { ...learned.c.trigger, trigger: 'correction', rule: 'memory_forget', retrieves: false },
				}
			: learned.c;
	rec.endStage('policy');
	if (options.hooks && options.hooks.count('policy_override') > 0) {
		d = applyPolicyOverride(input, c, d, options.hooks, rec);
		rec.endStage('hooks');
	}
	noteEmptyTiers(d.tiers, input.context, rec);
	return assemble(input, c, d, rec, t0, clock);
}

/**
 * The rule stages alone (no learned heads, no hooks): what `training/fitGate.ts` reads the
 * features from, so the weights are fitted on exactly what `decideTurn` computes.
 */
export function ruleDraft(input: TurnInput, thresholds: Thresholds = DEFAULT_THRESHOLDS): { c: Classified; d: Draft } {
	const rec = new TraceRecorder(() => 0);
	const c = classify(input, thresholds, rec);
	return { c, d: resolveDecision(input, c, thresholds, rec) };
}
