/**
 * The decision trace under a reply: a collapsible whose one-line header sums the turn up
 * ("retrieved 3 from workspace in 41 ms · follow-up 0.70", "no lookup · greeting"); expanded, the
 * decision at a glance (badges), the plan (lookup, each tier searched or skipped and why, mode,
 * path, route), a timeline of every step in order (gates: value vs threshold, fired; hooks;
 * retrieval hits per arm with rank and score, fused and rerank scores; evidence kept or dropped
 * with the reason; generation) and the stage timings. Everything is set as text.
 */
import type { DecisionTrace, JsonValue, TraceDecisionSummary, TraceHit, TraceStep } from '../src/core/protocol';
import { el } from './dom';

/** A number as the trace shows it: integers as is, fractions to two places. */
export function formatNumber(n: number): string {
	return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** A duration given in µs: whole µs below a millisecond, else ms with one decimal. */
export function formatMicros(us: number): string {
	return us < 1000 ? `${Math.round(us)} µs` : `${(us / 1000).toFixed(1)} ms`;
}

/** A JSON value in at most `limit` characters. */
export function formatValue(value: JsonValue, limit = 60): string {
	const text =
		typeof value === 'number' ? formatNumber(value) : typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** "workspace k=4 ≥ 0.45 · research k=4 ≥ 0.65", or "none". */
export function lookupPlan(d: TraceDecisionSummary): string {
	if (!d.retrieve || d.tiers.length === 0) return 'none — answered from the conversation';
	return d.tiers
		.map((tier) => {
			if (tier === 'workspace') return `workspace k=${d.rag_k} floor ${formatNumber(d.rag_min_similarity)}`;
			if (tier === 'research') return `research k=${d.qa_k} floor ${formatNumber(d.qa_min_similarity)}`;
			return 'profile (stored facts)';
		})
		.join(' · ');
}

/** The one-line description in the collapsible's header. */
export function traceHeadline(trace: DecisionTrace): string {
	const d = trace.decision;
	const lookup = d.retrieve ? `search ${d.tiers.join(' + ')}` : 'no lookup';
	return `${d.trigger} · ${d.path} · ${lookup} · ${formatMicros(trace.total_us)}`;
}

/** Total hits and search time of the retrieval steps, and the tiers that returned hits. */
function retrievalTotals(trace: DecisionTrace): { hits: number; ms: number; tiers: string[] } {
	let hits = 0;
	let ms = 0;
	const tiers: string[] = [];
	for (const step of trace.steps) {
		if (step.kind !== 'retrieval') continue;
		hits += step.hits.length;
		ms += step.ms;
		if (step.hits.length && !tiers.includes(step.tier)) tiers.push(step.tier);
	}
	return { hits, ms, tiers };
}

/** The collapsed trace's one line: what was looked up (or not), why, and how the reply ended. */
export function traceSummary(trace: DecisionTrace): string {
	const d = trace.decision;
	const parts: string[] = [];
	const found = retrievalTotals(trace);
	if (!d.retrieve) parts.push('no lookup');
	else if (found.hits > 0)
		parts.push(`retrieved ${found.hits} from ${found.tiers.join(' + ')} in ${Math.round(found.ms)} ms`);
	else parts.push(`search ${d.tiers.join(' + ') || 'nothing'} · nothing retrieved`);
	const followup = trace.steps.some((s) => s.kind === 'gate' && s.gate === 'followup' && s.fired);
	parts.push(followup ? `follow-up ${formatNumber(d.followup_score)}` : d.trigger);
	const generation = trace.steps.find((s) => s.kind === 'generation');
	if (generation?.status === 'cancelled') parts.push('stopped');
	else if (generation?.status === 'error') parts.push('generation failed');
	return parts.join(' · ');
}

/** Each tier, searched (k, floor, hits, ms) or skipped and why: "research skipped — not chosen for code intent". */
export function tierLines(trace: DecisionTrace): string[] {
	const d = trace.decision;
	return (['workspace', 'research', 'profile'] as const).map((tier) => {
		const searches = trace.steps.filter(
			(s): s is Extract<TraceStep, { kind: 'retrieval' }> => s.kind === 'retrieval' && s.tier === tier,
		);
		if (searches.length) {
			const hits = searches.reduce((n, s) => n + s.hits.length, 0);
			const ms = searches.reduce((n, s) => n + s.ms, 0);
			const s = searches[0];
			return `${tier} searched — k=${s.k}, floor ${s.floor === null ? 'none' : formatNumber(s.floor)}, ${s.arm_mode}, ${hits} hit${hits === 1 ? '' : 's'} in ${Math.round(ms)} ms`;
		}
		if (!d.retrieve) return `${tier} skipped — no lookup this turn (${d.trigger}, ${d.path})`;
		if (!d.tiers.includes(tier)) return `${tier} skipped — not chosen for ${d.intent} (route ${d.route})`;
		const note = trace.steps.find((s) => s.kind === 'note' && s.message.includes(tier));
		return `${tier} chosen, not searched${note && note.kind === 'note' ? ` — ${note.message}` : ''}`;
	});
}

function badge(label: string, value: string): HTMLElement {
	return el(
		'vscode-badge',
		{ className: 'trace-badge', attrs: { title: label, 'aria-label': `${label}: ${value}` } },
		`${label}: ${value}`,
	);
}

export function stepLine(step: TraceStep): {
	name: string;
	detail: string;
	effect: string;
	us: string;
	fired: boolean;
} {
	switch (step.kind) {
		case 'gate': {
			const vs = step.threshold === null ? '' : ` vs threshold ${formatNumber(step.threshold)}`;
			return {
				name: step.gate,
				detail: `${formatValue(step.value)}${vs}`,
				effect: step.effect,
				us: formatMicros(step.us),
				fired: step.fired,
			};
		}
		case 'hook':
			return {
				name: `hook ${step.point}/${step.name}`,
				detail: step.status,
				effect: step.error ?? (step.changed.join(', ') || 'no change'),
				us: formatMicros(step.us),
				fired: step.changed.length > 0,
			};
		case 'retrieval':
			return {
				name: `retrieval ${step.tier}`,
				detail: `${step.hits.length} hits, k=${step.k}, floor ${step.floor === null ? 'none' : formatNumber(step.floor)}, ${step.arm_mode}`,
				effect: step.searched_query,
				us: formatMicros(step.ms * 1000),
				fired: step.hits.length > 0,
			};
		case 'rerank':
			return {
				name: 'rerank',
				detail: `${step.status}, ${step.pairs} pairs`,
				// The model that ran; an order-only reranker's scores are not probabilities, so the floors stayed on cosine.
				effect:
					step.reason ?? [step.model, step.order_only ? 'order only; floors on cosine' : ''].filter(Boolean).join(': '),
				us: formatMicros(step.ms * 1000),
				fired: step.status === 'model',
			};
		case 'evidence':
			return {
				name: 'evidence',
				detail: `${step.selected.length} selected, ${step.dropped.length} dropped, ${step.tokens}/${step.budget} tokens`,
				effect: step.reason,
				us: '',
				fired: !step.abstained,
			};
		case 'generation':
			return {
				name: 'generation',
				detail: `${step.generator}${step.model ? ` (${step.model})` : ''}: ${step.status}`,
				effect: step.error ?? '',
				us: formatMicros(step.ms * 1000),
				fired: step.status === 'ok',
			};
		case 'note':
			return { name: `${step.stage} (${step.level})`, detail: '', effect: step.message, us: '', fired: false };
	}
}

/** One retrieved hit in words: "src/a.ts:1-3 parseConfig · fts #1 (2.31) · vector — · fused 0.0164". */
export function hitLine(hit: TraceHit): string {
	const lines =
		hit.start_line === null
			? ''
			: hit.end_line !== null && hit.end_line !== hit.start_line
				? `:${hit.start_line}-${hit.end_line}`
				: `:${hit.start_line}`;
	const where = `${hit.path ?? hit.id}${lines}${hit.symbol ? ` ${hit.symbol}` : ''}`;
	const arm = (name: string, a: TraceHit['arms']['fts']) =>
		a ? `${name} #${a.rank} (${formatNumber(a.score)})` : `${name} —`;
	const rerank = hit.rerank ? ` · rerank ${formatNumber(hit.rerank.score)} (${hit.rerank.status})` : '';
	return `${where} · ${arm('fts', hit.arms.fts)} · ${arm('vector', hit.arms.vector)} · fused ${hit.fused.toFixed(4)}${rerank}`;
}

/** A gate's inputs as a hover title ("words: 3, cues: [\"it\"]"), so the rule's evidence is one hover away. */
export function stepInputsTitle(step: TraceStep): Record<string, string> {
	if (step.kind !== 'gate') return {};
	const parts = Object.entries(step.inputs).map(([k, v]) => `${k}: ${formatValue(v, 80)}`);
	return parts.length ? { title: `${step.gate} inputs — ${parts.join(', ')}` } : {};
}

/** Where a chunk id points ("src/a.ts:1-3"), from the trace's hits; the id itself when unknown. */
export function chunkLocations(steps: readonly TraceStep[]): (id: string) => string {
	const byId = new Map<string, string>();
	for (const step of steps) {
		if (step.kind !== 'retrieval') continue;
		for (const h of step.hits) {
			const lines =
				h.start_line === null
					? ''
					: `:${h.start_line}${h.end_line !== null && h.end_line !== h.start_line ? `-${h.end_line}` : ''}`;
			byId.set(h.chunk_id, `${h.path ?? h.id}${lines}`);
		}
	}
	return (id) => byId.get(id) ?? id;
}

/** The evidence step's kept and dropped chunks in words: "kept src/a.ts:1-3", "dropped src/b.ts:4-9 — floor". */
export function evidenceLines(
	step: Extract<TraceStep, { kind: 'evidence' }>,
	where: (id: string) => string,
): { kept: boolean; text: string }[] {
	return [
		...step.selected.map((id) => ({ kept: true, text: `kept ${where(id)}` })),
		...step.dropped.map((d) => ({ kept: false, text: `dropped ${where(d.id)} — ${d.reason}` })),
	];
}

function timeline(steps: TraceStep[]): HTMLElement {
	const where = chunkLocations(steps);
	const list = el('ol', { className: 'timeline', attrs: { 'aria-label': 'Decision steps in order' } });
	for (const step of steps) {
		const line = stepLine(step);
		list.append(
			el(
				'li',
				{ className: `step step-${step.kind}${line.fired ? ' fired' : ''}`, attrs: stepInputsTitle(step) },
				el('span', { className: 'step-mark', attrs: { 'aria-hidden': 'true' } }, line.fired ? '●' : '○'),
				el('span', { className: 'step-name' }, line.name),
				el('span', { className: 'step-state' }, line.fired ? 'fired' : 'passed'),
				line.detail ? el('span', { className: 'step-detail' }, line.detail) : null,
				line.us ? el('span', { className: 'step-time' }, line.us) : null,
				line.effect ? el('span', { className: 'step-effect' }, line.effect) : null,
				step.kind === 'retrieval' && step.hits.length
					? el(
							'ol',
							{ className: 'step-hits', attrs: { 'aria-label': 'Retrieved chunks, best first' } },
							...step.hits.map((h) => el('li', { className: 'step-hit' }, hitLine(h))),
						)
					: null,
				step.kind === 'evidence' && (step.selected.length || step.dropped.length)
					? el(
							'ul',
							{ className: 'step-evidence-items', attrs: { 'aria-label': 'Evidence kept and dropped' } },
							...evidenceLines(step, where).map((line) =>
								el('li', { className: `step-evidence-item ${line.kept ? 'kept' : 'dropped'}` }, line.text),
							),
						)
					: null,
			),
		);
	}
	return list;
}

function plan(trace: DecisionTrace): HTMLElement {
	const d = trace.decision;
	const row = (term: string, value: string) => [el('dt', {}, term), el('dd', {}, value)];
	return el(
		'dl',
		{ className: 'trace-plan' },
		...row('Lookup', lookupPlan(d)),
		...row('Tiers', tierLines(trace).join('\n')),
		...row('Mode', d.mode),
		...row('Answer path', `${d.path} · route ${d.route}`),
		...row('Remember', d.write.length ? d.write.join(' + ') : 'nothing'),
		...row('Follow-up', `score ${formatNumber(d.followup_score)}`),
	);
}

/** Builds the collapsible trace for one reply. */
export function renderTrace(trace: DecisionTrace, open: boolean): HTMLElement {
	const d = trace.decision;
	// Attributes rather than properties, so the headline is also readable from the DOM (tests, a11y tools).
	const collapsible = el('vscode-collapsible', {
		className: 'trace',
		attrs: {
			'data-turn': trace.turn_id ?? '',
			heading: 'Trace',
			description: traceSummary(trace),
			title: traceHeadline(trace),
		},
	});
	collapsible.open = open;
	const timings = trace.timings.map((t) => `${t.stage} ${formatMicros(t.us)}`).join(' · ');
	collapsible.append(
		el(
			'div',
			{ className: 'trace-body' },
			el(
				'div',
				{ className: 'trace-badges' },
				badge('trigger', d.trigger),
				badge('intent', d.intent),
				badge('mode', d.mode),
				badge('path', d.path),
				badge('tiers', d.tiers.length ? d.tiers.join('+') : 'none'),
			),
			plan(trace),
			timeline(trace.steps),
			el('p', { className: 'trace-timings' }, `Timings: ${timings || 'none'} · total ${formatMicros(trace.total_us)}`),
		),
	);
	return collapsible;
}
