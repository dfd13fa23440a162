/**
 * An ONNX embedder that runs onnxruntime in the calling thread. Only for threads that are
 * already off the extension host's main thread (the indexing worker): there it saves a second
 * worker hop and a copy of every chunk's text and vector across a thread boundary.
 */
import type { Embedder } from './embedder';
import type { ModelSpec, SessionSettings } from './inferenceProtocol';
import { abortError, ModelUnavailableError } from './onnxModels';
import { LoadedModel } from './onnxRuntime';

/** A loaded in-thread embedder; `release` frees the native session. */
export class LocalOnnxEmbedder implements Embedder {
	readonly semantic = true;
	readonly dim: number;

	private constructor(
		readonly id: string,
		private readonly model: LoadedModel,
	) {
		this.dim = model.spec.dim;
	}

	/** Loads and checks the model (names, probe run, dimension); rejects with the reason. */
	static async load(id: string, spec: ModelSpec, settings: SessionSettings): Promise<LocalOnnxEmbedder> {
		if (spec.kind !== 'embedder') throw new Error(`${id} is not an embedder model`);
		const r = await LoadedModel.load(spec, settings);
		if (!r.ok) throw new ModelUnavailableError(r.error);
		return new LocalOnnxEmbedder(id, r.value);
	}

	/** Unit vectors in input order; stops between batches when `signal` aborts. */
	async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
		const r = await this.model.embed(texts, () => signal?.aborted === true);
		if (r.ok) return r.value;
		throw r.error.code === 'cancelled' ? abortError(r.error.message) : new ModelUnavailableError(r.error);
	}

	/** Frees the session. */
	release(): Promise<void> {
		return this.model.release();
	}
}
