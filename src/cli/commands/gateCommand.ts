/**
 * `gmem gate [--in FILE] [--config FILE] [--pretty]`: runs the decision core over JSON Lines turns
 * and prints one JSON line per input line (CONTRACT.md). A bad line yields an error object and
 * processing continues; only a bad command line or config exits non-zero.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decideTurn } from '../../core/decide';
import { resolveThresholds, type Thresholds } from '../../core/thresholds';
import type { GateResult, HistoryTurn, TurnContext, TurnInput } from '../../core/types';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { readLines } from '../jsonl';

const USAGE = `usage: gmem gate [--in FILE] [--config FILE] [--pretty]

Decides, for each turn, whether to retrieve, where, how much and along which answer path.

  --in FILE      JSON Lines input (default: standard input). One turn per line:
                 {"id", "history": [string | {"role": "user"|"assistant", "content"}], "utterance", "context"?}
                 A bare string in history is a user turn; "context" is passed through as TurnContext.
  --config FILE  JSON object {threshold_name: value} overriding the thresholds table.
  --pretty       Indent each output object (not JSON Lines any more; for reading).

Output, one line per input line: {"id", "followup", "trigger", "intent", "mode", "path", "retrieve",
"tiers", "write", "route", "policy", "trace"}; a bad line gives {"id", "line", "error"}.
`;

const CONTEXT_BOOLEANS = ['has_profile_data', 'has_workspace_index', 'has_research_memory', 'restricted'] as const;

/** Loads `--config FILE` into a thresholds table; any problem is a usage error (exit 1). */
export function loadConfig(file: string | undefined, cwd: string): Thresholds {
	let raw: unknown = undefined;
	if (file) {
		try {
			raw = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
		} catch (e) {
			throw new UsageError(`cannot read config ${file}: ${e instanceof Error ? e.message : String(e)}`);
		}
	}
	const resolved = resolveThresholds(raw);
	if (!resolved.ok) throw new UsageError(`config ${file}: ${resolved.error.join('; ')}`);
	return resolved.value;
}

function parseHistory(value: unknown): HistoryTurn[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) throw new Error('"history" must be an array');
	return value.map((h, i) => {
		if (typeof h === 'string') return { role: 'user', content: h };
		if (h && typeof h === 'object') {
			const { role, content } = h as { role?: unknown; content?: unknown };
			if ((role === 'user' || role === 'assistant') && typeof content === 'string') return { role, content };
		}
		throw new Error(`history[${i}] must be a string or {"role": "user"|"assistant", "content": string}`);
	});
}

function parseContext(value: unknown): TurnContext | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'object' || Array.isArray(value)) throw new Error('"context" must be an object');
	const v = value as Record<string, unknown>;
	const ctx: TurnContext = {};
	for (const key of CONTEXT_BOOLEANS) {
		if (v[key] === undefined) continue;
		if (typeof v[key] !== 'boolean') throw new Error(`context.${key} must be a boolean`);
		ctx[key] = v[key];
	}
	if (v.now !== undefined) {
		if (typeof v.now !== 'number' || !Number.isFinite(v.now))
			throw new Error('context.now must be a number (epoch ms)');
		ctx.now = v.now;
	}
	if (v.user_turn_times !== undefined) {
		if (
			!Array.isArray(v.user_turn_times) ||
			!v.user_turn_times.every((x) => typeof x === 'number' && Number.isFinite(x))
		) {
			throw new Error('context.user_turn_times must be an array of numbers (epoch ms)');
		}
		ctx.user_turn_times = v.user_turn_times as number[];
	}
	return ctx;
}

/** Parses one input line into a turn; throws with a message for the error object. */
export function parseTurnLine(obj: unknown): TurnInput {
	if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('a line must be a JSON object');
	const o = obj as Record<string, unknown>;
	if (o.id !== undefined && o.id !== null && typeof o.id !== 'string' && typeof o.id !== 'number')
		throw new Error('"id" must be a string, a number or null');
	if (typeof o.utterance !== 'string') throw new Error('"utterance" must be a string');
	const id = o.id === undefined || o.id === null ? null : String(o.id);
	return { id, history: parseHistory(o.history), utterance: o.utterance, context: parseContext(o.context) };
}

function idOf(obj: unknown): string | number | null {
	if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
		const id = (obj as Record<string, unknown>).id;
		if (typeof id === 'string' || typeof id === 'number') return id;
	}
	return null;
}

/** The contract's key order: the decision first, the full policy and the trace last (also `gmem mcp`'s decide_turn). */
export function gateOutput(r: GateResult): Record<string, unknown> {
	return {
		id: r.id,
		followup: r.followup,
		trigger: r.trigger,
		intent: r.intent,
		mode: r.mode,
		path: r.path,
		retrieve: r.retrieve,
		tiers: r.tiers,
		write: r.write,
		route: r.route,
		// Only for an explicit "remember that …" / "forget that …" (additive; docs/decision-trace.md).
		...(r.memory_command ? { memory_command: r.memory_command } : {}),
		policy: r.policy,
		trace: r.trace,
	};
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values } = parseCommandArgs(
		argv,
		{ in: { type: 'string' }, config: { type: 'string' }, pretty: { type: 'boolean' } },
		false,
	);
	const thresholds = loadConfig(values.config, io.cwd);
	const indent = values.pretty ? 2 : undefined;
	const inFile = values.in && values.in !== '-' ? resolve(io.cwd, values.in) : undefined;
	if (inFile && !existsSync(inFile)) throw new UsageError(`--in ${values.in}: no such file`);
	for await (const { line, text } of readLines(inFile, io)) {
		let parsed: unknown = undefined;
		try {
			parsed = JSON.parse(text);
			const turn = parseTurnLine(parsed);
			io.stdout(JSON.stringify(gateOutput(decideTurn(turn, { thresholds })), null, indent) + '\n');
		} catch (e) {
			const error = e instanceof Error ? e.message : String(e);
			io.stdout(JSON.stringify({ id: idOf(parsed), line, error }) + '\n');
		}
	}
	return EXIT_OK;
}

/** The `gmem gate` command. */
export const gateCommand: CliCommand = {
	name: 'gate',
	summary: 'decide retrieval, tiers, answer path and writes for JSON Lines turns',
	usage: USAGE,
	run,
};
