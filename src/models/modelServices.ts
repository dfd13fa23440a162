/**
 * One call that wires the model layer for a host (extension or CLI): an inference worker, the
 * model manager, and the default embedder and reranker, all lazy — creating the services starts
 * nothing; the first embed/rerank locates (or, with consent, downloads) and loads its model.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ok } from '../core/result';
import { InferenceClient, type InferenceClientOptions } from './inferenceClient';
import { MINILM_EMBEDDER, MSMARCO_RERANKER, type ModelManifest } from './manifests';
import { ModelManager, type ModelManagerOptions, type ModelValidator } from './modelManager';
import { OnnxEmbedder, OnnxReranker, PassthroughReranker } from './onnxModels';
import { specFor } from './lazyModel';
import type { Reranker } from './reranker';

/** Default cache: `$GMEM_MODELS` if set, else `~/.gated-memory/models` (beside the default store). */
export function defaultModelCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	return env.GMEM_MODELS || join(homedir(), '.gated-memory', 'models');
}

/** Checks a downloaded folder inside the inference worker, so the caller's thread never loads onnxruntime. */
export function workerValidator(client: InferenceClient): ModelValidator {
	return (manifest, dir) => client.request({ type: 'validate', spec: specFor(manifest, dir) });
}

/** Options: the manager's, plus which models to use and how to run the worker. */
export interface ModelServicesOptions extends Omit<ModelManagerOptions, 'cacheDir'> {
	cacheDir?: string;
	embedder?: ModelManifest | null;
	/** null: no reranker (passthrough with "disabled in settings"). */
	reranker?: ModelManifest | null;
	threads?: number;
	worker?: InferenceClientOptions;
}

/** The wired model layer. */
export interface ModelServices {
	client: InferenceClient;
	manager: ModelManager;
	/** null in lexical-only mode (no embedder configured). */
	embedder: OnnxEmbedder | null;
	reranker: Reranker;
	/** Stops the worker (sessions freed); safe to call twice. */
	dispose(): Promise<void>;
}

/** Creates the services; nothing runs until the first embed or rerank. */
export function createModelServices(options: ModelServicesOptions = {}): ModelServices {
	const client = new InferenceClient(options.worker);
	const manager = new ModelManager({
		...options,
		cacheDir: options.cacheDir ?? defaultModelCacheDir(),
		validate: options.validate ?? workerValidator(client),
	});
	const lazy = { threads: options.threads ?? 1 };
	const embManifest = options.embedder === undefined ? MINILM_EMBEDDER : options.embedder;
	const rrManifest = options.reranker === undefined ? MSMARCO_RERANKER : options.reranker;
	const embedder = embManifest ? new OnnxEmbedder(client, embManifest, manager.locator(embManifest), lazy) : null;
	const reranker = rrManifest
		? new OnnxReranker(client, rrManifest, manager.locator(rrManifest), { ...lazy, batchSize: 36 })
		: new PassthroughReranker('reranker disabled in settings');
	return { client, manager, embedder, reranker, dispose: () => client.dispose() };
}

/** A locator for a folder that is already known (tests, benchmarks, a model folder given on the command line). */
export function fixedLocation(dir: string) {
	return async () => ok(dir);
}
