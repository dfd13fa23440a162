/**
 * The decision in plain words: the reply in evidence-only mode when there is nothing to quote,
 * and what follows quoted evidence. Pure (no `vscode`), so the panel and `@memory` say the same.
 */
import type { GateResult, Tier, Trigger } from '../core/types';
import { escapeMarkdown } from '../generation/markdownText';
import type { RetrievalReply } from './workspaceMemory';

/** Longest excerpt of the user's message quoted at the top of a reply. */
const QUOTE_LIMIT = 160;

const TRIGGER_WORDS: Record<Trigger, string> = {
	correction: 'a correction',
	instruction: 'an instruction',
	recall: 'a request to recall something',
	question: 'a question the conversation itself can answer',
	statement: 'a statement (it tells, it asks nothing)',
	greeting: 'a greeting',
	ack: 'an acknowledgement',
};

/** Formats a similarity floor the way the thresholds table writes it (0.45, 0). */
function floor(value: number): string {
	return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, '');
}

/** "workspace (k=4, floor 0.45)" — what one tier search would take. */
export function describeTier(tier: Tier, result: GateResult): string {
	const p = result.policy;
	switch (tier) {
		case 'workspace':
			return `workspace (k=${p.rag_k}, floor ${floor(p.rag_min_similarity)})`;
		case 'research':
			return `research (k=${p.qa_k}, floor ${floor(p.qa_min_similarity)})`;
		case 'profile':
			return 'profile (stored facts and preferences)';
	}
}

/** The headline: what the turn would do, in one sentence. */
export function decisionHeadline(result: GateResult, searched = false): string {
	switch (result.path) {
		case 'refuse':
			return `**Declined:** a rule says not to answer this (route \`${result.route}\`).`;
		case 'clarify':
			return '**Would ask a clarifying question first:** the request is too ambiguous to act on.';
		default:
			break;
	}
	if (!result.retrieve && result.path === 'tool') {
		return '**Live state:** read from the editor for this turn; no stored tier searched.';
	}
	if (!result.retrieve) {
		return `**No lookup needed:** this reads as ${TRIGGER_WORDS[result.trigger]}.`;
	}
	const tiers = result.tiers.map((t) => describeTier(t, result)).join(' + ');
	if (searched) {
		const names = result.tiers.map((t) =>
			t === 'workspace'
				? `the workspace (k=${result.policy.rag_k})`
				: t === 'research'
					? `research memory (k=${result.policy.qa_k})`
					: 'the profile',
		);
		return `**Searched** ${names.join(' + ')}.`;
	}
	return `**Would search** ${tiers} (no store is connected here).`;
}

function quote(utterance: string): string {
	const oneLine = utterance.replace(/\s+/g, ' ').trim();
	const cut = oneLine.length > QUOTE_LIMIT ? `${oneLine.slice(0, QUOTE_LIMIT)}…` : oneLine;
	return `> ${escapeMarkdown(cut)}`;
}

/**
 * The decision in words, without the quote: the headline, the answer path, what would be
 * remembered, and Restricted Mode when it applies. This is what the history window carries for
 * the assistant turn (the quote would only echo the user's words back to the follow-up scorer).
 */
export function decisionBody(result: GateResult, restricted: boolean, searched = false): string {
	const lines = [decisionHeadline(result, searched), ''];
	const details: string[] = [];
	if (result.path === 'tool')
		details.push(
			'Answer path: **tool** — live editor state (diagnostics, editor, git, symbols, terminal); what each source gave, or why not, is in the trace.',
		);
	else details.push(`Answer path: **${result.path}**.`);
	if (result.write.length) details.push(`Would remember this turn in ${result.write.join(' + ')}.`);
	if (result.followup.is_followup) details.push(`Reads as a follow-up (score ${result.followup.score.toFixed(2)}).`);
	if (restricted) details.push('Restricted Mode: chat over the conversation only — no indexing, no model download.');
	for (const d of details) lines.push(`- ${d}`);
	lines.push(
		'',
		`*Route \`${result.route}\` · trigger ${result.trigger} · intent ${result.intent} · mode ${result.mode}.*`,
	);
	return lines.join('\n');
}

/**
 * The full reply: the user's message quoted (escaped, so it renders literally — and so the
 * panel's Markdown sanitising is exercised on text the user controls), then `decisionBody`.
 */
export function describeDecision(result: GateResult, utterance: string, restricted: boolean): string {
	return `${quote(utterance)}\n\n${decisionBody(result, restricted)}`;
}

/** A workspace search that could not run: not indexed yet, or the store failed. */
export type UnsearchedWorkspace = Extract<RetrievalReply, { status: 'not_indexed' | 'error' }>;

/** The workspace reply when `reply` could not search: the search result itself, else null. */
export function unsearchedWorkspace(reply: RetrievalReply | null): UnsearchedWorkspace | null {
	return reply && (reply.status === 'not_indexed' || reply.status === 'error') ? reply : null;
}

/**
 * Why the workspace could not be searched, for the reply (evidence itself is quoted by the
 * evidence-only generator). The store's message is untrusted text: escaped.
 */
export function retrievalBody(reply: UnsearchedWorkspace): string {
	switch (reply.status) {
		case 'not_indexed':
			return '**The workspace is not indexed yet** — run **Gated Memory: Index Workspace** to search it.';
		case 'error':
			return `**Searching the workspace failed:** ${escapeMarkdown(reply.message)}. Details are in the "Gated Memory" log.`;
	}
}
