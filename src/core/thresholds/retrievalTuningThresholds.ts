/**
 * The symbol arm, the file-level ranking and the document-type priors (issue 15 items 2–4).
 * Owned by src/retrieval (src/retrieval/retrievalThresholds.ts resolves them for a search).
 * Figures: docs/evaluation.md "Natural questions" (tuned on the dev split only).
 */
import type { ThresholdSection } from './spec';

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
	symbol_pin_max_turn_words: {
		default: 40,
		min: 1,
		max: 100000,
		integer: true,
		rationale:
			'Definitions are pinned only for turns of at most this many words: a short question names what it asks about, a pasted bug report names many things (SWE-bench Lite swe-dev R@1 0.370 pinned vs 0.512 not; every natural question but a few tracebacks is shorter, every SWE report longer than 40 words).',
	},
	file_agg_decay: {
		default: 0.6,
		min: 0,
		max: 1,
		rationale:
			"File score = a file's best chunk score + decay × its second + decay² × its third (BM25-sum aggregation; django localisation: (1, ½, ¼) on BM25 scores R@10 0.842 vs best chunk 0.798). Natural-question dev (93), with the file-level BM25 arm: R@1 0.828 / 0.817 / 0.849 / 0.839 at 0.3 / 0.5 / 0.6 / 0.7 (weight 1.5 for 0.6 and 0.7).",
	},
	file_agg_chunks: {
		default: 3,
		min: 1,
		max: 20,
		integer: true,
		rationale: 'Chunks per file that count in its aggregate score.',
	},
	file_bm25_weight: {
		default: 1.5,
		min: 0,
		max: 10,
		rationale:
			'Weight of the BM25-sum file list against the best-chunk file list when files are ranked (RRF of the two). 0 = best chunk per file, the ranking before issue 15 item 3. Natural-question dev (93), file-level BM25 arm on, decay 0.5: R@1 0.796 / 0.817 / 0.817 / 0.839 at 0.5 / 0.75 / 1 / 1.5 (R@5 0.989 at 0.5, else 1.000); 1.25–2 with decay 0.6–0.7 all 0.839–0.849.',
	},
	file_bm25_candidates: {
		default: 100,
		min: 0,
		max: 20000,
		integer: true,
		rationale:
			"When files are ranked, the BM25-sum file list is built from the full-text arm run again over every query term (no common-term cut) for up to this many chunks, not only from the reranked pool: the pool's chunks come from the rare terms and the other arms, so a file that whole-file BM25 ranks high could be missing from it. Natural-question dev (93): R@5 0.946 from the pool, 1.000 with this list; R@1 0.817 / 0.839 / 0.849 / 0.849 / 0.849 / 0.849 at 30 / 50 / 100 / 200 / 300 / 1000. 100: the start of that plateau, and on SWE-bench sympy (46,634 chunks) as good as 1000 (R@10 0.733, R@5 0.707 vs 0.693) at a fifth of the search time. 0 = the pool's chunks only.",
	},
	file_mention_weight: {
		default: 1,
		min: 0,
		max: 10,
		rationale:
			'Files mode: weight (RRF, beside the best-chunk list) of the files the turn names by module or printed path (django.db.models.query, sympy/core/expr.py, ascii.qdp → the indexed file with that path suffix; mentionedFiles.ts): a bug report often says where the code is. SWE-bench Lite swe-dev (127) R@1 / R@5 / R@10: 0.512 / 0.740 / 0.819 at 0, 0.496 / 0.764 / 0.827 at 1; natural-question dev and dev2 unchanged. 0 = off.',
	},
	file_mention_max: {
		default: 10,
		min: 1,
		max: 100,
		integer: true,
		rationale: 'At most this many named files enter the file ranking (most often named first).',
	},
	file_defs_weight: {
		default: 0,
		min: 0,
		max: 10,
		rationale:
			"Files mode: weight (RRF) of the files ranked by the names the turn mentions that they define, each name counting 1 / (files defining it) (definedNames.ts): the file that defines several of a report's names is where it points. Off by default: SWE-bench Lite swe-dev R@1 / R@5 / R@10 0.488 / 0.756 / 0.819 at 1 alone, 0.535 / 0.764 / 0.819 with file_mention_weight 1 (R@10 one report below the named files alone, 0.827); nq dev R@1 0.860 → 0.871.",
	},
	file_vector_weight: {
		default: 0.5,
		min: 0,
		max: 10,
		rationale:
			"Files mode, a query of more than rrf_long_query_words words (a pasted bug report): weight (RRF) of the vector arm's own files (best chunk each, in its order) in the file ranking. The long-query chunk fusion weights the vector arm down (rrf_weight_vector_long_query) and cuts the pool after it, so a file only the vector arm ranks high never reached the file ranking: on SWE-bench Lite swe-dev 4 of the 22 misses at 10 had the gold file in the vector arm's top 9 files. swe-dev R@1 / R@5 / R@10 with prior_tests_max_turn_words 40: 0.457 / 0.780 / 0.835 at 0, 0.472 / 0.795 / 0.843 at 0.5 (at 1 without it: 0.465 / 0.740 / 0.827); nq dev and dev2 unchanged rank for rank (docs/evaluation.md). 0 = off.",
	},
	file_defs_max: {
		default: 20,
		min: 1,
		max: 200,
		integer: true,
		rationale: 'At most this many files of the defined-names list enter the file ranking.',
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
	prior_tests_max_turn_words: {
		default: 40,
		min: 1,
		max: 10000,
		integer: true,
		rationale:
			'Files mode: a turn of more words than this is never "about tests" for the priors (filePriors.turnWantOfTurn): a pasted bug report that says "tested with 3.6.2" or quotes a test run wants the code fixed, so tests go down, not up. 14 of 127 SWE-bench Lite swe-dev reports were "tests" turns (tests x1.5, gold never a test); at 40: R@1 / R@5 / R@10 0.449 / 0.764 / 0.827 -> 0.457 / 0.780 / 0.835; every natural question that asks about tests is shorter (nq dev / dev2 / dev3: 2, at 14 and 18 words). 10000 = off; the chat turn keeps the old rule.',
	},
	prior_stub_below_impl: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'Multiplier on a type stub (.pyi, .d.ts) when an implementation file of its directory is among the candidates and the turn is not about types or stubs: a stub repeats every signature and docstring, so it outranks the code that answers the question (attrs: __init__.pyi above _make.py). Tuned on nq dev / dev2 / dev3 (docs/evaluation.md).',
	},
	rrf_weight_prose: {
		default: 0.25,
		min: 0,
		max: 10,
		rationale:
			"How-to turns in chunks mode (the chat turn's evidence) only: weight, after the rerank, of the pool ranked by BM25 over each chunk's prose alone — docstrings, comments and the names it defines (docTextArm.ts) — fused by RRF with the reranked order (weight 1), the document-type priors after it. Chunks mode, how-to rows, R@1 / R@5 at 0 → 0.25: nq dev 0.688 / 0.938 → 0.750 / 1.000, dev2 0.500 → 0.750, dev3 0.667 / 0.833 unchanged. Applied to every turn it lost more than it gained (files mode R@1 dev 0.860 → 0.839 at 0.25, 0.806 at 1; dev2 paraphrase in chunks mode 0.800 → 0.400), so files mode and other turns never run it (docs/evaluation.md). 0 turns it off.",
	},
	file_prose_weight: {
		default: 0,
		min: 0,
		max: 10,
		rationale:
			"Files mode: weight of a third file list in the file ranking — files by their best chunk's prose rank (docstrings, comments, names: docTextArm.ts) — beside best chunk (1) and BM25 sum (file_bm25_weight). Off (0): on nq dev / dev2 / dev3 R@1 at 0 / 0.5 / 1 / 2 was 0.860 / 0.860 / 0.828 / 0.785, 0.727 / 0.773 / 0.773 / 0.727, 0.810 / 0.786 / 0.762 / 0.714 (docs/evaluation.md).",
	},
	stack_frame_max: {
		default: 6,
		min: 0,
		max: 50,
		integer: true,
		rationale:
			'At most this many workspace frames of a pasted trace are fetched as exact evidence (innermost first): the failing line and its callers.',
	},
	raise_site_max: {
		default: 1,
		min: 0,
		max: 5,
		integer: true,
		rationale:
			"A pasted error's raising site — the implementation chunk that holds its message's literal phrases (raiseSite.ts) — is pinned before the frames, at most this many, when no workspace frame's own line raises (the trace was cut at a caller, or is only its last line). 0 turns the rule off. Tuned on nq dev / dev2 / dev3 traceback rows (docs/evaluation.md).",
	},
	raise_site_phrase_words: {
		default: 2,
		min: 1,
		max: 20,
		integer: true,
		rationale:
			'A phrase of the message counts only with at least this many words (one of 4 letters or more): "Invalid Version" names its raise, "not" does not.',
	},
	raise_site_per_phrase: {
		default: 20,
		min: 1,
		max: 500,
		integer: true,
		rationale:
			'At most this many chunks are read per phrase (a phrase in many chunks is not a raising site worth pinning anyway).',
	},
} as const satisfies ThresholdSection;
