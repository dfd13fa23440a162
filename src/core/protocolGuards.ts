/**
 * Runtime type guards for everything that crosses the host⇄webview boundary, built from a few
 * small combinators. Pure: imports only core type modules, so the webview bundle may use it
 * through `protocol.ts`.
 *
 * The shapes are typed against the TypeScript interfaces (`Shape<T>` demands one guard per
 * field, `Variants<U>` one per `kind`), so adding a field or a trace step kind without a guard is
 * a compile error here rather than a message silently dropped at run time.
 */
import { HOOK_POINTS, TRACE_VERSION, type DecisionTrace, type JsonValue, type TraceHit, type TraceStep } from './trace';
import { ANSWER_PATHS, BEHAVIOR_MODES, INTENTS, TIERS, TRIGGERS, WRITE_TIERS } from './types';

/** A predicate that narrows `unknown` to `T`. */
export type Guard<T> = (x: unknown) => x is T;

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** One guard per property of `T`; optional properties take a guard that also accepts `undefined`. */
export type Shape<T> = { [K in keyof T]-?: K extends OptionalKeys<T> ? Guard<T[K] | undefined> : Guard<T[K]> };

/** One guard per member of a union discriminated on `kind`. */
export type Variants<U extends { kind: string }> = { [K in U['kind']]: Guard<Extract<U, { kind: K }>> };

/** A plain object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
	return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export const isString: Guard<string> = (x): x is string => typeof x === 'string';
export const isBoolean: Guard<boolean> = (x): x is boolean => typeof x === 'boolean';
/** A finite number: NaN and Infinity never describe a real measurement. */
export const isNumber: Guard<number> = (x): x is number => typeof x === 'number' && Number.isFinite(x);
export const isNull: Guard<null> = (x): x is null => x === null;

/** Accepts `undefined` (a missing optional field) or whatever `g` accepts. */
export function optional<T>(g: Guard<T>): Guard<T | undefined> {
	return (x): x is T | undefined => x === undefined || g(x);
}

/** Accepts `null` or whatever `g` accepts. */
export function nullable<T>(g: Guard<T>): Guard<T | null> {
	return (x): x is T | null => x === null || g(x);
}

/** One of a fixed list of literals (the `as const` vocabularies in types.ts). */
export function oneOf<const L extends readonly (string | number)[]>(values: L): Guard<L[number]> {
	return (x): x is L[number] => (typeof x === 'string' || typeof x === 'number') && values.includes(x);
}

/** An array whose every element passes `g`. */
export function arrayOf<T>(g: Guard<T>): Guard<T[]> {
	return (x): x is T[] => Array.isArray(x) && x.every((item) => g(item));
}

/** A string-keyed record whose every value passes `g`. */
export function recordOf<T>(g: Guard<T>): Guard<Record<string, T>> {
	return (x): x is Record<string, T> => isRecord(x) && Object.values(x).every((v) => g(v));
}

/** An object with every field of `shape` valid. Extra fields are allowed (forward compatibility). */
export function object<T>(shape: Shape<T>): Guard<T> {
	const entries = Object.entries(shape) as [string, Guard<unknown>][];
	return (x): x is T => isRecord(x) && entries.every(([key, g]) => g(x[key]));
}

/** A member of a union discriminated on `kind`, checked with that member's guard. */
export function discriminated<U extends { kind: string }>(variants: Variants<U>): Guard<U> {
	const table: Record<string, Guard<unknown>> = variants;
	return (x): x is U => {
		if (!isRecord(x) || typeof x.kind !== 'string') return false;
		const g = Object.prototype.hasOwnProperty.call(table, x.kind) ? table[x.kind] : undefined;
		return g !== undefined && g(x);
	};
}

/** Any JSON value (trace step inputs and gate values are free-form JSON). */
export const isJsonValue: Guard<JsonValue> = (x): x is JsonValue => {
	if (x === null || isString(x) || isNumber(x) || isBoolean(x)) return true;
	if (Array.isArray(x)) return x.every((v) => isJsonValue(v));
	return isRecord(x) && Object.values(x).every((v) => isJsonValue(v));
};

const isArmScore = nullable(object<{ rank: number; score: number }>({ rank: isNumber, score: isNumber }));
const isTier = oneOf(TIERS);

const isTraceHit = object<TraceHit>({
	id: isString,
	chunk_id: isString,
	path: nullable(isString),
	start_line: nullable(isNumber),
	end_line: nullable(isNumber),
	symbol: nullable(isString),
	score: isNumber,
	fused: isNumber,
	arms: object({ fts: isArmScore, vector: isArmScore }),
	rerank: nullable(object({ score: isNumber, status: oneOf(['model', 'passthrough'] as const) })),
});

/** Every trace step kind of trace.ts, one guard each. */
export const isTraceStep: Guard<TraceStep> = discriminated<TraceStep>({
	gate: object({
		kind: oneOf(['gate'] as const),
		gate: isString,
		inputs: recordOf(isJsonValue),
		value: isJsonValue,
		threshold: nullable(isNumber),
		fired: isBoolean,
		effect: isString,
		us: isNumber,
	}),
	hook: object({
		kind: oneOf(['hook'] as const),
		point: oneOf(HOOK_POINTS),
		name: isString,
		status: oneOf(['ok', 'error'] as const),
		error: optional(isString),
		changed: arrayOf(isString),
		us: isNumber,
	}),
	retrieval: object({
		kind: oneOf(['retrieval'] as const),
		tier: isTier,
		query: isString,
		searched_query: isString,
		arm_mode: oneOf(['hybrid', 'fts', 'vector'] as const),
		k: isNumber,
		floor: nullable(isNumber),
		hits: arrayOf(isTraceHit),
		ms: isNumber,
	}),
	rerank: object({
		kind: oneOf(['rerank'] as const),
		status: oneOf(['model', 'passthrough'] as const),
		reason: optional(isString),
		pairs: isNumber,
		ms: isNumber,
		model: optional(isString),
		order_only: optional(isBoolean),
	}),
	evidence: object({
		kind: oneOf(['evidence'] as const),
		selected: arrayOf(isString),
		dropped: arrayOf(object<{ id: string; reason: string }>({ id: isString, reason: isString })),
		abstained: isBoolean,
		reason: isString,
		tokens: isNumber,
		budget: isNumber,
	}),
	generation: object({
		kind: oneOf(['generation'] as const),
		generator: isString,
		model: optional(isString),
		status: oneOf(['ok', 'cancelled', 'error'] as const),
		error: optional(isString),
		ms: isNumber,
	}),
	note: object({
		kind: oneOf(['note'] as const),
		stage: isString,
		level: oneOf(['info', 'warn', 'error'] as const),
		message: isString,
	}),
});

/** A complete decision trace of the current TRACE_VERSION. */
export const isDecisionTrace: Guard<DecisionTrace> = object<DecisionTrace>({
	version: oneOf([TRACE_VERSION] as const),
	turn_id: nullable(isString),
	steps: arrayOf(isTraceStep),
	decision: object({
		trigger: oneOf(TRIGGERS),
		intent: oneOf(INTENTS),
		mode: oneOf(BEHAVIOR_MODES),
		path: oneOf(ANSWER_PATHS),
		retrieve: isBoolean,
		tiers: arrayOf(isTier),
		write: arrayOf(oneOf(WRITE_TIERS)),
		route: isString,
		followup_score: isNumber,
		rag_k: isNumber,
		qa_k: isNumber,
		rag_min_similarity: isNumber,
		qa_min_similarity: isNumber,
	}),
	timings: arrayOf(object<{ stage: string; us: number }>({ stage: isString, us: isNumber })),
	total_us: isNumber,
});
