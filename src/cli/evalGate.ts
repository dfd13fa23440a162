/**
 * `gmem eval gate FILE [--config F] [--baseline seed] [--json]`: the decision core's answers on
 * labelled conversations, field by field, with confusion matrices and seed 001's decision metrics.
 * Scoring is pure (`scoreGate`); only reading the file and printing are I/O.
 */
import { decideTurn } from '../core/decide';
import {
	binaryMetrics,
	emptyConfusion,
	tally,
	type BinaryMetrics,
	type Confusion,
} from '../core/metrics/binaryMetrics';
import { cell, emptyMultiConfusion, multiMetrics, tallyMulti, type MultiConfusion } from '../core/metrics/confusion';
import type { Thresholds } from '../core/thresholds';
import { ANSWER_PATHS, TRIGGERS, type GateResult } from '../core/types';
import { parseCommandArgs } from './args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { loadConfig } from './commands/gateCommand';
import {
	conversationCount,
	fixed3,
	formatTable,
	readLabelledTurns,
	emitEvaluation,
	JSON_OUT_OPTION,
	JSON_OUT_USAGE,
	type LabelledTurn,
	type Predictor,
	type TurnPrediction,
} from './evalShared';
import { SEED_BASELINE } from './seedBaseline';

const USAGE = `usage: gmem eval gate FILE.jsonl [--config FILE] [--baseline seed] [--json]

Runs every labelled user turn through the decision core and compares retrieve, tiers (exact set),
path, trigger and follow-up with the labels should_retrieve, tiers, path, trigger and
depends_on_context (any subset present). Also seed 001's metrics: path accuracy, retrieval
necessity, tool-fallback rate, abstention correctness. Rows: one message per line
{"id", "conversation_id", "role", "content", ...labels}, or {"id", "history", "utterance", ...labels}.

  --config FILE    JSON object {threshold_name: value} overriding the thresholds table.
  --baseline seed  Add the seed's rules (src/cli/seedBaseline.ts) as a second column.
  --errors         Also list every turn where a decision differs from its label.
  --json           One JSON object instead of the tables (errors included).
${JSON_OUT_USAGE}
`;

/** Correct / scored for one field. */
export interface FieldScore {
	n: number;
	correct: number;
	accuracy: number;
}

/** Everything `eval gate` measures for one rule set. */
export interface GateScore {
	rule: string;
	turns: number;
	/** `tiers` is the exact set; `tiers_cover`: every labelled tier was searched (extra tiers allowed). */
	fields: {
		retrieve: FieldScore;
		tiers: FieldScore;
		tiers_cover: FieldScore;
		path: FieldScore;
		trigger: FieldScore;
		followup: FieldScore;
		write: FieldScore;
	};
	/** Retrieval necessity: recall = retrieved when needed, specificity = skipped when not. */
	retrieval: BinaryMetrics;
	/** Follow-up detection over later turns (a first turn cannot depend on earlier ones). */
	followup: BinaryMetrics;
	/** Turns labelled `tool` that were answered from stored text instead (retrieve on a non-tool path). */
	tool_fallback: { tool_turns: number; fallbacks: number; rate: number };
	/** clarify/refuse: labelled abstentions predicted as such (recall) and predicted ones that were labelled (precision). */
	abstention: { labelled: number; predicted: number; correct: number; recall: number; precision: number };
	/** Refusals (rubric: secrets, destructive production): labelled ones refused, and refusals of turns labelled otherwise. */
	refusal: { labelled: number; refused: number; false_refusals: number };
	confusion: { path: MultiConfusion; trigger: MultiConfusion; tiers: MultiConfusion };
	/** Every disagreement, for `--errors` and for reading the JSON. */
	errors: GateError[];
}

/** One field on which the decision differs from the label. */
export interface GateError {
	id: string;
	utterance: string;
	field: keyof GateScore['fields'];
	label: string;
	decided: string;
}

const field = (): FieldScore => ({ n: 0, correct: 0, accuracy: 0 });

function count(f: FieldScore, ok: boolean, error: () => void): void {
	f.n++;
	if (ok) f.correct++;
	else error();
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
const tierKey = (tiers: readonly string[]) => (tiers.length ? tiers.join('+') : 'none');

/** Running counts while scoring one rule set. */
interface GateTally {
	fields: GateScore['fields'];
	errors: GateError[];
	retrieval: Confusion;
	followup: Confusion;
	confusion: GateScore['confusion'];
	tool: GateScore['tool_fallback'];
	abst: GateScore['abstention'];
	refusal: GateScore['refusal'];
}

function newTally(): GateTally {
	return {
		fields: {
			retrieve: field(),
			tiers: field(),
			tiers_cover: field(),
			path: field(),
			trigger: field(),
			followup: field(),
			write: field(),
		},
		errors: [],
		retrieval: emptyConfusion(),
		followup: emptyConfusion(),
		confusion: {
			path: emptyMultiConfusion(ANSWER_PATHS),
			trigger: emptyMultiConfusion(TRIGGERS),
			tiers: emptyMultiConfusion(['none']),
		},
		tool: { tool_turns: 0, fallbacks: 0, rate: 0 },
		abst: { labelled: 0, predicted: 0, correct: 0, recall: 0, precision: 0 },
		refusal: { labelled: 0, refused: 0, false_refusals: 0 },
	};
}

const isAbstention = (p: string) => p === 'clarify' || p === 'refuse';

/** Adds one turn's decision to the tally; a field without a label is not scored. */
function tallyTurn(a: GateTally, turn: LabelledTurn, p: TurnPrediction): void {
	const g = turn.labels;
	const miss = (f: GateError['field'], label: unknown, decided: unknown) => () =>
		a.errors.push({ id: turn.id, utterance: turn.utterance, field: f, label: String(label), decided: String(decided) });
	if (g.should_retrieve !== undefined) {
		count(a.fields.retrieve, p.retrieve === g.should_retrieve, miss('retrieve', g.should_retrieve, p.retrieve));
		tally(a.retrieval, p.retrieve, g.should_retrieve);
	}
	if (g.tiers) {
		count(a.fields.tiers, tierKey(p.tiers) === tierKey(g.tiers), miss('tiers', tierKey(g.tiers), tierKey(p.tiers)));
		count(
			a.fields.tiers_cover,
			g.tiers.every((t) => p.tiers.includes(t)),
			miss('tiers_cover', tierKey(g.tiers), tierKey(p.tiers)),
		);
		tallyMulti(a.confusion.tiers, tierKey(g.tiers), tierKey(p.tiers));
	}
	if (g.trigger) {
		count(a.fields.trigger, p.trigger === g.trigger, miss('trigger', g.trigger, p.trigger));
		tallyMulti(a.confusion.trigger, g.trigger, p.trigger);
	}
	// A first turn cannot depend on earlier ones: counting it would flatter every rule.
	if (g.depends_on_context !== undefined && turn.history.length > 0) {
		count(
			a.fields.followup,
			p.is_followup === g.depends_on_context,
			miss('followup', g.depends_on_context, p.is_followup),
		);
		tally(a.followup, p.is_followup, g.depends_on_context);
	}
	if (g.write && p.write)
		count(a.fields.write, tierKey(p.write) === tierKey(g.write), miss('write', tierKey(g.write), tierKey(p.write)));
	if (!g.path) return;
	if (g.path === 'refuse') a.refusal.labelled++;
	if (g.path === 'refuse' && p.path === 'refuse') a.refusal.refused++;
	if (g.path !== 'refuse' && p.path === 'refuse') a.refusal.false_refusals++;
	count(a.fields.path, p.path === g.path, miss('path', g.path, p.path));
	tallyMulti(a.confusion.path, g.path, p.path);
	if (g.path === 'tool') {
		a.tool.tool_turns++;
		// Seed 001's failure: a live-state question answered from stored text instead of the tool.
		if (p.path !== 'tool' && p.retrieve) a.tool.fallbacks++;
	}
	if (isAbstention(g.path)) a.abst.labelled++;
	if (isAbstention(p.path)) a.abst.predicted++;
	if (isAbstention(g.path) && p.path === g.path) a.abst.correct++;
}

/** Scores one rule set on labelled turns. Pure. */
export function scoreGate(turns: readonly LabelledTurn[], predictor: Predictor): GateScore {
	const a = newTally();
	for (const turn of turns) tallyTurn(a, turn, predictor.predict(turn));
	for (const f of Object.values(a.fields)) f.accuracy = ratio(f.correct, f.n);
	a.tool.rate = ratio(a.tool.fallbacks, a.tool.tool_turns);
	a.abst.recall = ratio(a.abst.correct, a.abst.labelled);
	a.abst.precision = ratio(a.abst.correct, a.abst.predicted);
	return {
		rule: predictor.name,
		turns: turns.length,
		fields: a.fields,
		retrieval: binaryMetrics(a.retrieval),
		followup: binaryMetrics(a.followup),
		tool_fallback: a.tool,
		abstention: a.abst,
		refusal: a.refusal,
		confusion: a.confusion,
		errors: a.errors,
	};
}

/** The fields of a decision the gate evaluation scores. */
export function predictionOf(r: GateResult): TurnPrediction {
	return {
		retrieve: r.retrieve,
		tiers: r.tiers,
		path: r.path,
		trigger: r.trigger,
		is_followup: r.followup.is_followup,
		write: r.write,
	};
}

/** The product's decision core as a predictor. */
export function gatedPredictor(thresholds: Thresholds): Predictor {
	return {
		name: 'gated-memory',
		predict: (turn) =>
			predictionOf(decideTurn({ id: turn.id, history: turn.history, utterance: turn.utterance }, { thresholds })),
	};
}

/** What one `eval gate` run prints with --json. */
export interface GateEvaluation {
	file: string;
	turns: number;
	conversations: number;
	bad_lines: number;
	rules: GateScore[];
}

const frac = (f: FieldScore) => (f.n ? `${f.accuracy.toFixed(3)} (${f.correct}/${f.n})` : 'n/a');

/** The summary table: one column per rule set. */
function summaryRows(rules: readonly GateScore[]): string[][] {
	const row = (name: string, get: (s: GateScore) => string) => [name, ...rules.map(get)];
	return [
		row('retrieve balanced accuracy', (s) => fixed3(s.retrieval.balanced_accuracy, s.retrieval.n)),
		row('retrieve accuracy', (s) => frac(s.fields.retrieve)),
		row('tiers accuracy (exact set)', (s) => frac(s.fields.tiers)),
		row('tiers cover the labelled ones', (s) => frac(s.fields.tiers_cover)),
		row('path accuracy (seed 001)', (s) => frac(s.fields.path)),
		row('trigger accuracy', (s) => frac(s.fields.trigger)),
		row('follow-up accuracy (later turns)', (s) => frac(s.fields.followup)),
		row('follow-up balanced accuracy (later turns)', (s) => fixed3(s.followup.balanced_accuracy, s.followup.n)),
		row('write accuracy (exact set)', (s) => frac(s.fields.write)),
		row('refused when labelled refuse', (s) => `${s.refusal.refused} of ${s.refusal.labelled}`),
		row('false refusals', (s) => String(s.refusal.false_refusals)),
		row(
			'retrieved when needed (recall)',
			(s) =>
				`${fixed3(s.retrieval.recall, s.retrieval.tp + s.retrieval.fn)} (${s.retrieval.tp}/${s.retrieval.tp + s.retrieval.fn})`,
		),
		row(
			'skipped when not needed (specificity)',
			(s) =>
				`${fixed3(s.retrieval.specificity, s.retrieval.tn + s.retrieval.fp)} (${s.retrieval.tn}/${s.retrieval.tn + s.retrieval.fp})`,
		),
		row('retrieval precision', (s) => fixed3(s.retrieval.precision, s.retrieval.tp + s.retrieval.fp)),
		row('retrieval MCC', (s) => s.retrieval.mcc.toFixed(3)),
		row('follow-up MCC (later turns)', (s) => s.followup.mcc.toFixed(3)),
		row(
			'tool-fallback rate (lower is better)',
			(s) =>
				`${fixed3(s.tool_fallback.rate, s.tool_fallback.tool_turns)} (${s.tool_fallback.fallbacks}/${s.tool_fallback.tool_turns})`,
		),
		row(
			'abstention recall (clarify/refuse)',
			(s) => `${fixed3(s.abstention.recall, s.abstention.labelled)} (${s.abstention.correct}/${s.abstention.labelled})`,
		),
		row(
			'abstention precision',
			(s) =>
				`${fixed3(s.abstention.precision, s.abstention.predicted)} (${s.abstention.correct}/${s.abstention.predicted})`,
		),
	];
}

/** One confusion matrix as a table: gold rows × predicted columns, plus per-class recall. */
export function formatConfusion(title: string, m: MultiConfusion): string {
	const { classes } = multiMetrics(m);
	// Classes never labelled nor decided are left out: a row and a column of zeros say nothing.
	const used = classes.filter((c) => c.support > 0 || m.labels.some((g) => cell(m, g, c.label) > 0));
	const rows = used.map((g) => [
		g.label,
		...used.map((p) => String(cell(m, g.label, p.label))),
		fixed3(g.recall, g.support),
	]);
	return (
		`${title} (rows: label, columns: decision)\n` +
		formatTable(['label \\ decided', ...used.map((c) => c.label), 'class recall'], rows)
	);
}

/** A binary decision's 2×2 matrix (retrieve, follow-up), in the same layout as the multi-class ones. */
export function formatBinaryConfusion(title: string, c: Confusion): string {
	const recall = (hit: number, miss: number) => fixed3(ratio(hit, hit + miss), hit + miss);
	return (
		`${title} (rows: label, columns: decision)\n` +
		formatTable(
			['label \\ decided', 'yes', 'no', 'class recall'],
			[
				['yes', String(c.tp), String(c.fn), recall(c.tp, c.fn)],
				['no', String(c.fp), String(c.tn), recall(c.tn, c.fp)],
			],
		)
	);
}

/** The whole human-readable report. */
export function formatGateReport(e: GateEvaluation, withErrors = false): string {
	const head = `gate decisions: ${e.file}\n${e.turns} labelled user turns in ${e.conversations} conversations; ${e.bad_lines} bad lines\n\n`;
	const summary = formatTable(['metric', ...e.rules.map((r) => r.rule)], summaryRows(e.rules));
	const matrices = e.rules.flatMap((r) => [
		formatConfusion(`${r.rule}: path`, r.confusion.path),
		formatConfusion(`${r.rule}: trigger`, r.confusion.trigger),
		formatConfusion(`${r.rule}: tiers`, r.confusion.tiers),
		formatBinaryConfusion(`${r.rule}: retrieve`, r.retrieval),
		formatBinaryConfusion(`${r.rule}: follow-up (later turns)`, r.followup),
	]);
	const errors = withErrors ? e.rules.map((r) => formatErrors(r)) : [];
	return [head + summary, ...matrices, ...errors].join('\n');
}

/** Every disagreement of one rule set, one line each. */
function formatErrors(r: GateScore): string {
	const lines = r.errors.map(
		(x) => `  ${x.id}  ${x.field}: label ${x.label}, decided ${x.decided}  ${JSON.stringify(x.utterance)}`,
	);
	return `${r.rule}: ${r.errors.length} disagreements\n${lines.join('\n')}\n`;
}

/** Parses `--baseline`; only the seed's rules exist as a baseline. */
export function baselinePredictors(value: string | undefined): Predictor[] {
	if (value === undefined) return [];
	if (value === 'seed') return [SEED_BASELINE];
	throw new UsageError(`--baseline must be "seed" (got "${value}")`);
}

/** Reads, scores and returns the evaluation (the JSON object). */
export async function evaluateGateFile(
	file: string,
	t: Thresholds,
	baselines: readonly Predictor[],
	io: CliIo,
): Promise<GateEvaluation> {
	const { turns, bad } = await readLabelledTurns(file, io, 'gate');
	if (turns.length === 0) throw new UsageError(`${file}: no labelled user turns to evaluate`);
	const rules = [gatedPredictor(t), ...baselines].map((p) => scoreGate(turns, p));
	return { file, turns: turns.length, conversations: conversationCount(turns), bad_lines: bad, rules };
}

/** The `gate` subcommand of `gmem eval`. */
export const gateEval: CliCommand = {
	name: 'gate',
	summary: 'decision accuracy per field, confusion matrices, seed 001 metrics (retrieval necessity, tool fallback)',
	usage: USAGE,
	run: async (argv: string[], io: CliIo): Promise<number> => {
		const { values, positionals } = parseCommandArgs(argv, {
			json: { type: 'boolean' },
			errors: { type: 'boolean' },
			config: { type: 'string' },
			baseline: { type: 'string' },
			...JSON_OUT_OPTION,
		});
		if (positionals.length !== 1) throw new UsageError(`expected one FILE.jsonl\n\n${USAGE}`);
		const e = await evaluateGateFile(
			positionals[0]!,
			loadConfig(values.config, io.cwd),
			baselinePredictors(values.baseline),
			io,
		);
		emitEvaluation(e, (x) => formatGateReport(x, values.errors === true), values, io);
		return EXIT_OK;
	},
};
