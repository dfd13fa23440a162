/**
 * `gmem eval followup FILE.jsonl`: measures follow-up detection against labelled turns (the CAsT
 * schema of ../shared/eval/README.md). Only later turns count: on a first turn nothing can be a
 * follow-up, and counting them would flatter every rule.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { scoreFollowup } from '../core/followup/followupScorer';
import {
	binaryMetrics,
	emptyConfusion,
	tally,
	type BinaryMetrics,
	type Confusion,
} from '../core/metrics/binaryMetrics';
import type { Thresholds } from '../core/thresholds';
import type { HistoryTurn } from '../core/types';
import { parseCommandArgs } from './args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { loadConfig } from './commands/gateCommand';
import { readLines } from './jsonl';

const USAGE = `usage: gmem eval followup FILE.jsonl [--json] [--config FILE] [--half even|odd]

Scores every turn after the first and compares the decision with its label.
Rows: {"id", "conversation_id", "turn", "history": [string | {"role", "content"}], "utterance",
"depends_on_context": bool}. Rules compared: gated-memory (this scorer), seed-000 (the seed's
reference weights), every-later-turn (the trivial rule).

  --json         One JSON object instead of the table.
  --config FILE  JSON object {threshold_name: value} overriding the thresholds table.
  --half H       Only conversations whose id ends in an even / odd number (held-out checks).
`;

/** One labelled turn. */
export interface FollowupRow {
	id: string | null;
	conversationId: string | null;
	history: HistoryTurn[];
	utterance: string;
	label: boolean;
}

/** A rule under evaluation: decides from the turn alone. */
type Rule = (row: FollowupRow, t: Thresholds) => boolean;

const RULES: ReadonlyArray<[string, Rule]> = [
	['gated-memory', (r, t) => scoreFollowup(r.utterance, r.history, t).is_followup],
	['seed-000', (r) => seedReferenceScore(r.utterance, r.history.length) >= 0.5],
	['every-later-turn', () => true],
];

/** Parses one JSON line into a row; throws with a message naming the bad field. */
export function parseFollowupRow(text: string): FollowupRow {
	let v: unknown;
	try {
		v = JSON.parse(text);
	} catch (e) {
		throw new Error(`invalid JSON (${e instanceof Error ? e.message : String(e)})`);
	}
	if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
	const o = v as Record<string, unknown>;
	if (typeof o.utterance !== 'string') throw new Error('missing or non-string "utterance"');
	if (typeof o.depends_on_context !== 'boolean') throw new Error('missing or non-boolean "depends_on_context"');
	if (!Array.isArray(o.history)) throw new Error('missing or non-array "history"');
	const history = o.history.map((h, i): HistoryTurn => {
		if (typeof h === 'string') return { role: 'user', content: h };
		const { role, content } = (h ?? {}) as { role?: unknown; content?: unknown };
		if ((role === 'user' || role === 'assistant') && typeof content === 'string') return { role, content };
		throw new Error(`history[${i}] must be a string or {"role": "user"|"assistant", "content": string}`);
	});
	const str = (x: unknown): string | null => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : null);
	return {
		id: str(o.id),
		conversationId: str(o.conversation_id),
		history,
		utterance: o.utterance,
		label: o.depends_on_context,
	};
}

/** True when the row belongs to the requested half (by the trailing number of its conversation id). */
function inHalf(row: FollowupRow, half: string | undefined): boolean {
	if (!half) return true;
	const n = /(\d+)\D*$/.exec(row.conversationId ?? '');
	if (!n) return false;
	return (Number(n[1]) % 2 === 0) === (half === 'even');
}

/** What one evaluation run measured. */
export interface FollowupEvaluation {
	file: string;
	half: string | null;
	turns: number;
	positives: number;
	first_turns_skipped: number;
	bad_lines: number;
	followup_threshold: number;
	rules: Record<string, BinaryMetrics>;
}

/**
 * Reads `path`, scores every later turn with every rule; bad lines are reported on stderr (named
 * by `file`, the path as the user gave it) and skipped.
 */
export async function evaluateFollowupFile(
	path: string,
	file: string,
	t: Thresholds,
	half: string | undefined,
	io: CliIo,
): Promise<FollowupEvaluation> {
	const confusions = new Map<string, Confusion>(RULES.map(([name]) => [name, emptyConfusion()]));
	let turns = 0;
	let positives = 0;
	let first = 0;
	let bad = 0;
	for await (const { line, text } of readLines(path, io)) {
		let row: FollowupRow;
		try {
			row = parseFollowupRow(text);
		} catch (e) {
			bad++;
			io.stderr(`gmem eval followup: ${file} line ${line}: ${e instanceof Error ? e.message : String(e)}\n`);
			continue;
		}
		if (!inHalf(row, half)) continue;
		if (row.history.length === 0) {
			first++;
			continue;
		}
		turns++;
		if (row.label) positives++;
		for (const [name, rule] of RULES) tally(confusions.get(name)!, rule(row, t), row.label);
	}
	const rules = Object.fromEntries([...confusions].map(([name, c]) => [name, binaryMetrics(c)]));
	return {
		file,
		half: half ?? null,
		turns,
		positives,
		first_turns_skipped: first,
		bad_lines: bad,
		followup_threshold: t.followup_threshold,
		rules,
	};
}

/** The human-readable table. */
export function formatFollowupTable(e: FollowupEvaluation): string {
	const head =
		`follow-up detection: ${e.file}${e.half ? ` (${e.half} conversations)` : ''}\n` +
		`${e.turns} later turns (${e.positives} follow-ups, ${e.turns - e.positives} stand-alone); ` +
		`${e.first_turns_skipped} first turns skipped; ${e.bad_lines} bad lines; followup_threshold ${e.followup_threshold}\n\n`;
	const cols = ['rule', 'recall', 'specificity', 'precision', 'bal.acc', 'MCC', 'TP', 'FP', 'TN', 'FN'];
	const rows = Object.entries(e.rules).map(([name, m]) => [
		name,
		...[m.recall, m.specificity, m.precision, m.balanced_accuracy, m.mcc].map((x) => x.toFixed(3)),
		...[m.tp, m.fp, m.tn, m.fn].map(String),
	]);
	const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
	const fmt = (r: string[]): string =>
		r.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
	return head + [fmt(cols), ...rows.map(fmt)].join('\n') + '\n';
}

/** The `followup` subcommand of `gmem eval`. */
export const followupEval: CliCommand = {
	name: 'followup',
	summary: 'follow-up detection: recall, specificity, precision, balanced accuracy, MCC over later turns',
	usage: USAGE,
	run: async (argv: string[], io: CliIo): Promise<number> => {
		const { values, positionals } = parseCommandArgs(argv, {
			json: { type: 'boolean' },
			config: { type: 'string' },
			half: { type: 'string' },
		});
		if (positionals.length !== 1) throw new UsageError(`expected one FILE.jsonl\n\n${USAGE}`);
		if (values.half !== undefined && values.half !== 'even' && values.half !== 'odd') {
			throw new UsageError(`--half must be "even" or "odd", not "${values.half}"`);
		}
		const t = loadConfig(values.config, io.cwd);
		const file = positionals[0]!;
		const path = file === '-' ? file : resolve(io.cwd, file);
		if (path !== '-' && !existsSync(path)) throw new UsageError(`cannot read ${file}: no such file`);
		const e = await evaluateFollowupFile(path, file, t, values.half, io);
		if (e.turns === 0) throw new UsageError(`${file}: no labelled later turns to evaluate`);
		io.stdout(values.json ? JSON.stringify(e) + '\n' : formatFollowupTable(e));
		return EXIT_OK;
	},
};

// ---------------------------------------------------------------------------------------------
// Seed 000's reference scorer, reconstructed for comparison only (never shipped in src/core): the
// seed's structure and weights — pronoun 0.3, continuation starter 0.4, variable reference 0.3,
// elaboration 0.4, very short 0.3, capped at 1.0 — with word lists written from its description.
// Kept faithful to its flaws: starters use startsWith and elaboration uses substring matching.
// ---------------------------------------------------------------------------------------------

const SEED_PRONOUNS =
	/\b(it|its|this|that|these|those|they|them|the same|the above|the previous|the one|the other|mentioned|said|described)\b/;
const SEED_STARTERS = [
	'what if',
	'what about',
	'how about',
	'and then',
	'but then',
	'but what',
	'but why',
	'but how',
	'and how',
	'so then',
	'so if',
	'then how',
	'ok but',
	'okay but',
	'yeah but',
	'also',
	'additionally',
	'moreover',
	'furthermore',
	'alternatively',
	'on the other hand',
];
const SEED_VARIABLE_REF =
	/\bthe (function|method|class|variable|table|column|field|param|endpoint|query|result|output|error|issue|bug|problem|solution)\b/;
const SEED_ELABORATION = [
	'elaborate',
	'more detail',
	'tell me more',
	'explain further',
	'go deeper',
	'expand on',
	'clarify',
	'more about',
	'in more depth',
	'specifically',
	'in particular',
	'what do you mean',
	'break that down',
];
const SEED_SHORT = /^(why|how|when|where|and|so|really|seriously)\??\s*$/;

/** Seed 000's `_compute_structural_followup_score`, for the comparison row only. */
export function seedReferenceScore(utterance: string, conversationLength: number): number {
	if (conversationLength === 0) return 0;
	const q = utterance.trim().toLowerCase();
	let score = 0;
	if (SEED_PRONOUNS.test(q)) score += 0.3;
	if (SEED_STARTERS.some((s) => q.startsWith(s))) score += 0.4;
	if (SEED_VARIABLE_REF.test(q)) score += 0.3;
	if (SEED_ELABORATION.some((s) => q.includes(s))) score += 0.4;
	if (q.split(/\s+/).length <= 3 && conversationLength >= 2 && (SEED_SHORT.test(q) || q.endsWith('?'))) score += 0.3;
	return Math.min(score, 1);
}
