/**
 * The vocabulary of one chat turn's decision. Field names that appear in the `gmem gate` JSON
 * (see ../shared/CONTRACT.md) are snake_case here so the CLI can print these objects as they are.
 */
import type { DecisionTrace } from './trace';
import type { MemoryCommandDecision } from './decision/memoryCommandStage';

/** A message in the conversation window. A bare string in CLI input is a user turn. */
export interface HistoryTurn {
	role: 'user' | 'assistant';
	content: string;
}

/** Cheap, deterministic facts about the session that the host knows; none is a model call. */
export interface TurnContext {
	/** A stored profile (facts, preferences) exists for this user. */
	has_profile_data?: boolean;
	/** The workspace knowledge base holds indexed chunks. */
	has_workspace_index?: boolean;
	/** Research memory (past Q&A, decisions) holds rows. */
	has_research_memory?: boolean;
	/** Epoch ms of earlier user turns, oldest first (rapid-fire detection). */
	user_turn_times?: number[];
	/** Epoch ms of this turn. */
	now?: number;
	/** The workspace is untrusted (Restricted Mode): chat over the conversation only. */
	restricted?: boolean;
}

export interface TurnInput {
	id?: string | null;
	history: HistoryTurn[];
	utterance: string;
	context?: TurnContext;
}

export interface FollowupSignal {
	name: string;
	weight: number;
	/** The words that matched, for the trace. */
	match?: string;
}

export interface FollowupResult {
	score: number;
	is_followup: boolean;
	signals: FollowupSignal[];
}

/** Seed 004's retrieval trigger, in priority order. */
export const TRIGGERS = ['correction', 'instruction', 'recall', 'question', 'statement', 'greeting', 'ack'] as const;
export type Trigger = (typeof TRIGGERS)[number];

export const INTENTS = [
	'greeting',
	'acknowledgement',
	'privacy',
	'profile_statement',
	'profile_question',
	'workspace_question',
	'continuation',
	'general',
	'correction',
	'instruction',
	'recall',
	'meta',
	'testing',
] as const;
export type Intent = (typeof INTENTS)[number];

export const BEHAVIOR_MODES = [
	'standard',
	'greeting',
	'repetition_aware',
	'testing_aware',
	'meta_aware',
	'frustration_recovery',
	'rapid_fire',
	'exploratory',
] as const;
export type BehaviorMode = (typeof BEHAVIOR_MODES)[number];

/** Seed 001's answer paths. `tool` = live editor state (diagnostics, git, selection, terminal). */
export const ANSWER_PATHS = ['direct', 'tool', 'rag', 'clarify', 'refuse'] as const;
export type AnswerPath = (typeof ANSWER_PATHS)[number];

/** Stored tiers, in contract order. The conversation window is never a tier. */
export const TIERS = ['workspace', 'research', 'profile'] as const;
export type Tier = (typeof TIERS)[number];

export const WRITE_TIERS = ['research', 'profile'] as const;
export type WriteTier = (typeof WRITE_TIERS)[number];

/** The behaviour engine's output: how the turn should feel, and retrieval volume modulation. */
export interface BehaviorDecision {
	mode: BehaviorMode;
	skip_retrieval: boolean;
	reduce_retrieval: boolean;
	boost_retrieval: boolean;
	/** Why this mode, for the trace. */
	reason: string;
}

/** The policy engine's output: what to retrieve, from where, how much, how strict. */
export interface PolicyDecision {
	inject_profile: boolean;
	inject_rag: boolean;
	inject_qa_history: boolean;
	use_curated_history: boolean;
	privacy_mode: boolean;
	route: string;
	rag_k: number;
	rag_min_similarity: number;
	qa_k: number;
	qa_min_similarity: number;
}

/** Everything `gmem gate` prints for one turn (CONTRACT.md), plus the full policy. */
export interface GateResult {
	id: string | null;
	followup: FollowupResult;
	trigger: Trigger;
	intent: Intent;
	mode: BehaviorMode;
	path: AnswerPath;
	retrieve: boolean;
	tiers: Tier[];
	write: WriteTier[];
	route: string;
	policy: PolicyDecision;
	trace: DecisionTrace;
	/** Present only for an explicit "remember that …" / "forget that …" turn (additive to CONTRACT.md's object). */
	memory_command?: MemoryCommandDecision;
}
