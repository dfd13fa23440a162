/**
 * What the `gmem eval` subcommands gate and ab share: reading labelled conversations and printing
 * aligned tables. Conversation files are JSON Lines in one of two shapes, mixable per line:
 *   - one message per line, grouped by `conversation_id` in file order:
 *     {"id", "conversation_id", "role": "user"|"assistant", "content", ...labels}
 *   - one turn per line, the `gmem gate` input plus labels: {"id", "history", "utterance", ...labels}
 * Labels (any subset; see docs/evaluation.md "Labelling rubric"): should_retrieve, tiers, path,
 * trigger, depends_on_context, relevant (corpus ids that answer the turn, used by `ab`).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
	ANSWER_PATHS,
	TIERS,
	TRIGGERS,
	WRITE_TIERS,
	type AnswerPath,
	type HistoryTurn,
	type Tier,
	type Trigger,
	type WriteTier,
} from '../core/types';
import { UsageError, type CliIo } from './cliTypes';
import { parseTurnLine } from './commands/gateCommand';
import { readLines } from './jsonl';

/** The gold labels of one user turn; absent fields are not scored. */
export interface TurnLabels {
	should_retrieve?: boolean;
	tiers?: Tier[];
	path?: AnswerPath;
	trigger?: Trigger;
	depends_on_context?: boolean;
	/** Tiers written after the turn (rubric: write). */
	write?: WriteTier[];
	relevant?: string[];
}

/** One user turn with everything said before it in its conversation. */
export interface LabelledTurn {
	id: string;
	conversationId: string;
	history: HistoryTurn[];
	utterance: string;
	labels: TurnLabels;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], name: string): T {
	if (typeof v !== 'string' || !allowed.includes(v as T))
		throw new Error(`"${name}" must be one of ${allowed.join(', ')}`);
	return v as T;
}

/** Validates the label fields of a row; throws with the field named. */
export function parseLabels(o: Record<string, unknown>): TurnLabels {
	const labels: TurnLabels = {};
	for (const key of ['should_retrieve', 'depends_on_context'] as const) {
		if (o[key] === undefined) continue;
		if (typeof o[key] !== 'boolean') throw new Error(`"${key}" must be a boolean`);
		labels[key] = o[key];
	}
	if (o.tiers !== undefined) {
		if (!Array.isArray(o.tiers)) throw new Error('"tiers" must be an array');
		const set = new Set(o.tiers.map((t) => oneOf(t, TIERS, 'tiers[]')));
		labels.tiers = TIERS.filter((t) => set.has(t)); // contract order, so sets compare as strings
	}
	if (o.write !== undefined) {
		if (!Array.isArray(o.write)) throw new Error('"write" must be an array');
		const set = new Set(o.write.map((t) => oneOf(t, WRITE_TIERS, 'write[]')));
		labels.write = WRITE_TIERS.filter((t) => set.has(t));
	}
	if (o.path !== undefined) labels.path = oneOf(o.path, ANSWER_PATHS, 'path');
	if (o.trigger !== undefined) labels.trigger = oneOf(o.trigger, TRIGGERS, 'trigger');
	if (o.relevant !== undefined) {
		if (!Array.isArray(o.relevant) || !o.relevant.every((x) => typeof x === 'string'))
			throw new Error('"relevant" must be an array of strings');
		labels.relevant = o.relevant as string[];
	}
	return labels;
}

/** Turns parsed so far, and the running history of each message-per-line conversation. */
interface ReadState {
	turns: LabelledTurn[];
	histories: Map<string, HistoryTurn[]>;
}

function addRow(o: Record<string, unknown>, line: number, state: ReadState): void {
	if (typeof o.utterance === 'string') {
		// The `gmem gate` shape: the history is given on the line.
		const turn = parseTurnLine(o);
		const conversationId = typeof o.conversation_id === 'string' ? o.conversation_id : (turn.id ?? `line-${line}`);
		state.turns.push({
			id: turn.id ?? `line-${line}`,
			conversationId,
			history: turn.history,
			utterance: turn.utterance,
			labels: parseLabels(o),
		});
		return;
	}
	if (typeof o.conversation_id !== 'string' || !o.conversation_id)
		throw new Error('a message line needs a "conversation_id" string (or give "utterance" and "history")');
	const role = oneOf(o.role, ['user', 'assistant'] as const, 'role');
	if (typeof o.content !== 'string') throw new Error('"content" must be a string');
	const history = state.histories.get(o.conversation_id) ?? [];
	state.histories.set(o.conversation_id, history);
	if (role === 'user') {
		const id =
			typeof o.id === 'string' || typeof o.id === 'number'
				? String(o.id)
				: `${o.conversation_id}-${history.length + 1}`;
		state.turns.push({
			id,
			conversationId: o.conversation_id,
			history: history.slice(),
			utterance: o.content,
			labels: parseLabels(o),
		});
	}
	history.push({ role, content: o.content });
}

/**
 * Reads a conversations file (the user's spelling in `file`, resolved against `io.cwd`). A bad
 * line is reported on stderr with its number and skipped; `bad` counts them.
 */
export async function readLabelledTurns(
	file: string,
	io: CliIo,
	command: string,
): Promise<{ turns: LabelledTurn[]; bad: number }> {
	const path = file === '-' ? file : resolve(io.cwd, file);
	if (path !== '-' && !existsSync(path)) throw new UsageError(`cannot read ${file}: no such file`);
	const state: ReadState = { turns: [], histories: new Map() };
	let bad = 0;
	for await (const { line, text } of readLines(path, io)) {
		try {
			const o = JSON.parse(text) as unknown;
			if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error('a line must be a JSON object');
			addRow(o as Record<string, unknown>, line, state);
		} catch (e) {
			bad++;
			io.stderr(`gmem eval ${command}: ${file} line ${line}: ${e instanceof Error ? e.message : String(e)}\n`);
		}
	}
	return { turns: state.turns, bad };
}

/** Number of distinct conversations among the turns. */
export function conversationCount(turns: readonly LabelledTurn[]): number {
	return new Set(turns.map((t) => t.conversationId)).size;
}

/** An aligned plain-text table: numbers right-aligned; the first column and a final "note" column left-aligned. */
export function formatTable(columns: readonly string[], rows: readonly (readonly string[])[]): string {
	const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
	const left = (i: number) => i === 0 || (i === columns.length - 1 && columns[i] === 'note');
	const fmt = (r: readonly string[]) =>
		r
			.map((x, i) => (left(i) ? x.padEnd(widths[i]!) : x.padStart(widths[i]!)))
			.join('  ')
			.trimEnd();
	return [fmt(columns), fmt(columns.map((_, i) => '-'.repeat(widths[i]!))), ...rows.map(fmt)].join('\n') + '\n';
}

/** A ratio to 3 decimals, or "n/a" when nothing was counted (a 0 there would read as a failure). */
export function fixed3(value: number, denominator = 1): string {
	return denominator === 0 ? 'n/a' : value.toFixed(3);
}

/** What a rule under evaluation decides for one turn (the fields the labels are compared with). */
export interface TurnPrediction {
	retrieve: boolean;
	tiers: Tier[];
	path: AnswerPath;
	trigger: Trigger;
	is_followup: boolean;
	/** Tiers written after the turn; a predictor without a write rule leaves it out (not scored). */
	write?: WriteTier[];
}

/** A rule set under evaluation: the product's decision core or a baseline. */
export interface Predictor {
	name: string;
	predict(turn: LabelledTurn): TurnPrediction;
}

/**
 * Prints an evaluation: the table, or one JSON object with `--json`; `--json-out FILE` also writes
 * the JSON object to FILE, so one run gives both the table and the data.
 */
export function emitEvaluation<T>(
	e: T,
	table: (e: T) => string,
	opts: { json?: boolean; 'json-out'?: string },
	io: CliIo,
): void {
	if (opts['json-out']) writeFileSync(resolve(io.cwd, opts['json-out']), JSON.stringify(e) + '\n');
	io.stdout(opts.json ? JSON.stringify(e) + '\n' : table(e));
}

/** The option definition and usage line for `--json-out`. */
export const JSON_OUT_OPTION = { 'json-out': { type: 'string' } } as const;
export const JSON_OUT_USAGE = '  --json-out FILE  Also write the JSON object to FILE (the table still goes to stdout).';
