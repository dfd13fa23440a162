/**
 * The decision trace: one versioned JSON object per turn that says which gates fired, why, and
 * what each later stage (retrieval, rerank, evidence, generation) did. Steps form a discriminated
 * union on `kind`. The format is documented in docs/decision-trace.md; bump TRACE_VERSION on any
 * breaking change.
 */
import type { AnswerPath, BehaviorMode, Intent, Tier, Trigger, WriteTier } from './types';
import type { MemoryCommandDecision } from './decision/memoryCommandStage';

export const TRACE_VERSION = 1;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One rule-based gate of the decision core (follow-up, trigger, intent, behaviour, policy, path…). */
export interface GateStep {
	kind: 'gate';
	gate: string;
	inputs: Record<string, JsonValue>;
	value: JsonValue;
	/** The threshold compared against, when the gate has one. */
	threshold: number | null;
	fired: boolean;
	/** What firing (or not) changed, in words. */
	effect: string;
	us: number;
}

export const HOOK_POINTS = ['policy_override', 'before_generation', 'after_generation', 'before_persist'] as const;
export type HookPoint = (typeof HOOK_POINTS)[number];

export interface HookStep {
	kind: 'hook';
	point: HookPoint;
	name: string;
	status: 'ok' | 'error';
	error?: string;
	/** Names of the fields the hook changed. */
	changed: string[];
	us: number;
}

export interface ArmScore {
	rank: number;
	score: number;
}

/** One retrieved chunk as the trace records it (same shape as a `gmem search` hit). */
export interface TraceHit {
	id: string;
	chunk_id: string;
	path: string | null;
	start_line: number | null;
	end_line: number | null;
	symbol: string | null;
	score: number;
	fused: number;
	arms: { fts: ArmScore | null; vector: ArmScore | null };
	rerank: { score: number; status: 'model' | 'passthrough' } | null;
}

export interface RetrievalStep {
	kind: 'retrieval';
	tier: Tier;
	query: string;
	searched_query: string;
	arm_mode: 'hybrid' | 'fts' | 'vector';
	k: number;
	floor: number | null;
	hits: TraceHit[];
	ms: number;
}

export interface RerankStep {
	kind: 'rerank';
	status: 'model' | 'passthrough';
	reason?: string;
	pairs: number;
	ms: number;
	/** The reranker's id (absent: none configured). */
	model?: string;
	/** true: the reranker's scores only ordered the pool; floors and abstention stayed on cosine. */
	order_only?: boolean;
}

export interface EvidenceStep {
	kind: 'evidence';
	selected: string[];
	dropped: { id: string; reason: string }[];
	abstained: boolean;
	reason: string;
	tokens: number;
	budget: number;
}

export interface GenerationStep {
	kind: 'generation';
	generator: string;
	model?: string;
	status: 'ok' | 'cancelled' | 'error';
	error?: string;
	ms: number;
}

/** Free-form remark from any stage (a fallback taken, a tier skipped because it is empty…). */
export interface NoteStep {
	kind: 'note';
	stage: string;
	level: 'info' | 'warn' | 'error';
	message: string;
}

export type TraceStep = GateStep | HookStep | RetrievalStep | RerankStep | EvidenceStep | GenerationStep | NoteStep;

export interface TraceDecisionSummary {
	trigger: Trigger;
	intent: Intent;
	mode: BehaviorMode;
	path: AnswerPath;
	retrieve: boolean;
	tiers: Tier[];
	write: WriteTier[];
	route: string;
	followup_score: number;
	rag_k: number;
	qa_k: number;
	rag_min_similarity: number;
	qa_min_similarity: number;
	/** An explicit memory command (present only then): what to remember, or what to forget. */
	memory_command?: MemoryCommandDecision;
}

export interface StageTiming {
	stage: string;
	us: number;
}

export interface DecisionTrace {
	version: typeof TRACE_VERSION;
	turn_id: string | null;
	steps: TraceStep[];
	decision: TraceDecisionSummary;
	timings: StageTiming[];
	total_us: number;
}
