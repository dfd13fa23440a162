/**
 * Which live-state sources a turn needs (issue 14): readable rules over the turn's words and its
 * decision, traced as one gate step. Pure — the sources themselves live behind ports in
 * src/chat/liveState and are adapted from VS Code in src/extension/liveState.
 *
 * On a `tool` turn every rule may fire; on `rag` / `direct` turns only the rules that name live
 * state unmistakably ("where is X defined" → the language server; "run the tests" → a proposed
 * action); `refuse` and `clarify` turns read nothing. A `tool` turn may also need a stored tier
 * ("… in the format I like" → profile), listed in `extraTiers`.
 */
import type { GateStep } from '../trace';
import type { AnswerPath, Tier } from '../types';
import { proposeActionIntent, type ActionIntent } from './actionIntents';

export const LIVE_SOURCES = ['diagnostics', 'editor', 'git', 'symbols', 'terminal'] as const;
export type LiveSource = (typeof LIVE_SOURCES)[number];

/** What the symbols source is asked: the definition of, or the references to, one identifier. */
export interface SymbolQuery {
	name: string;
	kind: 'definition' | 'references';
}

/** One rule that fired, for the trace. */
export interface LiveRuleHit {
	source: LiveSource | 'action' | 'tier';
	rule: string;
	match: string;
}

export interface LiveSourcePlan {
	/** In the order gathered and quoted: diagnostics, editor, git, symbols, terminal. */
	sources: LiveSource[];
	hits: LiveRuleHit[];
	/** "this function" with an empty selection: the editor source quotes the enclosing symbol. */
	enclosingSymbol: boolean;
	symbol: SymbolQuery | null;
	/** A file the turn names ("the diff of src/config.ts"): git narrows its diff to it. */
	file: string | null;
	/** A request to do something: proposed with a control, never run by itself. */
	action: ActionIntent | null;
	/** Stored tiers the tool turn also needs (a preference for the format). */
	extraTiers: Tier[];
	step: GateStep;
}

/** The decision facts the rules read. */
export interface LiveDecisionFacts {
	path: AnswerPath;
	tiers: readonly Tier[];
	restricted?: boolean;
}

type Rule = { source: LiveSource; name: string; re: RegExp; strong?: boolean };

// Strong rules name live state so plainly that they apply on any answer path; the others only
// when the decision already chose the `tool` path.
const RULES: readonly Rule[] = [
	{
		source: 'diagnostics',
		name: 'problems_view',
		re: /\b(problems? (view|panel|tab)|diagnostics?|squiggl\w*)\b/i,
		strong: true,
	},
	{
		source: 'diagnostics',
		name: 'current_errors',
		re: /\b(current|type|compile|compiler|tsc|lint) (errors?|warnings?)\b|\bdoes(n'?t| not) compile\b/i,
		strong: true,
	},
	{ source: 'diagnostics', name: 'errors_words', re: /\b(errors?|warnings?|red underline\w*)\b/i },
	{ source: 'editor', name: 'selection', re: /\b(highlighted|selected|selection|marked)\b/i, strong: true },
	{
		source: 'editor',
		name: 'this_code',
		re: /\b(this|current|open|active) (function|method|class|file|code|line|block|editor|snippet|component|test)\b|\b(under|at) (the|my) cursor\b/i,
	},
	{
		source: 'git',
		name: 'git_words',
		re: /\b(git|uncommitted|unstaged|staged|stash(ed)?|ahead|behind|blame|working tree|last commit|since (my|the) (last )?commit|recent commits?|commit (log|history))\b/i,
		strong: true,
	},
	{
		source: 'git',
		name: 'change_words',
		re: /\b(diff|changes?|changed|modif(y|ied|ications?)|branch|release notes|commit(ted)?|edited)\b/i,
	},
	{ source: 'terminal', name: 'terminal_words', re: /\b(terminal|last command|exit code|shell)\b/i, strong: true },
	{
		source: 'terminal',
		name: 'output_words',
		re: /\b((test|build|command|script) (output|run|failed|failure)|(tests?|build) (failed|fail(s|ing)?|broke))\b/i,
	},
];

const SYMBOL_RULES: ReadonlyArray<{ name: string; re: RegExp; kind: SymbolQuery['kind'] }> = [
	{
		name: 'where_defined',
		re: /\bwhere(?: is|'s| are)\s+`?([A-Za-z_$][\w$]*)`?(?:\(\))?\s+(?:defined|declared|implemented|exported)\b/i,
		kind: 'definition',
	},
	{
		name: 'definition_of',
		re: /\b(?:definition|declaration|implementation) of\s+`?([A-Za-z_$][\w$]*)`?/i,
		kind: 'definition',
	},
	{
		name: 'go_to',
		re: /\b(?:go to|jump to|find)\s+(?:the\s+)?(?:definition of\s+)?`([A-Za-z_$][\w$]*)`/i,
		kind: 'definition',
	},
	{
		name: 'who_calls',
		re: /\b(?:who|what|which \w+)\s+(?:calls|uses|references|imports)\s+`?([A-Za-z_$][\w$]*)`?/i,
		kind: 'references',
	},
	{
		name: 'references_to',
		re: /\b(?:references|callers|usages|uses|call sites) (?:to|of)\s+`?([A-Za-z_$][\w$]*)`?/i,
		kind: 'references',
	},
	{
		name: 'where_used',
		re: /\bwhere(?: is|'s| are)\s+`?([A-Za-z_$][\w$]*)`?(?:\(\))?\s+(?:used|called|referenced)\b/i,
		kind: 'references',
	},
];

/** Words a symbol rule may capture that are not identifiers the user means. */
const NOT_SYMBOLS = new Set([
	'this',
	'that',
	'it',
	'the',
	'my',
	'a',
	'an',
	'function',
	'method',
	'class',
	'everything',
	'something',
]);

const ENCLOSING = /\bthis (function|method|class|component|test|block)\b/i;
const FORMAT_PREFERENCE =
	/\b(format|style|way|template|tone) (i|we) (like|prefer|use|want)|\bmy (usual|preferred) (format|style)|\bas (i|we) (like|prefer)\b/i;
const FILE_MENTION =
	/(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|go|rs|java|kt|rb|php|cs|c|h|cpp|hpp|css|scss|html|vue|svelte|yaml|yml|toml|sh))\b/;

/** Plans the live-state reads of one turn. */
export function planLiveSources(utterance: string, facts: LiveDecisionFacts): LiveSourcePlan {
	const t0 = performance.now();
	const text = utterance.slice(0, 2000);
	const hits: LiveRuleHit[] = [];
	const tool = facts.path === 'tool';
	// A refusal reads nothing; a clarify turn reads only what an explicit action request needs
	// ("undo that change": the proposal names the files it would touch, the user still decides).
	const reads = facts.path !== 'refuse';
	const clarify = facts.path === 'clarify';
	const chosen = new Set<LiveSource>();
	let symbol: SymbolQuery | null = null;
	let action: ActionIntent | null = null;
	const extraTiers: Tier[] = [];

	if (reads) {
		for (const r of RULES) {
			if (clarify || (!tool && !r.strong)) continue;
			const m = r.re.exec(text);
			if (m) {
				chosen.add(r.source);
				hits.push({ source: r.source, rule: r.name, match: m[0] });
			}
		}
		for (const r of clarify ? [] : SYMBOL_RULES) {
			const m = r.re.exec(text);
			if (m && !NOT_SYMBOLS.has(m[1].toLowerCase())) {
				symbol = { name: m[1], kind: r.kind };
				chosen.add('symbols');
				hits.push({ source: 'symbols', rule: r.name, match: m[0] });
				break;
			}
		}
		action = proposeActionIntent(text);
		if (action) {
			hits.push({ source: 'action', rule: action.kind, match: action.match });
			// Proposing a commit or a revert shows what it would touch; a fix needs the errors it fixes.
			for (const s of action.needs) chosen.add(s);
		}
		// A tool turn the rules could not place still reads the cheap, always-relevant state.
		if (tool && chosen.size === 0 && !action) {
			chosen.add('diagnostics');
			chosen.add('editor');
			hits.push({ source: 'editor', rule: 'tool_default', match: '' });
		}
		// The language server answers symbol questions when one runs; the index is searched beside it as the fallback.
		if (symbol && !facts.tiers.includes('workspace')) {
			extraTiers.push('workspace');
			hits.push({ source: 'tier', rule: 'symbol_index_fallback', match: symbol.name });
		}
		if (tool && FORMAT_PREFERENCE.test(text) && !facts.tiers.includes('profile')) {
			extraTiers.push('profile');
			hits.push({ source: 'tier', rule: 'format_preference', match: FORMAT_PREFERENCE.exec(text)?.[0] ?? '' });
		}
	}
	const restricted = facts.restricted === true;
	const sources = restricted ? [] : LIVE_SOURCES.filter((s) => chosen.has(s));
	const file = FILE_MENTION.exec(text)?.[1] ?? null;
	const enclosingSymbol = sources.includes('editor') && ENCLOSING.test(text);
	const effect = restricted
		? 'Restricted Mode: no live state is read and no action is proposed'
		: sources.length
			? `read ${sources.join(', ')}${action ? `; propose "${action.kind}" for the user to run` : ''}${extraTiers.length ? `; also search ${extraTiers.join(', ')}` : ''}`
			: action
				? `propose "${action.kind}" for the user to run`
				: reads
					? 'no live state needed'
					: `answer path ${facts.path}: no live state is read`;
	const step: GateStep = {
		kind: 'gate',
		gate: 'live_sources',
		inputs: {
			path: facts.path,
			restricted,
			rules: hits.map((h) => `${h.source}:${h.rule}${h.match ? ` "${h.match}"` : ''}`),
		},
		value: sources,
		threshold: null,
		fired: sources.length > 0 || action !== null,
		effect,
		us: Math.round((performance.now() - t0) * 1000),
	};
	return {
		sources,
		hits,
		enclosingSymbol,
		symbol,
		file,
		action: restricted ? null : action,
		extraTiers: restricted ? [] : extraTiers,
		step,
	};
}
