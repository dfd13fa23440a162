import type { ThresholdSection } from './spec';

/**
 * Workspace indexing: what is read, and how files are cut into chunks. Owned by src/indexing.
 * Chunk sizes were compared on the SWE-bench Lite django localisation set (docs/evaluation.md,
 * "Workspace indexing").
 */
export const INDEXING_THRESHOLDS = {
	index_chunk_max_lines: {
		default: 30,
		min: 5,
		max: 1000,
		integer: true,
		rationale:
			"Longest chunk in lines; a longer function or section is split into overlapping windows. Measured on SWE-bench Lite django file localisation (BM25, 114 issues): 30 lines gave recall@10 0.807 (best chunk per file) vs 0.772 at 40, 0.781 at 60, 0.754 at 120 — and fits MiniLM's 256-token input.",
	},
	index_chunk_max_chars: {
		default: 1200,
		min: 200,
		max: 100000,
		integer: true,
		rationale:
			'Longest chunk in characters (~300 tokens at 4 chars/token, about what MiniLM reads), so minified or very wide lines cannot make one giant chunk. Measured together with index_chunk_max_lines (40 chars per line).',
	},
	index_chunk_overlap_lines: {
		default: 5,
		min: 0,
		max: 200,
		integer: true,
		rationale:
			'Lines repeated between consecutive windows of a split function or plain-text file, so a statement cut at a boundary is still whole in one chunk.',
	},
	index_chunk_min_lines: {
		default: 8,
		min: 1,
		max: 200,
		integer: true,
		rationale:
			'A unit shorter than this (a one-line getter, an import block, a short section) is merged with its neighbours while the result stays under the maximum: tiny chunks carry too little text to rank.',
	},
	index_max_file_bytes: {
		default: 1000000,
		min: 1000,
		max: 100000000,
		integer: true,
		rationale:
			'Files larger than this are skipped (skip reason `too_large`): hand-written source is rarely over 1 MB; bigger files are data, bundles or generated code.',
	},
	index_binary_sniff_bytes: {
		default: 8192,
		min: 512,
		max: 1048576,
		integer: true,
		rationale:
			'How many leading bytes are inspected for NUL bytes and control characters to decide that a file is binary (git inspects 8000).',
	},
	index_max_control_ratio: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale:
			'Share of control bytes (other than tab, newline, CR, form feed, ESC) above which a file that is not valid UTF-8 is treated as binary rather than decoded as Latin-1.',
	},
	index_embed_batch: {
		default: 64,
		min: 1,
		max: 4096,
		integer: true,
		rationale:
			'Chunks embedded (and files written to the store) per batch: large enough for the ONNX embedder to use its batch throughput, small enough that progress and cancellation stay responsive.',
	},
	index_watch_debounce_ms: {
		default: 1000,
		min: 50,
		max: 60000,
		integer: true,
		rationale:
			'The file watcher re-indexes once no file event has arrived for this long: a save, a formatter and a build touching the same files, or a git checkout writing hundreds, become one batch (one worker request, one transaction); 1 s stays well inside "the answer knows my last save" while collapsing bursts.',
	},
	index_watch_max_wait_ms: {
		default: 5000,
		min: 100,
		max: 600000,
		integer: true,
		rationale:
			'Under a steady stream of events (a long build writing files) the batch is sent at the latest this long after its first event, so the index never falls arbitrarily behind.',
	},
} satisfies ThresholdSection;
