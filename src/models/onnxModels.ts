/**
 * The Embedder and Reranker implementations on onnxruntime-node, backed by the inference worker.
 * Both load lazily on first use. The reranker never throws: any failure becomes a passthrough
 * with the reason. The embedder rejects with a typed ModelUnavailableError (or an AbortError when
 * cancelled) so the search layer can fall back to lexical-only; `tryEmbed` offers the same as a
 * Result value.
 */
import { err, ok, type Result } from '../core/result';
import type { Embedder } from './embedder';
import type { InferenceClient } from './inferenceClient';
import type { LoadedModelInfo, ModelError } from './inferenceProtocol';
import { LazyModel, type LazyModelOptions, type ModelLocator, type ModelState } from './lazyModel';
import { embedderId, type ModelManifest } from './manifests';
import type { Reranker, RerankResult } from './reranker';
import { sigmoid } from './tensorMath';

/** Thrown by `OnnxEmbedder.embed` when the model is missing, refused or fails; carries the code. */
export class ModelUnavailableError extends Error {
	constructor(readonly error: ModelError) {
		super(`${error.code}: ${error.message}`);
		this.name = 'ModelUnavailableError';
	}
}

/** Standard cancellation error (same name as DOM's AbortError so generic handlers recognise it). */
export function abortError(message = 'cancelled'): Error {
	const e = new Error(message);
	e.name = 'AbortError';
	return e;
}

/** What both ONNX models share: a lazily loaded model in the inference worker, and its lifecycle. */
abstract class OnnxModelHandle {
	readonly id: string;
	protected readonly model: LazyModel;

	protected constructor(
		protected readonly client: InferenceClient,
		manifest: ModelManifest,
		kind: ModelManifest['kind'],
		locate: ModelLocator,
		options?: LazyModelOptions,
	) {
		if (manifest.kind !== kind)
			throw new TypeError(`${manifest.name} is not ${kind === 'embedder' ? 'an' : 'a'} ${kind} manifest`);
		this.id = embedderId(manifest);
		this.model = new LazyModel(client, manifest, locate, options);
	}

	/** Loads the model now (e.g. to report availability); normally the first use does this. */
	load(signal?: AbortSignal): Promise<Result<LoadedModelInfo, ModelError>> {
		return this.model.ensure(signal);
	}

	/** Forgets a failed or loaded state so the next call locates and loads again. */
	reset(): void {
		this.model.reset();
	}

	/** Loaded, loading, idle, or failed with the reason (for the panel and `gmem inspect`). */
	state(): ModelState {
		return this.model.state();
	}
}

/** Sentence embedder (all-MiniLM-L6-v2 by default): mean pooling + L2 norm. */
export class OnnxEmbedder extends OnnxModelHandle implements Embedder {
	readonly dim: number;
	readonly semantic = true;

	constructor(client: InferenceClient, manifest: ModelManifest, locate: ModelLocator, options?: LazyModelOptions) {
		super(client, manifest, 'embedder', locate, options);
		this.dim = manifest.dim;
	}

	/** Embeds texts; failures as a Result value. */
	async tryEmbed(texts: readonly string[], signal?: AbortSignal): Promise<Result<Float32Array[], ModelError>> {
		if (texts.length === 0) return ok([]);
		const r = await this.model.run(
			() => this.client.request({ type: 'embed', slot: this.model.slot, texts: [...texts] }, signal),
			signal,
		);
		return r.ok ? ok(r.value.vectors) : err(r.error);
	}

	/** Embedder contract: unit vectors in input order; rejects with ModelUnavailableError or AbortError. */
	async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
		const r = await this.tryEmbed(texts, signal);
		if (r.ok) return r.value;
		throw r.error.code === 'cancelled' ? abortError(r.error.message) : new ModelUnavailableError(r.error);
	}
}

/** Cross-encoder reranker (ms-marco-MiniLM-L-6-v2 by default): logits and sigmoid probabilities. */
export class OnnxReranker extends OnnxModelHandle implements Reranker {
	constructor(client: InferenceClient, manifest: ModelManifest, locate: ModelLocator, options?: LazyModelOptions) {
		super(client, manifest, 'reranker', locate, options);
	}

	/** Scores every passage against the query; any failure yields passthrough with the reason. */
	async rerank(query: string, passages: readonly string[], signal?: AbortSignal): Promise<RerankResult> {
		const start = performance.now();
		if (passages.length === 0) return { scores: [], status: 'model', logits: [], ms: 0 };
		const r = await this.model.run(
			() => this.client.request({ type: 'rerank', slot: this.model.slot, query, passages: [...passages] }, signal),
			signal,
		);
		const ms = performance.now() - start;
		if (!r.ok) return passthrough(passages.length, `${r.error.code}: ${r.error.message}`, ms);
		return { scores: r.value.logits.map(sigmoid), status: 'model', logits: r.value.logits, ms };
	}
}

/** A passthrough result: first-stage order kept, no scores, and why. */
export function passthrough(n: number, reason: string, ms = 0): RerankResult {
	return { scores: new Array<number | null>(n).fill(null), status: 'passthrough', reason, ms };
}

/** The reranker used when none is configured or the user declined the download. */
export class PassthroughReranker implements Reranker {
	readonly id = 'passthrough';
	constructor(private readonly reason = 'no reranker model configured') {}

	/** Always passthrough. */
	async rerank(_query: string, passages: readonly string[]): Promise<RerankResult> {
		return passthrough(passages.length, this.reason);
	}
}
