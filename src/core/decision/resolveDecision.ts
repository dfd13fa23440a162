/**
 * From the classified turn to a draft decision: the policy engine's steps, the answer path and
 * the writes, each recorded as a gate step. Order: intent policy → overlays → retrieval gate
 * (trigger, behaviour skip) → volume (reduce/boost) → Restricted Mode → answer path → the tiers
 * the path keeps → writes → route label.
 */
import type { Classified } from './classified';
import { modulateVolume } from '../behavior/behaviorEngine';
import { routeAnswerPath, type PathResult } from '../answerPath/routeAnswerPath';
import { applyOverlays, applyRestricted, basePolicy, closeTiers, setTiers, tiersOf } from '../policy/policyEngine';
import { routeLabel, tiersForPath } from '../policy/routeLabel';
import type { Thresholds } from '../thresholds';
import { threadView } from '../thread/threadContext';
import { writeTiersFor } from '../trigger/classifyTrigger';
import type { PolicyDecision, Tier, TurnInput, WriteTier } from '../types';
import type { TraceRecorder } from './traceRecorder';
import type { MemoryCommandDecision } from './memoryCommandStage';

/** A decision before hooks: the answer path, the final policy and what it searches and writes. */
export interface Draft {
	path: PathResult;
	policy: PolicyDecision;
	tiers: Tier[];
	write: WriteTier[];
	route: string;
	/** Tiers Restricted Mode closed (for the route label and the trace). */
	restricted_dropped: Tier[];
	/** An explicit "remember that …" / "forget that …" (memoryCommandStage.ts), when the turn is one. */
	command?: MemoryCommandDecision;
}

function policyStage(c: Classified, th: Thresholds, rec: TraceRecorder): PolicyDecision {
	let start = rec.now();
	const d = basePolicy(c.intent.intent, c.trigger.trigger, th);
	const base = tiersOf(d);
	start = rec.gate(
		{
			gate: 'policy',
			inputs: { intent: c.intent.intent, trigger: c.trigger.trigger },
			value: d.route,
			fired: base.length > 0,
			effect: base.length ? `opens ${base.join(', ')}` : 'opens no tier',
		},
		start,
	);
	const overlays = applyOverlays(d, c.intent.intent, c.trigger.retrieves, c.features, c.followup);
	for (const o of overlays) {
		start = rec.gate(
			{ gate: `overlay:${o.name}`, inputs: {}, value: o.fired, fired: o.fired, effect: o.effect },
			start,
		);
	}
	const skip = !c.trigger.retrieves || c.behavior.skip_retrieval;
	const closed = skip ? closeTiers(d) : [];
	const by = !c.trigger.retrieves ? `trigger ${c.trigger.trigger}` : `behaviour ${c.behavior.mode}`;
	rec.gate(
		{
			gate: 'retrieval_gate',
			inputs: { trigger_retrieves: c.trigger.retrieves, behavior_skip: c.behavior.skip_retrieval },
			value: tiersOf(d),
			fired: closed.length > 0,
			effect: closed.length ? `${by} closed ${closed.join(', ')}` : 'no change',
		},
		start,
	);
	return d;
}

function volumeStage(d: PolicyDecision, c: Classified, th: Thresholds, rec: TraceRecorder): void {
	const start = rec.now();
	const before = {
		rag_k: d.rag_k,
		qa_k: d.qa_k,
		rag_min_similarity: d.rag_min_similarity,
		qa_min_similarity: d.qa_min_similarity,
	};
	const after = modulateVolume(before, c.behavior, th);
	d.rag_k = after.rag_k;
	d.qa_k = after.qa_k;
	d.rag_min_similarity = after.rag_min_similarity;
	d.qa_min_similarity = after.qa_min_similarity;
	const changed = after !== before;
	const factor = c.behavior.reduce_retrieval
		? th.reduce_k_factor
		: c.behavior.boost_retrieval
			? th.boost_k_factor
			: null;
	rec.gate(
		{
			gate: 'volume',
			inputs: {
				mode: c.behavior.mode,
				rag_k: before.rag_k,
				qa_k: before.qa_k,
				rag_min_similarity: before.rag_min_similarity,
				qa_min_similarity: before.qa_min_similarity,
			},
			value: {
				rag_k: after.rag_k,
				qa_k: after.qa_k,
				rag_min_similarity: after.rag_min_similarity,
				qa_min_similarity: after.qa_min_similarity,
			},
			threshold: factor,
			fired: changed,
			effect: changed
				? `${c.behavior.reduce_retrieval ? 'reduce' : 'boost'}: k ${before.rag_k}→${after.rag_k}, floor ${before.rag_min_similarity}→${after.rag_min_similarity}`
				: 'no change',
		},
		start,
	);
}

function pathStage(
	input: TurnInput,
	c: Classified,
	d: PolicyDecision,
	th: Thresholds,
	rec: TraceRecorder,
): { path: PathResult; tiers: Tier[] } {
	let start = rec.now();
	const wanted = tiersOf(d);
	const path = routeAnswerPath(c.text, {
		trigger: c.trigger,
		intent: c.intent.intent,
		features: c.features,
		has_history: input.history.length > 0,
		is_followup: c.followup.is_followup,
		thread: threadView(input.history, th.generic_thread_turns),
		wants_tiers: wanted.length > 0,
		clarify_min_chars: th.clarify_min_chars,
	});
	start = rec.gate(
		{
			gate: 'path',
			inputs: {
				rule: path.rule,
				match: path.match,
				edit_request: path.edit_request,
				reads_workspace: path.reads_workspace,
			},
			value: path.path,
			fired: path.path !== 'rag',
			effect: `answer via ${path.path}`,
		},
		start,
	);
	const tiers = tiersForPath(path, wanted);
	const dropped = wanted.filter((t) => !tiers.includes(t));
	rec.gate(
		{
			gate: 'path_tiers',
			inputs: { path: path.path, wanted },
			value: tiers,
			fired: dropped.length > 0,
			effect: dropped.length ? `${path.path} path does not search ${dropped.join(', ')}` : 'no change',
		},
		start,
	);
	return { path, tiers };
}

function writeStage(
	c: Classified,
	d: PolicyDecision,
	path: PathResult,
	restricted: boolean,
	rec: TraceRecorder,
): WriteTier[] {
	const start = rec.now();
	let write = writeTiersFor(c.trigger.trigger, c.features.about_user);
	// Privacy and refused turns write nothing (nothing said around a secret request is kept);
	// Restricted Mode keeps research (workspace memory) closed for writes too.
	if (d.privacy_mode || path.path === 'refuse') write = [];
	if (restricted) write = write.filter((w) => w !== 'research');
	rec.gate(
		{
			gate: 'write',
			inputs: {
				trigger: c.trigger.trigger,
				about_user: c.features.about_user,
				privacy: d.privacy_mode,
				refused: path.path === 'refuse',
				restricted,
			},
			value: write,
			fired: write.length > 0,
			effect: write.length ? `writes ${write.join(', ')}` : 'writes nothing',
		},
		start,
	);
	return write;
}

/** Runs the policy, path and write stages over a classified turn. */
export function resolveDecision(input: TurnInput, c: Classified, th: Thresholds, rec: TraceRecorder): Draft {
	const policy = policyStage(c, th, rec);
	volumeStage(policy, c, th, rec);
	const start = rec.now();
	const restricted = input.context?.restricted === true;
	const restrictedDropped = applyRestricted(policy, input.context);
	rec.gate(
		{
			gate: 'restricted',
			inputs: { restricted },
			value: restrictedDropped,
			fired: restrictedDropped.length > 0,
			effect: restrictedDropped.length ? `Restricted Mode closed ${restrictedDropped.join(', ')}` : 'no change',
		},
		start,
	);
	const { path, tiers } = pathStage(input, c, policy, th, rec);
	setTiers(policy, tiers);
	const write = writeStage(c, policy, path, restricted, rec);
	const route = routeLabel(path, policy.route, tiers, restrictedDropped);
	policy.route = route;
	return { path, policy, tiers, write, route, restricted_dropped: restrictedDropped };
}
