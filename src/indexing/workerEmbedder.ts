/**
 * The indexing worker's embedder, built from plain data (it crosses the worker boundary as
 * `workerData`). The host resolves models first (consent, download, local folder) and sends only
 * a ready folder; the worker then loads it itself:
 * - `onnx`: onnxruntime runs in the indexing worker thread (already off the main thread), which
 *   avoids posting every chunk and vector through a second worker (docs/models.md, measured);
 * - `builtin`: the static embedder shipped in the .vsix (issue 8);
 * - `hashing`: the deterministic TEST embedder, never semantic.
 * Every vector is fitted to the store's column width (zero padding, cosine-exact).
 */
import type { Embedder } from '../models/embedder';
import { builtinModule } from '../models/builtinLoader';
import { HashingEmbedder } from '../models/hashingEmbedder';
import type { ModelSpec, SessionSettings } from '../models/inferenceProtocol';
import { LocalOnnxEmbedder } from '../models/localOnnxEmbedder';
import { fitToWidth } from '../models/paddedEmbedder';
import { codeTokens } from '../retrieval/codeTokens';
import { EMBEDDING_DIM } from '../store/schema001';

/** Which embedder the worker uses (plain data). */
export type WorkerEmbedderSpec =
	| { kind: 'none' }
	/** TEST only: not semantic. */
	| { kind: 'hashing' }
	/** The built-in static embedder; `dir` overrides where its files are (default: beside the bundle). */
	| { kind: 'builtin'; dir?: string }
	/** A located, validated ONNX model folder; `id` is the id stored with every vector. */
	| { kind: 'onnx'; id: string; spec: ModelSpec; settings: SessionSettings };

/** Builds the worker's embedder; rejects with a plain reason when the model cannot load. */
export async function buildWorkerEmbedder(spec: WorkerEmbedderSpec): Promise<Embedder | null> {
	switch (spec.kind) {
		case 'none':
			return null;
		case 'hashing':
			return new HashingEmbedder(EMBEDDING_DIM, codeTokens);
		case 'builtin': {
			const m = builtinModule();
			if (!m) throw new Error('the built-in embedder is not part of this build');
			return fitToWidth(await m.loadBuiltinEmbedder(spec.dir), EMBEDDING_DIM);
		}
		case 'onnx':
			return fitToWidth(await LocalOnnxEmbedder.load(spec.id, spec.spec, spec.settings), EMBEDDING_DIM);
	}
}

/** The id the worker's vectors will carry, known without loading anything (null: no vectors). */
export function workerEmbedderId(spec: WorkerEmbedderSpec): string | null {
	if (spec.kind === 'none') return null;
	if (spec.kind === 'hashing') return new HashingEmbedder(EMBEDDING_DIM, codeTokens).id;
	if (spec.kind === 'builtin') return builtinModule()?.BUILTIN_EMBEDDER_ID ?? null;
	return spec.id;
}
