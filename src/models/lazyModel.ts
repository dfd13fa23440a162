/**
 * Lazy, shared loading of one model into the inference worker: nothing happens until the first
 * embed/rerank; concurrent first calls share one load; a failed load is remembered for a while
 * (so a missing model does not cost a load attempt per query) and retried after `retryMs`;
 * a worker that died and lost its sessions is reloaded transparently once.
 */
import { err, type Result } from '../core/result';
import type { InferenceClient } from './inferenceClient';
import type { LoadedModelInfo, ModelError, ModelSpec, SessionSettings } from './inferenceProtocol';
import type { ModelManifest } from './manifests';

/** Finds (and, with consent, downloads) a model's folder. Implemented by the model manager. */
export type ModelLocator = (signal?: AbortSignal) => Promise<Result<string, ModelError>>;

/** A lazily loaded model's state, for display. */
export type ModelState =
	{ status: 'idle' | 'loading' | 'loaded' } | { status: 'failed'; error: ModelError; at: number };

/** Settings for a lazily loaded model. */
export interface LazyModelOptions {
	/** onnxruntime intra-op threads; 1 by default (steadier under contention, measured). */
	threads?: number;
	/** Largest batch; 32 by default (embedding), 36-pair rerank batches fit in two runs at 32. */
	batchSize?: number;
	/** How long a failed load is remembered before trying again (ms). */
	retryMs?: number;
	now?: () => number;
}

/** Builds the worker-side spec from a manifest and a folder. */
export function specFor(manifest: ModelManifest, dir: string): ModelSpec {
	return {
		kind: manifest.kind,
		dir,
		onnxPath: manifest.files.onnx.path,
		dim: manifest.dim,
		pooling: manifest.pooling,
		normalize: manifest.normalize,
		maxTokens: manifest.maxTokens,
		requiredInputs: manifest.requiredInputs,
		optionalInputs: manifest.optionalInputs,
		output: manifest.output,
	};
}

/** One model slot in the worker, loaded on first need. */
export class LazyModel {
	readonly slot: string;
	private loading: Promise<Result<LoadedModelInfo, ModelError>> | undefined;
	private loaded = false;
	private failure: { error: ModelError; at: number } | undefined;
	private readonly settings: SessionSettings;

	constructor(
		private readonly client: InferenceClient,
		readonly manifest: ModelManifest,
		private readonly locate: ModelLocator,
		private readonly options: LazyModelOptions = {},
	) {
		this.slot = `${manifest.kind}:${manifest.name}`;
		this.settings = { intraOpThreads: options.threads ?? 1, batchSize: options.batchSize ?? 32 };
	}

	/** Loads the model if needed; a remembered failure is returned without retrying until retryMs passed. */
	async ensure(signal?: AbortSignal): Promise<Result<LoadedModelInfo, ModelError>> {
		const now = this.options.now ?? Date.now;
		if (this.failure && now() - this.failure.at < (this.options.retryMs ?? 60_000)) return err(this.failure.error);
		this.loading ??= this.load(signal);
		const r = await this.loading;
		this.loaded = r.ok;
		if (!r.ok) {
			this.loading = undefined;
			// Cancellation says nothing about the model; everything else does.
			if (r.error.code !== 'cancelled') this.failure = { error: r.error, at: now() };
		}
		return r;
	}

	/** What the panel and `gmem inspect` show: loaded or not, and the last failure with its time. */
	state(): ModelState {
		if (this.failure) return { status: 'failed', error: this.failure.error, at: this.failure.at };
		return { status: this.loaded ? 'loaded' : this.loading ? 'loading' : 'idle' };
	}

	/** Forgets the loaded session and any remembered failure (after a download or a settings change). */
	reset(): void {
		this.loading = undefined;
		this.loaded = false;
		this.failure = undefined;
	}

	/**
	 * Runs `op` against the loaded slot. If the worker restarted (slot gone), reloads and retries once.
	 */
	async run<T>(op: () => Promise<Result<T, ModelError>>, signal?: AbortSignal): Promise<Result<T, ModelError>> {
		const loaded = await this.ensure(signal);
		if (!loaded.ok) return loaded;
		const first = await op();
		if (first.ok || (first.error.code !== 'not-loaded' && first.error.code !== 'worker-failed')) return first;
		this.reset();
		const again = await this.ensure(signal);
		return again.ok ? op() : again;
	}

	private async load(signal?: AbortSignal): Promise<Result<LoadedModelInfo, ModelError>> {
		const dir = await this.locate(signal);
		if (!dir.ok) return dir;
		return this.client.request(
			{ type: 'load', slot: this.slot, spec: specFor(this.manifest, dir.value), settings: this.settings },
			signal,
		);
	}
}
