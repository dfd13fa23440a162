/**
 * Confirm-mode memory (`gatedMemory.memory.writes: confirm`, #19): the records a turn's decision
 * would write become pending proposals in the store (they survive a window reload), shown under
 * the reply as "Remember this?" chips. Approve writes through the same write path as `auto`
 * (memoryWriter.persistTurn: secrets redacted, corrections superseding, duplicates merged); Edit
 * stores the edited text; Discard writes nothing and is recorded (in the proposal row and as a
 * trace note on the turn). Restricted Mode writes nothing. No `vscode`.
 */
import type { PersistRecord } from '../core/hooks';
import type { ProposalKind, ProposalView } from '../core/protocol';
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { Trigger, WriteTier } from '../core/types';
import { redactSecrets } from '../indexing/secretScan';
import type { Embedder } from '../models/embedder';
import { contentHash } from '../retrieval/ingest';
import {
	normalise,
	parseProfileStatement,
	persistTurn,
	type TurnWrite,
	type WriteReport,
} from '../retrieval/memoryWriter';
import type { Store } from '../store/openStore';
import {
	decideProposal,
	insertProposal,
	pendingProposals,
	proposalById,
	type ProposalRow,
} from '../store/proposalRepo';
import { anchorApproved } from './memoryFreshness';
import { appendStoredTurnSteps, storedTurnTrace } from '../store/turnTraceRepo';
import { errorMessage, type Logger } from './logger';
import type { ProposalSink } from './memoryWriteGate';
import type { PersistRequest } from './turnPersistence';

/** Longest memory text an edit may store (a memory is a sentence or a paragraph, not a file). */
export const MAX_MEMORY_TEXT = 4000;

export interface MemoryProposalsDeps {
	log: Logger;
	openStore: () => Promise<Store>;
	embedder: () => Promise<Embedder | null>;
	/** Workspace ids of the window's folders, first = memory owner (as turnStore.ts). */
	workspaceIds: () => readonly string[];
	thresholds: () => Thresholds;
	isRestricted: () => boolean;
}

/** The result of Approve / Discard: shown on the chip; `steps` go onto the turn's trace. */
export interface ProposalDecision {
	ok: boolean;
	message: string;
	turnId: string | null;
	steps: TraceStep[];
}

const clean = (text: string) => redactSecrets(text, '').text;

/** What a proposal is, for its label (a correction, an instruction, a profile fact, a Q&A). */
export function proposalKind(tier: WriteTier, trigger: string): ProposalKind {
	if (tier === 'profile') return trigger === 'instruction' ? 'instruction' : 'profile';
	return trigger === 'correction' ? 'correction' : 'qa';
}

/** The text a record would store: the utterance for corrections and profile statements, Q + A for a Q&A. */
export function proposalText(tier: WriteTier, trigger: string, question: string, answer: string): string {
	return tier === 'research' && trigger !== 'correction' && answer !== '' ? `Q: ${question}\nA: ${answer}` : question;
}

/** The pending proposals and this session's decisions, as chips; persistence lives in the store. */
export class MemoryProposals implements ProposalSink {
	/** Decisions made in this window (the chip shows them until the panel reloads). */
	private readonly decided = new Map<string, ProposalView>();
	private readonly listeners = new Set<() => void>();

	constructor(private readonly deps: MemoryProposalsDeps) {}

	/** Called when the list changes (a turn proposed, one was decided). */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Confirm mode's half of the write path: one pending proposal per write tier. Rejects on store errors. */
	async propose(r: PersistRequest): Promise<TraceStep[]> {
		const workspaceId = this.deps.workspaceIds()[0];
		if (workspaceId === undefined) return [note('info', 'no workspace folder open: nothing proposed')];
		const store = await this.deps.openStore();
		const question = clean(r.utterance);
		const answer = clean(r.answer);
		const made: string[] = [];
		for (const record of r.records) {
			const tier = record.tier;
			const trigger = triggerOf(record);
			const recordQuestion = clean(record.question) || question;
			// A profile statement the write path cannot parse would store nothing: no chip for it.
			if (tier === 'profile' && parseProfileStatement(recordQuestion, trigger) === null) continue;
			const recordAnswer = record.tier === 'research' ? clean(record.answer) : answer;
			const text = proposalText(tier, trigger, recordQuestion, recordAnswer);
			const id = await insertProposal(store.db, {
				workspaceId,
				conversationId: r.conversationId,
				turnId: r.turnId,
				tier,
				trigger,
				question: recordQuestion,
				answer: recordAnswer,
				text,
			});
			made.push(`${tier} (proposal ${id})`);
		}
		if (made.length) this.changed();
		return [
			note(
				'info',
				made.length
					? `awaiting approval (gatedMemory.memory.writes: confirm): ${made.join(', ')}; nothing written yet`
					: 'nothing to propose',
			),
		];
	}

	/** Pending proposals of this window's workspaces plus this session's decisions, oldest first. */
	async list(): Promise<ProposalView[]> {
		const ids = this.deps.workspaceIds();
		if (!ids.length || this.deps.isRestricted()) return [...this.decided.values()];
		const store = await this.deps.openStore();
		const pending = (await pendingProposals(store.db, ids)).map(viewOf);
		return [...pending, ...[...this.decided.values()].filter((d) => !pending.some((p) => p.id === d.id))];
	}

	/** Approve: writes the proposal (or `edited`, when the user changed it) through the write path. Never rejects. */
	async approve(id: string, edited?: string): Promise<ProposalDecision> {
		if (this.deps.isRestricted())
			return this.refuse(
				id,
				'Restricted Mode: nothing is written to memory. Trust this workspace to approve memories.',
			);
		try {
			const store = await this.deps.openStore();
			const row = await proposalById(store.db, this.deps.workspaceIds(), id);
			if (!row) return this.refuse(id, 'That proposal is not in this workspace’s store any more.');
			if (row.status !== 'pending')
				return { ok: false, message: `That proposal was already ${row.status}.`, turnId: row.turn_id, steps: [] };
			const text = edited === undefined ? null : edited.trim();
			if (text === '') return this.refuse(id, 'An edited memory cannot be empty: edit it again or discard it.', row);
			if (text !== null && text.length > MAX_MEMORY_TEXT)
				return this.refuse(
					id,
					`An edited memory is at most ${MAX_MEMORY_TEXT} characters (this one has ${text.length}).`,
					row,
				);
			const isEdit = text !== null && text !== row.text;
			const report = await persistTurn(
				store.db,
				await this.deps.embedder(),
				this.deps.thresholds(),
				turnWrite(row, isEdit ? text : null),
			);
			const turn = { workspaceId: row.workspace_id, conversationId: row.conversation_id, turnId: row.turn_id };
			// Anchored like an auto write: to the workspace chunks the turn's evidence step selected.
			const anchored =
				report.research?.action === 'inserted'
					? await anchorApproved(store.db, this.deps.workspaceIds(), {
							workspaceId: row.workspace_id,
							docId: report.research.doc_id,
							steps: (await storedTurnTrace(store.db, turn))?.steps ?? [],
						})
					: null;
			const outcome = describe(report) + (anchored ? `; ${anchored}` : '');
			const storedText = isEdit ? clean(text) : row.text;
			await decideProposal(store.db, row.id, { status: 'approved', storedText, outcome });
			const message = `remembered${isEdit ? ' (edited)' : ''}: ${outcome}`;
			this.record(row, 'approved', message, storedText);
			const steps = [note('info', `approved by the user: ${message}`)];
			await appendStoredTurnSteps(store.db, turn, steps);
			return { ok: true, message, turnId: row.turn_id, steps };
		} catch (e) {
			this.deps.log.error(`approving memory proposal ${id} failed: ${errorMessage(e)}`);
			return {
				ok: false,
				message: `not saved to memory: ${errorMessage(e)}. The proposal is kept; try again.`,
				turnId: null,
				steps: [],
			};
		}
	}

	/** Discard: nothing is written; the proposal is closed and the turn's trace says so. Never rejects. */
	async discard(id: string): Promise<ProposalDecision> {
		try {
			const store = await this.deps.openStore();
			const row = await proposalById(store.db, this.deps.workspaceIds(), id);
			if (!row) return this.refuse(id, 'That proposal is not in this workspace’s store any more.');
			if (row.status !== 'pending')
				return { ok: false, message: `That proposal was already ${row.status}.`, turnId: row.turn_id, steps: [] };
			await decideProposal(store.db, row.id, { status: 'discarded', storedText: null, outcome: null });
			const message = `discarded: nothing written to ${row.tier === 'research' ? 'research memory' : 'the profile'}`;
			this.record(row, 'discarded', message, row.text);
			const steps = [note('info', `proposal ${row.id} ${message} (the user's choice)`)];
			// The stored turn says it too, not only the panel's history.
			await appendStoredTurnSteps(
				store.db,
				{ workspaceId: row.workspace_id, conversationId: row.conversation_id, turnId: row.turn_id },
				steps,
			);
			return { ok: true, message, turnId: row.turn_id, steps };
		} catch (e) {
			this.deps.log.error(`discarding memory proposal ${id} failed: ${errorMessage(e)}`);
			return { ok: false, message: `could not discard: ${errorMessage(e)}`, turnId: null, steps: [] };
		}
	}

	private refuse(id: string, message: string, row?: ProposalRow): ProposalDecision {
		if (row) this.decided.set(id, { ...viewOf(row), state: 'pending', note: message });
		this.changed();
		return { ok: false, message, turnId: row?.turn_id ?? null, steps: [] };
	}

	private record(row: ProposalRow, state: 'approved' | 'discarded', message: string, text: string): void {
		this.decided.set(row.id, { ...viewOf(row), text, state, note: message });
		this.changed();
	}

	private changed(): void {
		for (const l of this.listeners) l();
	}
}

/** The trigger a typed record stands for (proposals keep the trigger the write path's parsers read). */
function triggerOf(record: PersistRecord): Trigger {
	if (record.tier === 'research')
		return record.kind === 'correction' ? 'correction' : record.kind === 'qa' ? 'question' : 'statement';
	return record.kind === 'instruction' ? 'instruction' : 'statement';
}

/** The write a proposal stands for; an edit replaces the stored text (a Q&A edited becomes a note). */
export function turnWrite(row: ProposalRow, edited: string | null): TurnWrite {
	const trigger = row.trigger as Trigger;
	const base = { workspaceId: row.workspace_id, turnId: row.turn_id, trigger, write: [row.tier] };
	if (edited === null)
		return { ...base, question: row.question, answer: row.trigger === 'correction' ? '' : row.answer };
	if (row.tier === 'research') return { ...base, question: edited, answer: '' };
	const parsed = parseProfileStatement(edited, trigger) ?? {
		key: `note:${contentHash(normalise(edited)).slice(0, 12)}`,
		value: edited,
		kind: 'fact' as const,
	};
	return { ...base, question: edited, answer: '', profile: [parsed] };
}

function describe(r: WriteReport): string {
	const parts: string[] = [];
	if (r.research) parts.push(`research ${r.research.action} ${r.research.doc_id}`);
	if (r.superseded.length) parts.push(`superseded ${r.superseded.join(', ')}`);
	for (const p of r.profile) parts.push(`profile "${p.key}" ${p.changed ? 'updated' : 'unchanged'}`);
	return parts.join('; ') || 'nothing new';
}

function viewOf(row: ProposalRow): ProposalView {
	return {
		id: row.id,
		turnId: row.turn_id,
		tier: row.tier,
		kind: proposalKind(row.tier, row.trigger),
		text: row.text,
		state: 'pending',
	};
}

function note(level: 'info' | 'warn' | 'error', message: string): TraceStep {
	return { kind: 'note', stage: 'persist', level, message };
}
