/**
 * Host ⇄ chat-panel messages of `gatedMemory.memory.writes: confirm` (#19): the "Remember this?"
 * chips under replies and the user's Approve / Edit / Discard. Kept in their own module and
 * merged into protocol.ts's tables, so the main protocol gains only a few lines.
 */
import { arrayOf, isString, object, oneOf, optional, type Guard } from './protocolGuards';

/** What a proposal would write (the chip's label). */
export type ProposalKind = 'qa' | 'correction' | 'instruction' | 'profile';
export type ProposalState = 'pending' | 'approved' | 'discarded' | 'failed';

/** One proposed memory as the panel shows it. All strings are data (rendered with textContent). */
export interface ProposalView {
	id: string;
	/** The reply the chip sits under (the turn that proposed it). */
	turnId: string;
	tier: 'research' | 'profile';
	kind: ProposalKind;
	/** The text that would be stored (secrets already redacted). */
	text: string;
	state: ProposalState;
	/** After a decision: what happened, in plain words ("remembered as research memory:…", "discarded"). */
	note?: string;
}

/** host → webview: the proposals the panel should show (pending ones, plus this session's decisions). */
export interface MemoryProposalsParams {
	proposals: ProposalView[];
}

/** webview → host: Approve (with `text` when the user edited it). */
export interface MemoryApproveParams {
	id: string;
	text?: string;
}

export const PROPOSAL_KINDS = ['qa', 'correction', 'instruction', 'profile'] as const;
export const PROPOSAL_STATES = ['pending', 'approved', 'discarded', 'failed'] as const;

export const isProposalView: Guard<ProposalView> = object<ProposalView>({
	id: isString,
	turnId: isString,
	tier: oneOf(['research', 'profile'] as const),
	kind: oneOf(PROPOSAL_KINDS),
	text: isString,
	state: oneOf(PROPOSAL_STATES),
	note: optional(isString),
});

export const isMemoryProposalsParams: Guard<MemoryProposalsParams> = object<MemoryProposalsParams>({
	proposals: arrayOf(isProposalView),
});
export const isMemoryApproveParams: Guard<MemoryApproveParams> = object<MemoryApproveParams>({
	id: isString,
	text: optional(isString),
});
export const isMemoryDiscardParams: Guard<{ id: string }> = object<{ id: string }>({ id: isString });
