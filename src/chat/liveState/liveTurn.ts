/**
 * The live-state half of a chat turn, as the pipeline calls it: `planLiveTurn` (which sources,
 * which extra tier — a pure rule step from src/core/liveState) before the tiers are searched, then
 * `gatherLiveTurn` (read the sources, quote them as evidence, propose the requested action). Two
 * calls so the pipeline's own edits stay a few lines. No `vscode` import.
 */
import { planLiveSources, type LiveSource, type LiveSourcePlan } from '../../core/liveState/liveSources';
import type { ProposedAction } from '../../core/protocol';
import type { Thresholds } from '../../core/thresholds';
import type { TraceStep } from '../../core/trace';
import type { GateResult } from '../../core/types';
import type { EvidenceItem } from '../../core/evidence';
import { escapeMarkdown } from '../../generation/markdownText';
import { errorMessage } from '../logger';
import { proposeAction, type ActionPlan } from './actionProposal';
import { gatherLiveState } from './gatherLiveState';
import { liveEvidence } from './liveEvidence';
import { HEADLESS_LIVE_STATE, type LiveStateHost } from './liveStatePorts';

export interface LiveTurnPlan {
	plan: LiveSourcePlan;
	/** The decision with the tiers the live plan adds (a format preference → profile); the tiers gatherEvidence searches. */
	searchResult: GateResult;
}

export interface LiveTurn {
	/** Live items as evidence, ahead of retrieved chunks (the state the question is about). */
	evidence: EvidenceItem[];
	steps: TraceStep[];
	/** Proposed actions, for the reply's controls (the webview sees these). */
	actions: ProposedAction[];
	/** The same actions with what to run, kept by the host for the click. */
	plans: ActionPlan[];
	/** Markdown to add under the reply (the proposal in words), or ''. */
	markdown: string;
	read: LiveSource[];
	ms: number;
}

/** Which live state the turn needs; adds the plan's gate step to the decision's trace steps. */
export function planLiveTurn(utterance: string, result: GateResult, restricted: boolean): LiveTurnPlan {
	const plan = planLiveSources(utterance, { path: result.path, tiers: result.tiers, restricted });
	const searchResult = plan.extraTiers.length
		? {
				...result,
				retrieve: true,
				tiers: [...result.tiers, ...plan.extraTiers.filter((t) => !result.tiers.includes(t))],
			}
		: result;
	return { plan, searchResult };
}

/** Reads the planned sources and builds the proposal. Never throws. */
export async function gatherLiveTurn(
	host: LiveStateHost | undefined,
	planned: LiveTurnPlan,
	turn: { utterance: string; thresholds: Thresholds; signal: AbortSignal; restricted: boolean },
): Promise<LiveTurn> {
	const { plan } = planned;
	const out: LiveTurn = { evidence: [], steps: [plan.step], actions: [], plans: [], markdown: '', read: [], ms: 0 };
	if (plan.extraTiers.length)
		out.steps.push(
			note(
				'info',
				`the tool turn also searches ${plan.extraTiers.join(', ')} (${plan.hits
					.filter((h) => h.source === 'tier')
					.map((h) => `"${h.match}"`)
					.join(', ')})`,
			),
		);
	const live = host ?? HEADLESS_LIVE_STATE;
	const gathered = await gatherLiveState(live, plan, turn.utterance, turn.thresholds, turn.signal, turn.restricted);
	out.steps.push(...gathered.steps);
	out.evidence = gathered.items.map(liveEvidence);
	out.read = gathered.read;
	out.ms = gathered.ms;
	if (!plan.action || turn.restricted) return out;
	if (live.unavailable) {
		out.steps.push(note('info', `action "${plan.action.kind}" not proposed: ${live.unavailable}`));
		return out;
	}
	let scripts: Record<string, string> | null = null;
	try {
		scripts = live.scripts ? await live.scripts() : null;
	} catch (e) {
		out.steps.push(note('warn', `package.json scripts not read: ${errorMessage(e)}`));
	}
	const proposal = proposeAction(plan.action, scripts, gathered.items, plan.file);
	if ('none' in proposal) {
		out.steps.push(note('info', `action "${plan.action.kind}" not proposed: ${proposal.none}`));
		out.markdown = `**Nothing to run for this request:** ${escapeMarkdown(proposal.none)}.`;
		return out;
	}
	out.plans.push(proposal);
	out.actions.push(proposal.action);
	const a = proposal.action;
	out.steps.push({
		kind: 'note',
		stage: 'action',
		level: 'info',
		message: `proposed ${a.kind} action "${a.detail}" (control "${a.label}"${a.confirm ? ', asks for confirmation' : ''}); not run — waits for the user's click`,
	});
	out.markdown = `**Proposed, not run:** \`${a.detail.replace(/`/g, "'")}\` — click **${a.label}** below to ${a.kind === 'terminal' ? 'run it in a terminal' : 'do it'}${a.confirm ? ' (you will be asked to confirm)' : ''}. Nothing runs until you do.`;
	return out;
}

function note(level: 'info' | 'warn', message: string): TraceStep {
	return { kind: 'note', stage: 'live', level, message };
}
