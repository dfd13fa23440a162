/**
 * `gmem eval ab FILE [--corpus C.jsonl] [--k 4]`: does gating beat always-retrieve? Replays every
 * labelled conversation turn by turn through each arm (evalAbArms.ts) on one fresh store holding
 * the corpus, and reports what retrieval cost (turns retrieved, searches, evidence tokens, time)
 * and what it bought (recall of the turns that needed it, needless evidence on turns that did not).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { latencySummary } from '../core/metrics/percentiles';
import { parseCommandArgs } from './args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { loadConfig } from './commands/gateCommand';
import {
	alwaysRetrieveArm,
	CHARS_PER_TOKEN,
	gatedArm,
	predictorArm,
	type AbArm,
	type ArmContext,
	type ArmTurn,
} from './evalAbArms';
import { baselinePredictors } from './evalGate';
import {
	conversationCount,
	fixed3,
	formatTable,
	JSON_OUT_OPTION,
	readLabelledTurns,
	emitEvaluation,
	type LabelledTurn,
} from './evalShared';
import { PIPELINE_ALWAYS, PIPELINE_GATED, replayPipeline, type PipelineArmContext } from './evalAbPipeline';
import { readCorpus, withCorpusStore } from './evalStore';
import type { Logger } from '../chat/logger';
import type { ModelSettings } from '../chat/modelsRuntime';
import { openCliEmbedder, positiveInt } from './storeCli';

const USAGE = `usage: gmem eval ab FILE.jsonl [--corpus CORPUS.jsonl] [--k 4] [--baseline seed]
                   [--embedder builtin|minilm|hashing|none] [--config FILE] [--db PATH|URL] [--json] [--json-out FILE]

Replays labelled conversations through always-retrieve (top k every turn) and the gated pipeline
(decideTurn → per-tier search with the policy's k and floors → evidence stage), on one fresh store
holding the corpus (default: corpus.jsonl beside FILE; rows {"id", "text", "path"?, "tier"?}).
Reports turns retrieved, retrievals saved, evidence tokens (characters / 4), retrieval time,
recall of the turns labelled should_retrieve, and needless evidence on the turns labelled not.
Then the same conversations through gmem chat's pipeline (the editor's turn, read-only, evidence-only
replies): "gated-memory (pipeline)" and "always-retrieve (pipeline)" (a policy_override hook that
searches workspace + research every turn); their time is the whole turn. --no-pipeline skips them.`;

/** Cost and benefit of one arm over all turns. */
export interface AbScore {
	arm: string;
	turns: number;
	turns_retrieved: number;
	/** Turns on which this arm did not retrieve (always-retrieve saves none). */
	retrievals_saved: number;
	searches: number;
	evidence_turns: number;
	evidence_chunks: number;
	evidence_tokens: number;
	retrieval_ms: { total: number; p50: number; p95: number };
	/** Turns labelled should_retrieve: true, and how many of them this arm retrieved / gave evidence on. */
	needed: { turns: number; retrieved: number; recall: number; with_evidence: number };
	/** Turns labelled with `relevant` ids, and how many got at least one of them into the prompt. */
	relevant: { turns: number; found: number; rate: number };
	/** Turns labelled should_retrieve: false that still got evidence, and the tokens spent there. */
	needless: { turns: number; with_evidence: number; rate: number; tokens: number };
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Scores one arm from its per-turn outcomes (same order as `turns`). Pure. */
export function scoreAb(arm: string, turns: readonly LabelledTurn[], outcomes: readonly ArmTurn[]): AbScore {
	const s: AbScore = {
		arm,
		turns: turns.length,
		turns_retrieved: 0,
		retrievals_saved: 0,
		searches: 0,
		evidence_turns: 0,
		evidence_chunks: 0,
		evidence_tokens: 0,
		retrieval_ms: { total: 0, p50: 0, p95: 0 },
		needed: { turns: 0, retrieved: 0, recall: 0, with_evidence: 0 },
		relevant: { turns: 0, found: 0, rate: 0 },
		needless: { turns: 0, with_evidence: 0, rate: 0, tokens: 0 },
	};
	const ms: number[] = [];
	turns.forEach((turn, i) => {
		const o = outcomes[i]!;
		const tokens = o.evidence.reduce((n, c) => n + c.tokens, 0);
		const hasEvidence = o.evidence.length > 0;
		if (o.retrieved) s.turns_retrieved++;
		if (o.searches > 0) ms.push(o.ms);
		s.searches += o.searches;
		s.evidence_chunks += o.evidence.length;
		s.evidence_tokens += tokens;
		if (hasEvidence) s.evidence_turns++;
		const need = turn.labels.should_retrieve;
		if (need === true) {
			s.needed.turns++;
			if (o.retrieved) s.needed.retrieved++;
			if (hasEvidence) s.needed.with_evidence++;
		} else if (need === false) {
			s.needless.turns++;
			if (hasEvidence) s.needless.with_evidence++;
			s.needless.tokens += tokens;
		}
		const rel = turn.labels.relevant;
		if (rel && rel.length) {
			s.relevant.turns++;
			if (o.evidence.some((c) => rel.includes(c.doc_id))) s.relevant.found++;
		}
	});
	s.retrievals_saved = s.turns - s.turns_retrieved;
	const lat = latencySummary(ms);
	s.retrieval_ms = { total: round1(ms.reduce((a, b) => a + b, 0)), p50: round1(lat.p50), p95: round1(lat.p95) };
	s.needed.recall = ratio(s.needed.retrieved, s.needed.turns);
	s.relevant.rate = ratio(s.relevant.found, s.relevant.turns);
	s.needless.rate = ratio(s.needless.with_evidence, s.needless.turns);
	return s;
}

/** The `--json` object. */
export interface AbEvaluation {
	file: string;
	corpus: string;
	store: string;
	embedder: { id: string; semantic: boolean } | null;
	k: number;
	chars_per_token: number;
	turns: number;
	conversations: number;
	bad_lines: number;
	arms: AbScore[];
}

/** One row per measure, one column per arm. */
export function formatAbTable(e: AbEvaluation): string {
	const emb = e.embedder
		? `${e.embedder.id}${e.embedder.semantic ? '' : ' (hashing TEST embedder, NOT semantic)'}`
		: 'none (lexical only)';
	const head =
		`A/B: ${e.file} with ${e.corpus}\n${e.turns} user turns in ${e.conversations} conversations; ${e.bad_lines} bad lines; k ${e.k}; ` +
		`store: ${e.store}\nembedder: ${emb}; reranker: passthrough (none configured); tokens ≈ characters / ${e.chars_per_token}\n\n`;
	const row = (name: string, get: (s: AbScore) => string) => [name, ...e.arms.map(get)];
	const of = (a: number, b: number) => `${fixed3(ratio(a, b), b)} (${a}/${b})`;
	const rows = [
		row('turns retrieved', (s) => `${s.turns_retrieved}/${s.turns}`),
		row('retrievals saved', (s) => String(s.retrievals_saved)),
		row('tier searches run', (s) => String(s.searches)),
		row('turns with evidence in the prompt', (s) => String(s.evidence_turns)),
		row('evidence chunks', (s) => String(s.evidence_chunks)),
		row('evidence tokens (chars/4)', (s) => String(s.evidence_tokens)),
		row('retrieval ms total', (s) => s.retrieval_ms.total.toFixed(1)),
		row(
			'retrieval ms p50 / p95 per retrieving turn',
			(s) => `${s.retrieval_ms.p50.toFixed(1)} / ${s.retrieval_ms.p95.toFixed(1)}`,
		),
		row('recall of turns needing retrieval', (s) => of(s.needed.retrieved, s.needed.turns)),
		row('needing turns given evidence', (s) => of(s.needed.with_evidence, s.needed.turns)),
		row('labelled relevant doc in the prompt', (s) => of(s.relevant.found, s.relevant.turns)),
		row('needless-evidence rate (lower is better)', (s) => of(s.needless.with_evidence, s.needless.turns)),
		row('tokens spent on turns not needing any', (s) => String(s.needless.tokens)),
	];
	return head + formatTable(['measure', ...e.arms.map((a) => a.arm)], rows);
}

/**
 * The pipeline arms' models: the extension's settings for the same embedder (builtin, minilm, none).
 * The hashing test embedder is not an extension model: the pipeline then runs its default (built-in)
 * and its trace notes that the corpus carries no built-in vectors (lexical-only).
 */
function pipelineModels(embedder: string | undefined, io: CliIo): Partial<ModelSettings> {
	const name = embedder ?? (io.env.GMEM_EMBEDDER || 'builtin');
	if (name === 'builtin' || name === 'minilm' || name === 'none')
		return { embedder: name, ...(io.env.GMEM_MODEL_DIR ? { localPath: io.env.GMEM_MODEL_DIR } : {}) };
	io.stderr(
		`gmem eval ab: the pipeline arms run the extension's models; --embedder ${name} is not one, so they use the built-in embedder\n`,
	);
	return {};
}

/** Warnings and errors of the pipeline arms on stderr (a failing tier is also in each turn's trace). */
function stderrWarnings(io: CliIo): Logger {
	const say = (m: string | Error) => io.stderr(`gmem eval ab: ${m instanceof Error ? m.message : m}\n`);
	return { trace() {}, debug() {}, info() {}, warn: say, error: say };
}

/** The corpus path: --corpus, else corpus.jsonl beside the conversations file. */
function corpusPath(value: string | undefined, file: string, io: CliIo): { path: string; shown: string } {
	const shown = value ?? join(dirname(file), 'corpus.jsonl');
	const path = resolve(io.cwd, shown);
	if (!existsSync(path)) throw new UsageError(`cannot read corpus ${shown}: no such file (give --corpus)`);
	return { path, shown };
}

/** Replays every turn through every arm, in file order. */
async function replay(
	arms: readonly AbArm[],
	turns: readonly LabelledTurn[],
	io: CliIo,
): Promise<Map<string, ArmTurn[]>> {
	const out = new Map<string, ArmTurn[]>(arms.map((a) => [a.name, []]));
	for (const arm of arms) {
		for (const turn of turns) out.get(arm.name)!.push(await arm.runTurn(turn));
		io.stderr(`gmem eval ab: ${arm.name} replayed ${turns.length} turns\n`);
	}
	return out;
}

const OPTIONS = {
	corpus: { type: 'string' },
	k: { type: 'string' },
	baseline: { type: 'string' },
	'no-pipeline': { type: 'boolean', default: false },
	embedder: { type: 'string' },
	config: { type: 'string' },
	db: { type: 'string' },
	json: { type: 'boolean', default: false },
	...JSON_OUT_OPTION,
} as const;

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length !== 1) throw new UsageError(`expected one FILE.jsonl\n\n${USAGE}`);
	const file = positionals[0]!;
	const corpus = corpusPath(values.corpus, file, io);
	const thresholds = loadConfig(values.config, io.cwd);
	const baselines = baselinePredictors(values.baseline);
	const k = positiveInt(values.k, '--k', 4);
	const { turns, bad } = await readLabelledTurns(file, io, 'ab');
	if (turns.length === 0) throw new UsageError(`${file}: no user turns to replay`);
	const docs = await readCorpus(corpus.path, 'text', io);
	const { embedder, dispose } = await openCliEmbedder(values.embedder, io);
	await withCorpusStore(values.db, docs, embedder, io, async (es) => {
		const ctx: ArmContext = { es, embedder, thresholds, k };
		const arms = [alwaysRetrieveArm(ctx), gatedArm(ctx), ...baselines.map((p) => predictorArm(ctx, p))];
		const outcomes = await replay(arms, turns, io);
		const names = arms.map((a) => a.name);
		if (!values['no-pipeline']) {
			const pctx: PipelineArmContext = {
				es,
				thresholds,
				models: pipelineModels(values.embedder, io),
				log: stderrWarnings(io),
			};
			for (const name of [PIPELINE_ALWAYS, PIPELINE_GATED] as const) {
				outcomes.set(name, await replayPipeline(pctx, name, turns));
				names.push(name);
				io.stderr(`gmem eval ab: ${name} replayed ${turns.length} turns\n`);
			}
		}
		const e: AbEvaluation = {
			file,
			corpus: corpus.shown,
			store: es.where,
			embedder: embedder ? { id: embedder.id, semantic: embedder.semantic } : null,
			k,
			chars_per_token: CHARS_PER_TOKEN,
			turns: turns.length,
			conversations: conversationCount(turns),
			bad_lines: bad,
			arms: names.map((name) => scoreAb(name, turns, outcomes.get(name)!)),
		};
		emitEvaluation(e, formatAbTable, values, io);
	}).finally(dispose);
	return EXIT_OK;
}

/** The `ab` subcommand of `gmem eval`. */
export const abEval: CliCommand = {
	name: 'ab',
	summary:
		'gated vs always-retrieve replay: retrievals saved, evidence tokens, latency, recall of needed turns, needless evidence',
	usage: USAGE,
	run,
};
