/**
 * A chat turn that is an explicit memory command (the decision's `memory_command`, from
 * src/core/intent/memoryCommand.ts): the reply is the confirmation, no generator runs.
 * - remember: the records are the remembered text itself (a research note, a profile fact or
 *   preference, or a standing instruction), written by the ordinary write path after the reply —
 *   so `gatedMemory.memory.writes` applies (auto writes, confirm shows the *Remember this?* chip,
 *   off writes nothing) and Restricted Mode writes nothing; the reply says which.
 * - forget: the store's search proposes candidates, forgetMatch.ts picks the one meant (never one
 *   below the floor); the reply says exactly what was forgotten, with an Undo, or lists several
 *   matches to pick from, or says nothing matched. Restricted Mode forgets nothing.
 * No `vscode`.
 */
import type { PersistRecord } from '../core/hooks';
import type { MemoryCommandDecision } from '../core/decision/memoryCommandStage';
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { GateResult } from '../core/types';
import { redactSecrets } from '../indexing/secretScan';
import { parseProfileStatement } from '../retrieval/memoryWriter';
import { chooseForget, type ForgetCandidate } from './forgetMatch';
import type { ActionPlan, RunnableAction } from './liveState/actionProposal';
import { errorMessage } from './logger';
import type { ForgottenItem, MemoryCommandStore } from './memoryCommandStore';
import type { WriteMode } from './memoryWriteGate';

/** What a host offers memory commands: the write mode in force, and the store (absent: this host changes no memory). */
export interface MemoryCommandPort {
	writeMode: () => WriteMode;
	store?: MemoryCommandStore;
}

type Remember = Extract<MemoryCommandDecision, { action: 'remember' }>;

const TARGET_LABEL = {
	research: 'research memory',
	profile: 'your profile',
	instruction: 'a standing instruction',
} as const;
const TIER_LABEL = { research: 'research memory', profile: 'profile', instruction: 'standing instruction' } as const;
const SHOWN_CHARS = 200;

const clean = (text: string) => redactSecrets(text, '').text;
const shown = (text: string) => {
	const t = clean(text).replace(/\s+/g, ' ').trim();
	return t.length > SHOWN_CHARS ? `${t.slice(0, SHOWN_CHARS - 1)}…` : t;
};

/**
 * The records a remember command writes: its text, in its target tier. A profile text is a fact
 * when it parses as one ("my timezone is CET", "call me Sam"), else — like "I prefer pnpm", which
 * the rules call an instruction too — a standing instruction, keyed as the write path keys them
 * (so a confirm-mode chip and its approval store the same row).
 */
export function commandRecords(c: Remember): PersistRecord[] {
	if (c.target === 'research') return [{ tier: 'research', kind: 'note', question: c.text, answer: '' }];
	const p =
		(c.target === 'profile' ? parseProfileStatement(c.text, 'statement') : null) ??
		parseProfileStatement(c.text, 'instruction');
	return p ? [{ tier: 'profile', kind: p.kind, key: p.key, value: p.value, question: c.text }] : [];
}

/** The reply to a remember command, worded for the write mode and trust in force. */
export function rememberReply(c: Remember, mode: WriteMode | null, restricted: boolean): string {
	const quoted = `“${shown(c.text)}”`;
	if (restricted)
		return `Not remembered: this workspace is in Restricted Mode, where memory is read-only. Nothing was written (${quoted}). Trust the workspace to let me remember.`;
	if (mode === null) return `Not remembered: this session writes nothing to memory (${quoted}).`;
	if (mode === 'off')
		return `Not remembered: memory writes are off (\`gatedMemory.memory.writes\`), so nothing was written (${quoted}).`;
	if (mode === 'confirm')
		return `To remember in ${TARGET_LABEL[c.target]}: ${quoted}. Approve it in the *Remember this?* chip below — memory writes wait for your approval (\`gatedMemory.memory.writes\` is \`confirm\`).`;
	return `Remembered in ${TARGET_LABEL[c.target]}: ${quoted}. Say “forget that …” to remove it.`;
}

/** The forget reply: what was forgotten (with Undo), the matches to pick from, or that nothing matched. */
export async function forgetReply(
	port: MemoryCommandPort | undefined,
	query: string,
	result: GateResult,
	thresholds: Thresholds,
	restricted: boolean,
): Promise<{ markdown: string; plans: ActionPlan[]; steps: TraceStep[] }> {
	const about = `“${shown(query)}”`;
	if (restricted)
		return plain(
			`Nothing forgotten: this workspace is in Restricted Mode, where memory is read-only. Trust the workspace to change memory (${about}).`,
		);
	if (!port?.store) return plain(`Nothing forgotten: this session cannot change memory (${about}).`);
	const floor = thresholds.forget_match_min_overlap;
	let candidates: ForgetCandidate[];
	try {
		candidates = await port.store.candidates(query, result, thresholds);
	} catch (e) {
		return plain(`Nothing forgotten: memory could not be searched (${errorMessage(e)}).`, 'warn');
	}
	const choice = chooseForget(query, candidates, floor);
	const steps: TraceStep[] = [];
	if (choice.kind === 'none') {
		const nearest = choice.nearest
			? ` The closest, “${shown(choice.nearest.text)}”, shares ${pct(choice.nearest.overlap)} of its words (at least ${pct(floor)} needed).`
			: '';
		steps.push(note('info', `forget ${about}: ${candidates.length} candidates, none at the floor ${floor}`));
		return {
			markdown: `Nothing in memory matched ${about}, so nothing was forgotten.${nearest}`,
			plans: [],
			steps,
		};
	}
	if (choice.kind === 'several') {
		const list = choice.candidates.map((c, i) => `${i + 1}. ${TIER_LABEL[c.tier]}: “${shown(c.text)}”`).join('\n');
		steps.push(
			note(
				'info',
				`forget ${about}: ${choice.candidates.length} matches, none clearly meant (${choice.candidates.map((c) => `${c.id} ${c.overlap.toFixed(2)}`).join(', ')}): asked which`,
			),
		);
		return {
			markdown: `Several memories match ${about}. Which one should I forget? Nothing is forgotten until you pick.\n\n${list}\n\nClick *Forget* on the one you mean, or say “forget that …” with more of its words.`,
			plans: choice.candidates.map((c, i) =>
				plan(`forget-${i + 1}`, `Forget ${i + 1}`, `${TIER_LABEL[c.tier]}: ${shown(c.text)}`, {
					kind: 'memory',
					op: 'forget',
					targets: [{ tier: c.tier, workspaceId: c.workspaceId, id: c.id, text: c.text }],
				}),
			),
			steps,
		};
	}
	const t = choice.target;
	let items: ForgottenItem[];
	try {
		items = await port.store.forget([t]);
	} catch (e) {
		return plain(`Nothing forgotten: the store failed (${errorMessage(e)}).`, 'warn');
	}
	if (!items.length) return plain(`Nothing forgotten: “${shown(t.text)}” is no longer stored.`);
	steps.push(note('info', `forgot ${TIER_LABEL[t.tier]} ${t.id} (overlap ${t.overlap.toFixed(2)} ≥ floor ${floor})`));
	return {
		markdown: `Forgotten (${TIER_LABEL[t.tier]}): “${shown(t.text)}”. It will not be recalled again. *Undo* below puts it back.`,
		plans: [
			plan('undo-forget', 'Undo', `restore ${TIER_LABEL[t.tier]}: ${shown(t.text)}`, {
				kind: 'memory',
				op: 'restore',
				items,
			}),
		],
		steps,
	};
}

/** Runs a clicked memory action (Undo, or forgetting a listed match). */
export async function runMemoryAction(
	port: MemoryCommandPort | undefined,
	run: Extract<RunnableAction, { kind: 'memory' }>,
): Promise<{ status: 'ran' | 'failed' | 'unavailable'; message: string }> {
	if (!port?.store) return { status: 'unavailable', message: 'This session cannot change memory.' };
	try {
		if (run.op === 'restore') {
			const n = await port.store.restore(run.items);
			return { status: 'ran', message: n ? `Restored: ${run.items.map(itemText).join('; ')}` : 'Already restored.' };
		}
		const items = await port.store.forget(run.targets);
		return items.length
			? { status: 'ran', message: `Forgotten: ${items.map(itemText).join('; ')}` }
			: { status: 'unavailable', message: 'That memory is no longer stored.' };
	} catch (e) {
		return { status: 'failed', message: errorMessage(e) };
	}
}

function itemText(it: ForgottenItem): string {
	return `“${shown(it.tier === 'research' ? it.content : it.value)}”`;
}

function plan(id: string, label: string, detail: string, run: RunnableAction): ActionPlan {
	return { action: { id, kind: 'memory', label, detail, confirm: null }, run };
}

function plain(
	markdown: string,
	level: 'info' | 'warn' = 'info',
): { markdown: string; plans: ActionPlan[]; steps: TraceStep[] } {
	return { markdown, plans: [], steps: [note(level, markdown)] };
}

function note(level: 'info' | 'warn', message: string): TraceStep {
	return { kind: 'note', stage: 'memory_command', level, message };
}

function pct(x: number): string {
	return `${Math.round(x * 100)} %`;
}
