/**
 * Thresholds of the symbol arm, the file-level ranking and the document-type priors (issue 15
 * items 2–4), in the threshold table's row shape (default, range, rationale). Kept here, not in
 * src/core, so src/retrieval owns them; `RETRIEVAL_TUNING_THRESHOLDS` is a section ready to be
 * spread into THRESHOLD_TABLE, and until it is, `retrievalTuning()` resolves the defaults with
 * optional overrides by name (the evals' `--config`). Figures: docs/evaluation.md "Natural
 * questions" (dev split only; the test split was scored once, after tuning).
 */
import type { ThresholdSpec } from '../core/thresholds/spec';

export const RETRIEVAL_TUNING_THRESHOLDS = {
	rrf_weight_symbol: {
		default: 2,
		min: 0,
		max: 10,
		rationale:
			'Weight of the symbol arm in RRF. A definition matched by a name the user wrote is the strongest evidence a turn can give about where the code is; above the other arms (1) so it leads unless both of them disagree.',
	},
	symbol_defs_per_name: {
		default: 20,
		min: 1,
		max: 500,
		integer: true,
		rationale:
			'At most this many definitions are read per probed name (a name such as __init__ or get is defined hundreds of times).',
	},
	symbol_word_max_defs: {
		default: 4,
		min: 0,
		max: 100,
		integer: true,
		rationale:
			'A plain word ("flatten") or word pair ("send file") counts as a name only when at most this many definitions carry it: a common word matches many unrelated definitions.',
	},
	symbol_max_probes: {
		default: 24,
		min: 1,
		max: 200,
		integer: true,
		rationale:
			'At most this many names from one turn probe the symbol table (strongest first), bounding the arm on a pasted log.',
	},
	symbol_pin_definitions: {
		default: 1,
		min: 0,
		max: 20,
		integer: true,
		rationale:
			'The best definitions of names written as code (send_file, res.sendFile, Context.invoke) are kept first after the rerank, at most this many: the reranker scores text similarity and can prefer a chunk that mentions a name over the one that defines it. 0 turns pinning off.',
	},
	file_agg_decay: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			"File score = a file's best chunk score + decay × its second + decay² × its third (BM25-sum aggregation; django localisation: (1, ½, ¼) on BM25 scores R@10 0.842 vs best chunk 0.798).",
	},
	file_agg_chunks: {
		default: 3,
		min: 1,
		max: 20,
		integer: true,
		rationale: 'Chunks per file that count in its aggregate score.',
	},
	file_bm25_weight: {
		default: 1,
		min: 0,
		max: 10,
		rationale:
			'Weight of the BM25-sum file list against the best-chunk file list when files are ranked (RRF of the two). 0 = best chunk per file, the ranking before issue 15 item 3.',
	},
	prior_impl_over_other: {
		default: 0.6,
		min: 0,
		max: 1,
		rationale:
			'Multiplier on the file score of tests, changelogs / release notes and generated files when the turn asks how code works or why it fails: the same words appear there, but the answer is the implementation.',
	},
	prior_docs_code: {
		default: 0.6,
		min: 0,
		max: 3,
		rationale:
			'Multiplier on documentation files (README, CONTRIBUTING, docs/) when the turn asks how code works or why it fails. Natural-question dev split (93): R@1 0.796 at 1, 0.817 at 0.6 (README.md and a crate-level doc outranked the implementation).',
	},
	prior_docs_howto: {
		default: 1,
		min: 0,
		max: 3,
		rationale:
			'Multiplier on documentation files (docs/, README, .md/.rst) for how-to questions. Neutral (1) by default: on the dev split the answer to a how-to question was the implementation at least as often as the docs.',
	},
	prior_tests_when_asked: {
		default: 1.5,
		min: 0,
		max: 5,
		rationale: 'Multiplier on test files when the turn is about tests (a failing test, "where is X tested").',
	},
	stack_frame_max: {
		default: 6,
		min: 0,
		max: 50,
		integer: true,
		rationale:
			'At most this many workspace frames of a pasted trace are fetched as exact evidence (innermost first): the failing line and its callers.',
	},
} as const satisfies Record<string, ThresholdSpec>;

export type RetrievalTuningName = keyof typeof RETRIEVAL_TUNING_THRESHOLDS;
export type RetrievalTuning = { readonly [K in RetrievalTuningName]: number };

export const DEFAULT_RETRIEVAL_TUNING: RetrievalTuning = Object.freeze(
	Object.fromEntries(Object.entries(RETRIEVAL_TUNING_THRESHOLDS).map(([k, v]) => [k, v.default])) as RetrievalTuning,
);

/**
 * The defaults with overrides by name taken from `overrides` (e.g. the thresholds in force, once
 * the section is in THRESHOLD_TABLE, or an eval's config). Names of other sections are ignored
 * here (they belong to the core table); a value out of range is an error, never clamped.
 */
export function retrievalTuning(overrides?: Readonly<Record<string, unknown>> | null): RetrievalTuning {
	if (!overrides) return DEFAULT_RETRIEVAL_TUNING;
	const out: Record<string, number> = { ...DEFAULT_RETRIEVAL_TUNING };
	for (const [name, spec] of Object.entries(RETRIEVAL_TUNING_THRESHOLDS) as [RetrievalTuningName, ThresholdSpec][]) {
		const v = overrides[name];
		if (v === undefined) continue;
		if (
			typeof v !== 'number' ||
			!Number.isFinite(v) ||
			v < spec.min ||
			v > spec.max ||
			(spec.integer && !Number.isInteger(v))
		) {
			throw new RangeError(
				`threshold "${name}" = ${String(v)} must be a number in ${spec.min}..${spec.max}${spec.integer ? ' (whole)' : ''}`,
			);
		}
		out[name] = v;
	}
	return Object.freeze(out) as RetrievalTuning;
}
