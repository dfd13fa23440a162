/**
 * What the extension's chat turn retrieves with, as a pure function of its settings and the
 * turn's decision (no `vscode` import), so a test can set it beside the CLI's (src/cli/cliModels.ts)
 * and fail when the two hosts drift (issue 15, CONTRACT.md "The CLI runs the product").
 */
import type { Thresholds } from '../core/thresholds';
import type { PolicyDecision } from '../core/types';
import { retrievalConfig, type RetrievalConfig } from '../retrieval/retrievalPlan';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from './modelsRuntime';

/**
 * `gatedMemory.models.*` from a reader of configuration values (VS Code's `get`, or package.json's
 * contributed defaults in a test): unknown values fall back to the defaults.
 */
export function parseModelSettings(
	read: (key: 'embedder' | 'reranker' | 'hubEndpoint' | 'localPath') => unknown,
): ModelSettings {
	const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
	const embedder = str(read('embedder'));
	const reranker = str(read('reranker'));
	return {
		embedder: embedder === 'minilm' || embedder === 'none' ? embedder : DEFAULT_MODEL_SETTINGS.embedder,
		reranker: reranker === 'minilm' || reranker === 'none' ? reranker : DEFAULT_MODEL_SETTINGS.reranker,
		hubEndpoint: str(read('hubEndpoint')) || DEFAULT_MODEL_SETTINGS.hubEndpoint,
		localPath: str(read('localPath')),
	};
}

/**
 * The configuration of a turn's workspace search when its models are ready: the settings' models,
 * the decision's k and floor, and the pool sizes retrieveWorkspace uses (retrievalPlan).
 */
export function extensionRetrievalConfig(
	settings: ModelSettings,
	policy: Pick<PolicyDecision, 'rag_k' | 'rag_min_similarity'>,
	t: Thresholds,
): RetrievalConfig {
	return retrievalConfig({
		embedder: settings.embedder,
		reranker: settings.reranker,
		k: policy.rag_k,
		floor: policy.rag_min_similarity,
		thresholds: t,
	});
}
