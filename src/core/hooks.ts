/**
 * Hook points (seed 000): experiments change behaviour by registering functions, not by editing the
 * pipeline. A hook receives a copy of the payload and edits it in place; its edits are adopted only
 * if it returns normally. A hook that throws is recorded as a HookStep with status 'error' and the
 * turn goes on exactly as if it had not run. decideTurn runs `policy_override`; the host runs the
 * other three points with `HookRegistry.run` at the matching moments of a turn.
 */
import type { HookPoint, HookStep, JsonValue, TraceStep } from './trace';
import type { AnswerPath, BehaviorMode, Intent, PolicyDecision, Tier, Trigger, TurnInput, WriteTier } from './types';

export type { HookPoint } from './trace';
export { HOOK_POINTS } from './trace';

/** The editable part of a decision, as `policy_override` hooks see it. */
export interface PolicyOverridePayload {
	/** Read-only facts about the turn (edits to these are ignored). */
	readonly turn: {
		id: string | null;
		utterance: string;
		trigger: Trigger;
		intent: Intent;
		mode: BehaviorMode;
		followup_score: number;
	};
	path: AnswerPath;
	tiers: Tier[];
	write: WriteTier[];
	route: string;
	policy: PolicyDecision;
}

/** What the host is about to send to the model. */
export interface BeforeGenerationPayload {
	readonly turn: TurnInput;
	readonly route: string;
	system_prompt: string;
	/** Evidence and memory blocks, in prompt order. */
	context_blocks: string[];
}

/** The model's answer, before it is shown. */
export interface AfterGenerationPayload {
	readonly turn: TurnInput;
	readonly route: string;
	response: string;
}

/**
 * A research memory the host is about to write: a Q&A (`question` + `answer`), a correction (its
 * text in `question`; it supersedes what it contradicts, or the memory doc ids in `supersedes`),
 * a decision or a note. The writer stores exactly these fields: an edited `answer` is what lands.
 */
export interface ResearchRecord {
	tier: 'research';
	kind: 'qa' | 'decision' | 'correction' | 'note';
	question: string;
	answer: string;
	/** Memory doc ids this record replaces (a correction without them supersedes the best lexical match). */
	supersedes?: string[];
	/** Free-form tags for experiments (kept out of the stored row). */
	metadata?: { [key: string]: JsonValue };
}

/** A profile update the host is about to write: one current `value` per `key` (history kept). */
export interface ProfileRecord {
	tier: 'profile';
	kind: 'fact' | 'preference' | 'instruction';
	key: string;
	value: string;
	/** The user's words the update came from. */
	question: string;
	metadata?: { [key: string]: JsonValue };
}

/** One structured row the host is about to write to a tier; `before_persist` hooks edit or drop them. */
export type PersistRecord = ResearchRecord | ProfileRecord;

/** The writes that follow a turn; a hook may edit or drop them. */
export interface BeforePersistPayload {
	readonly turn: TurnInput;
	records: PersistRecord[];
}

/** Payload type per hook point. */
export interface HookPayloads {
	policy_override: PolicyOverridePayload;
	before_generation: BeforeGenerationPayload;
	after_generation: AfterGenerationPayload;
	before_persist: BeforePersistPayload;
}

/** A hook edits its payload in place; the return value is ignored. Hooks are synchronous. */
export type HookFn<P extends HookPoint> = (payload: HookPayloads[P]) => void;

/** Anything with a list of trace steps to append HookSteps to. */
export interface StepSink {
	steps: TraceStep[];
}

type Entry = { name: string; fn: (payload: never) => void };

/** Microsecond clock; `performance` is a global in Node and in browsers, so core stays import-free. */
export function defaultClock(): number {
	return performance.now() * 1000;
}

/** Hooks by point, run in registration order. */
export class HookRegistry {
	private readonly hooks = new Map<HookPoint, Entry[]>();

	constructor(private readonly clock: () => number = defaultClock) {}

	/** Registers `fn` at `point` under `name` (shown in the trace). Returns a disposer that removes it. */
	register<P extends HookPoint>(point: P, name: string, fn: HookFn<P>): () => void {
		const entry: Entry = { name, fn: fn as (payload: never) => void };
		const list = this.hooks.get(point) ?? [];
		list.push(entry);
		this.hooks.set(point, list);
		return () => {
			const current = this.hooks.get(point);
			const i = current ? current.indexOf(entry) : -1;
			if (current && i >= 0) current.splice(i, 1);
		};
	}

	/** Number of hooks registered at `point`. */
	count(point: HookPoint): number {
		return this.hooks.get(point)?.length ?? 0;
	}

	/**
	 * Runs every hook at `point` over `payload` and returns the resulting payload (the input itself
	 * when no hook is registered). Each hook works on a copy; a hook that throws leaves the payload
	 * as it was before it ran. One HookStep per hook is appended to `trace`.
	 */
	run<P extends HookPoint>(point: P, payload: HookPayloads[P], trace: StepSink): HookPayloads[P] {
		const list = this.hooks.get(point);
		if (!list || list.length === 0) return payload;
		let current = payload;
		for (const entry of [...list]) {
			const start = this.clock();
			const draft = structuredClone(current);
			try {
				(entry.fn as HookFn<P>)(draft);
				const changed = changedKeys(current, draft);
				current = draft;
				trace.steps.push(hookStep(point, entry.name, 'ok', changed, this.clock() - start));
			} catch (e) {
				const step = hookStep(point, entry.name, 'error', [], this.clock() - start);
				step.error = e instanceof Error ? e.message : String(e);
				trace.steps.push(step);
			}
		}
		return current;
	}
}

function hookStep(point: HookPoint, name: string, status: 'ok' | 'error', changed: string[], us: number): HookStep {
	return { kind: 'hook', point, name, status, changed, us: Math.max(0, Math.round(us * 10) / 10) };
}

/** Top-level fields whose JSON differs (the trace says what a hook changed, not how). */
function changedKeys(before: object, after: object): string[] {
	const a = before as Record<string, unknown>;
	const b = after as Record<string, unknown>;
	const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
	const out: string[] = [];
	for (const k of keys) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out.push(k);
	return out;
}
