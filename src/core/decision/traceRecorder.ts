/**
 * Collects the steps and stage timings of one decision. Timings come from an injected clock so
 * tests can make them deterministic; every figure is rounded to 0.1 µs.
 */
import type { GateStep, JsonValue, NoteStep, StageTiming, TraceStep } from '../trace';

/** Rounds a microsecond figure to one decimal, never negative. */
export function roundUs(us: number): number {
	return Math.max(0, Math.round(us * 10) / 10);
}

/** The fields of a gate step other than its kind and timing. */
export interface GateFields {
	gate: string;
	inputs: Record<string, JsonValue>;
	value: JsonValue;
	threshold?: number | null;
	fired: boolean;
	effect: string;
}

/** Append-only recorder for one turn's trace. */
export class TraceRecorder {
	readonly steps: TraceStep[] = [];
	readonly timings: StageTiming[] = [];
	private stageStart: number;

	constructor(private readonly clock: () => number) {
		this.stageStart = clock();
	}

	/** The current clock reading, for a gate's start time. */
	now(): number {
		return this.clock();
	}

	/**
	 * Records a gate step that started at `start` (a `now()` reading); returns the end reading so
	 * the next gate can start from it without another clock call.
	 */
	gate(fields: GateFields, start: number): number {
		const end = this.clock();
		const step: GateStep = {
			kind: 'gate',
			gate: fields.gate,
			inputs: fields.inputs,
			value: fields.value,
			threshold: fields.threshold ?? null,
			fired: fields.fired,
			effect: fields.effect,
			us: roundUs(end - start),
		};
		this.steps.push(step);
		return end;
	}

	/** Records a note (a fallback taken, an empty tier…). */
	note(stage: string, level: NoteStep['level'], message: string): void {
		this.steps.push({ kind: 'note', stage, level, message });
	}

	/**
	 * Closes the current stage: its time runs from the previous `endStage` (or construction) to
	 * `at` (a reading just taken, e.g. a gate's end) or to now.
	 */
	endStage(stage: string, at?: number): void {
		const now = at ?? this.clock();
		this.timings.push({ stage, us: roundUs(now - this.stageStart) });
		this.stageStart = now;
	}
}
