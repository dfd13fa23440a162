/**
 * The learned gate: the hard refusal rules first, then the linear heads (gateModel.ts) over the
 * turn's named features (gateFeatures.ts), then the rubric's invariants, which no weight can
 * break — correction, instruction, statement and social turns never retrieve; recall always does;
 * direct, clarify and refuse search nothing; only corrections, instructions and statements write.
 * Each head is one gate step in the trace with its probability and the features that moved it.
 * With no weights for a head (no fit yet) the rule stages' answer stands.
 */
import type { PathResult } from '../answerPath/routeAnswerPath';
import type { Classified } from '../decision/classified';
import type { Draft } from '../decision/resolveDecision';
import type { TraceRecorder } from '../decision/traceRecorder';
import { routeLabel } from '../policy/routeLabel';
import type { Thresholds } from '../thresholds';
import type { JsonValue } from '../trace';
import { triggerRetrieves } from '../trigger/classifyTrigger';
import {
	ANSWER_PATHS,
	TIERS,
	TRIGGERS,
	type AnswerPath,
	type Tier,
	type Trigger,
	type TurnInput,
	type WriteTier,
} from '../types';
import { gateFeatures } from './gateFeatures';
import {
	activeRows,
	compileGate,
	pOf,
	scoreHead,
	type CompiledGate,
	type GateWeights,
	type HeadName,
	type HeadScore,
} from './gateModel';
import { GATE_WEIGHTS } from './gateWeights';
import { checkRefusal } from './refusalRules';
import { refusalForms } from './refusalView';

const NO_RETRIEVE_TRIGGERS: ReadonlySet<Trigger> = new Set<Trigger>([
	'correction',
	'instruction',
	'statement',
	'greeting',
	'ack',
]);
const NO_SEARCH_PATHS: ReadonlySet<AnswerPath> = new Set<AnswerPath>(['direct', 'clarify', 'refuse']);
/**
 * Trigger cues that are the rubric's own definition, which the trigger head may not overturn: a
 * claim tagged "…, remember?" tells the store (correction), it does not ask it (recall). Too rare in
 * the data for a weight (one labelled turn), and after a long paste the pasted words outweigh it.
 */
const RUBRIC_TRIGGER_RULES: ReadonlySet<string> = new Set(['remember_tag']);
const TIER_HEADS: Record<Tier, HeadName> = {
	workspace: 'tier_workspace',
	research: 'tier_research',
	profile: 'tier_profile',
};

const topJson = (s: HeadScore): JsonValue => s.top.map(([name, w]) => [name, w]);

function withPath(p: PathResult, path: AnswerPath, rule: string): PathResult {
	return p.path === path
		? p
		: { path, rule, match: null, edit_request: p.edit_request, reads_workspace: path === 'tool' && p.reads_workspace };
}

/** The user speaking of themselves: the only turns whose correction or statement may write the profile. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|myself)\b/i;
/** Scores one head, records it as a gate step and returns P(yes) (binary) or the label's score. */
function head(
	g: CompiledGate,
	name: HeadName,
	rows: readonly number[],
	rec: TraceRecorder,
	threshold: number | null,
	rule: string,
): HeadScore | null {
	const start = rec.now();
	const s = scoreHead(g, name, rows);
	if (!s) return null;
	const binary = s.probs.length === 2;
	const p = binary ? pOf(g, name, s) : s.p;
	rec.gate(
		{
			gate: `learned:${name}`,
			inputs: { top_features: topJson(s), rule_said: rule },
			value: binary ? Math.round(p * 1000) / 1000 : s.label,
			threshold,
			fired: binary ? p >= (threshold ?? 0.5) : s.label !== rule,
			effect: binary
				? `P(yes) ${p.toFixed(2)}`
				: `${s.label} (P ${s.p.toFixed(2)})${s.label !== rule ? `, rules said ${rule}` : ''}`,
		},
		start,
	);
	return s;
}

/** The refused decision: no tiers, no writes, whatever the rules or weights would say. */
function refused(c: Classified, d: Draft, rule: string, match: string): { c: Classified; d: Draft } {
	const path: PathResult = { path: 'refuse', rule, match, edit_request: false, reads_workspace: false };
	const trigger =
		c.trigger.trigger === 'question' || c.trigger.trigger === 'recall'
			? c.trigger
			: { ...c.trigger, trigger: 'question' as Trigger, retrieves: true };
	const policy = { ...d.policy, inject_profile: false, inject_rag: false, inject_qa_history: false, route: 'refuse' };
	return { c: { ...c, trigger }, d: { ...d, path, policy, tiers: [], write: [], route: 'refuse' } };
}

/**
 * Applies refusal, the learned heads and the invariants to the rule stages' draft. Returns new
 * objects; the inputs are not changed.
 */
export function applyLearnedGate(
	input: TurnInput,
	c: Classified,
	d: Draft,
	th: Thresholds,
	rec: TraceRecorder,
	weights: GateWeights = GATE_WEIGHTS,
): { c: Classified; d: Draft } {
	let start = rec.now();
	const refusal = checkRefusal(refusalForms(input.utterance, th), input.history);
	rec.gate(
		{
			gate: 'refusal',
			inputs: { rule: refusal?.rule ?? null, cue: refusal?.cue ?? null, match: refusal?.match ?? null },
			value: refusal !== null,
			fired: refusal !== null,
			effect: refusal
				? `hard rule ${refusal.rule}: refuse, search nothing, write nothing`
				: 'no secret or destructive-production request',
		},
		start,
	);
	// With learned heads the hard rule alone refuses: the rule path's secret cue is the same cue
	// without the hard rule's exemptions ("does this logger leak the token?" asks about code).
	const learned = Object.keys(weights.heads).length > 0;
	const refuseBy =
		refusal ?? (!learned && d.path.path === 'refuse' ? { rule: d.path.rule, match: d.path.match ?? '' } : null);
	if (!learned) return refuseBy ? refused(c, d, refuseBy.rule, refuseBy.match) : { c, d };

	start = rec.now();
	// A host may pass a malformed entry; the features read only well-formed turns.
	const history = input.history.filter(
		(h) => h && typeof h.content === 'string' && (h.role === 'user' || h.role === 'assistant'),
	);
	const active = gateFeatures(c.text, history, c, d);
	const g = compileGate(weights);
	const rows = activeRows(g, active);
	rec.gate(
		{
			gate: 'features',
			inputs: { weights: weights.version, active: active.join(' ') },
			value: rows.length,
			fired: true,
			effect: `${active.length} named features active, ${rows.length} weighted`,
		},
		start,
	);

	// Follow-up (learned for refused turns too: the label is about the text, not the answer). A first
	// turn cannot depend on earlier turns.
	let followup = c.followup;
	const fu = head(g, 'followup', rows, rec, th.gate_followup_p, String(c.followup.is_followup));
	if (fu && history.length > 0) {
		const p = pOf(g, 'followup', fu);
		// Rubric invariant: after a history of greetings and thanks only there is nothing to lean on
		// (a bare answer to the reply's own question still leans on it).
		const nothingToLeanOn = active.includes('history_greeting_only') && !active.includes('bare_answer');
		followup = {
			...c.followup,
			score: Math.round(p * 1000) / 1000,
			is_followup: p >= th.gate_followup_p && !nothingToLeanOn,
			signals: nothingToLeanOn
				? [...c.followup.signals, { name: 'greeting_only_history', weight: 0 }]
				: c.followup.signals,
		};
	} else if (history.length === 0) followup = { ...c.followup, is_followup: false };
	if (refuseBy) return refused({ ...c, followup }, d, refuseBy.rule, refuseBy.match);

	const tr = head(g, 'trigger', rows, rec, null, c.trigger.trigger);
	const triggerName: Trigger =
		tr && (TRIGGERS as readonly string[]).includes(tr.label) && !RUBRIC_TRIGGER_RULES.has(c.trigger.rule)
			? (tr.label as Trigger)
			: c.trigger.trigger;
	const pa = head(g, 'path', rows, rec, null, d.path.path);
	let pathName: AnswerPath =
		pa && (ANSWER_PATHS as readonly string[]).includes(pa.label) && pa.label !== 'refuse'
			? (pa.label as AnswerPath)
			: d.path.path;

	// Invariants of the rubric (and of privacy: a "forget what I said" directive reads and writes nothing).
	const privacy = c.intent.intent === 'privacy';
	if (privacy) pathName = 'direct';
	if (NO_RETRIEVE_TRIGGERS.has(triggerName) && pathName !== 'direct') pathName = 'direct';
	if (triggerName === 'recall' && NO_SEARCH_PATHS.has(pathName)) pathName = 'rag';
	let tiers: Tier[] = [];
	if (!NO_RETRIEVE_TRIGGERS.has(triggerName) && !NO_SEARCH_PATHS.has(pathName)) {
		let best: Tier | null = null;
		let bestP = -1;
		for (const tier of TIERS) {
			const r = head(g, TIER_HEADS[tier], rows, rec, th.gate_tier_p, String(d.tiers.includes(tier)));
			const p = r ? pOf(g, TIER_HEADS[tier], r) : d.tiers.includes(tier) ? 1 : 0;
			if (p >= th.gate_tier_p) tiers.push(tier);
			if (p > bestP) [best, bestP] = [tier, p];
		}
		// rag answers from stored knowledge, recall from research: at least one tier is searched.
		if (tiers.length === 0 && (pathName === 'rag' || triggerName === 'recall'))
			tiers = [triggerName === 'recall' ? 'research' : (best ?? 'workspace')];
		if (triggerName === 'recall' && !tiers.includes('research'))
			tiers = TIERS.filter((t) => t === 'research' || tiers.includes(t));
	}
	if (input.context?.restricted) tiers = tiers.filter((t) => t === 'profile');
	if (tiers.length === 0 && pathName === 'rag') pathName = 'direct';

	let write: WriteTier[] = [];
	if (triggerName === 'instruction') write = ['profile'];
	else if (triggerName === 'correction' || triggerName === 'statement') {
		for (const [tier, name] of [
			['research', 'write_research'],
			['profile', 'write_profile'],
		] as const) {
			const r = head(g, name, rows, rec, th.gate_write_p, String(d.write.includes(tier)));
			const p = r ? pOf(g, name, r) : d.write.includes(tier) ? 1 : 0;
			if (p >= th.gate_write_p) write.push(tier);
		}
		// The profile holds facts about the user (rubric: corrections and statements of project facts go
		// to research): a turn with no reference to the user writes no profile, whatever a word weighs.
		if (!c.features.about_user && !c.features.personal_reference && !FIRST_PERSON.test(input.utterance))
			write = write.filter((w) => w !== 'profile');
		if (triggerName === 'correction' && write.length === 0) write = ['research'];
	}
	if (input.context?.restricted) write = write.filter((w) => w !== 'research');
	if (privacy) write = [];

	const trigger =
		triggerName === c.trigger.trigger
			? c.trigger
			: {
					...c.trigger,
					trigger: triggerName,
					rule: `learned:${c.trigger.rule}`,
					retrieves: triggerRetrieves(triggerName),
				};
	const path = withPath(d.path, pathName, 'learned');
	const policy = {
		...d.policy,
		inject_rag: tiers.includes('workspace'),
		inject_qa_history: tiers.includes('research'),
		inject_profile: tiers.includes('profile'),
	};
	const route = routeLabel(path, d.policy.route, tiers, d.restricted_dropped);
	policy.route = route;
	return { c: { ...c, followup, trigger }, d: { ...d, path, policy, tiers, write, route } };
}
