/**
 * The one place that describes the downloadable models: where they live on the hub, which files
 * they need, and what a valid export looks like (input/output names, dimension). The model
 * manager, the inference worker and the docs all read these records.
 *
 * Sizes and SHA-256 are "unverified" (CONTRACT.md): this build machine cannot reach a model hub,
 * so no hash was computed here. A download is then accepted only if the file loads as ONNX with
 * the expected names and dimension; fill `size`/`sha256` in once a verified download exists.
 */

/** A literal marking a size or hash nobody has verified yet. */
export const UNVERIFIED = 'unverified' as const;

/** One file of a model repository, addressed relative to the repository root. */
export interface ModelFile {
	path: string;
	size: number | typeof UNVERIFIED;
	sha256: string | typeof UNVERIFIED;
}

/** The roles a model file plays; every manifest has all four. */
export type ModelFileRole = 'onnx' | 'tokenizer' | 'tokenizerConfig' | 'config';

/** Everything needed to fetch, check and run one model. */
export interface ModelManifest {
	/** Short stable name used in settings, cache folders and embedder ids. */
	name: string;
	kind: 'embedder' | 'reranker';
	/** Hub repository, e.g. "Xenova/all-MiniLM-L6-v2". */
	repo: string;
	/** Commit (or tag) the files are fetched from; a commit keeps downloads reproducible. */
	revision: string;
	/** Whether `revision` is a verified commit id (false: a branch name or an unverified report). */
	revisionVerified: boolean;
	files: Readonly<Record<ModelFileRole, ModelFile>>;
	/** Embedder: vector dimension. Reranker: width of the logits output (1). */
	dim: number;
	/** How token vectors become one vector ('none' for a cross-encoder's logits). */
	pooling: 'mean' | 'cls' | 'none';
	/** Whether vectors are L2-normalised (cosine = dot product). */
	normalize: boolean;
	/** Longest input in tokens, [CLS] and [SEP] included (truncate beyond it). */
	maxTokens: number;
	/** Inputs the ONNX graph must have; token_type_ids is optional (some exports lack it). */
	requiredInputs: readonly string[];
	optionalInputs: readonly string[];
	/** The output that is read: last_hidden_state [B,S,dim] or logits [B,dim]. */
	output: string;
	license: string;
}

const BERT_FILES = (onnxPath: string): Record<ModelFileRole, ModelFile> => ({
	onnx: { path: onnxPath, size: UNVERIFIED, sha256: UNVERIFIED },
	tokenizer: { path: 'tokenizer.json', size: UNVERIFIED, sha256: UNVERIFIED },
	tokenizerConfig: { path: 'tokenizer_config.json', size: UNVERIFIED, sha256: UNVERIFIED },
	config: { path: 'config.json', size: UNVERIFIED, sha256: UNVERIFIED },
});

/** all-MiniLM-L6-v2, dynamic-int8 ONNX export by Xenova: 384-d, mean pooling, trained at 256 tokens. */
export const MINILM_EMBEDDER: ModelManifest = Object.freeze({
	name: 'all-MiniLM-L6-v2',
	kind: 'embedder',
	repo: 'Xenova/all-MiniLM-L6-v2',
	// No commit id could be verified from this machine; pin it once a verified download exists.
	revision: 'main',
	revisionVerified: false,
	files: BERT_FILES('onnx/model_quantized.onnx'),
	dim: 384,
	pooling: 'mean',
	normalize: true,
	// Positions go to 512, but the model was trained on 256-token inputs.
	maxTokens: 256,
	requiredInputs: ['input_ids', 'attention_mask'],
	optionalInputs: ['token_type_ids'],
	output: 'last_hidden_state',
	license: 'Apache-2.0',
});

/** ms-marco-MiniLM-L-6-v2 cross-encoder, dynamic-int8 ONNX export by Xenova: one relevance logit. */
export const MSMARCO_RERANKER: ModelManifest = Object.freeze({
	name: 'ms-marco-MiniLM-L-6-v2',
	kind: 'reranker',
	repo: 'Xenova/ms-marco-MiniLM-L-6-v2',
	// Commit id reported in public code that downloads this export; not verified from here.
	revision: 'a09144355adeed5f58c8ed011d209bf8ee5a1fec',
	revisionVerified: false,
	files: BERT_FILES('onnx/model_quantized.onnx'),
	dim: 1,
	pooling: 'none',
	normalize: false,
	maxTokens: 512,
	requiredInputs: ['input_ids', 'attention_mask'],
	optionalInputs: ['token_type_ids'],
	output: 'logits',
	license: 'Apache-2.0',
});

/** The default model pair. */
export const DEFAULT_MANIFESTS: readonly ModelManifest[] = [MINILM_EMBEDDER, MSMARCO_RERANKER];

/** The id stored with every vector: model name + revision, so vectors of two models never mix. */
export function embedderId(m: ModelManifest): string {
	return `${m.repo}@${m.revision}`;
}

/** Looks a manifest up by short name or repo. */
export function findManifest(nameOrRepo: string): ModelManifest | undefined {
	return DEFAULT_MANIFESTS.find((m) => m.name === nameOrRepo || m.repo === nameOrRepo);
}
