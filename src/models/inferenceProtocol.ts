/**
 * The typed request/response protocol between the main side (extension host, CLI) and the
 * inference worker that owns the onnxruntime sessions. Messages are structured-clone friendly
 * (plain objects, numbers, strings, Float32Array) so the same protocol runs over a worker_threads
 * port or a child process IPC channel with `serialization: 'advanced'`.
 */
import type { ModelManifest } from './manifests';

/** The part of a manifest the worker needs to load and check a model, plus where its files are. */
export type ModelSpec = Pick<
	ModelManifest,
	'kind' | 'dim' | 'pooling' | 'normalize' | 'maxTokens' | 'requiredInputs' | 'optionalInputs' | 'output'
> & {
	/** Folder holding tokenizer.json, tokenizer_config.json and the ONNX file. */
	dir: string;
	/** ONNX file path relative to `dir`. */
	onnxPath: string;
};

/** Session options; 1 intra-op thread by default (steadier than 2 under CPU contention, measured). */
export interface SessionSettings {
	intraOpThreads: number;
	/** Largest batch run at once; batches pad to their longest member. */
	batchSize: number;
}

/** What a successful load reports. */
export interface LoadedModelInfo {
	inputs: string[];
	outputs: string[];
	loadMs: number;
}

/** Requests, discriminated on `type`; every request but `cancel` gets exactly one response. */
export type InferenceRequest =
	| { type: 'load'; id: number; slot: string; spec: ModelSpec; settings: SessionSettings }
	| { type: 'embed'; id: number; slot: string; texts: string[] }
	| { type: 'rerank'; id: number; slot: string; query: string; passages: string[] }
	| { type: 'validate'; id: number; spec: ModelSpec }
	| { type: 'unload'; id: number; slot: string }
	| { type: 'stats'; id: number }
	| { type: 'cancel'; id: number; target: number };

/**
 * Why a request failed. `cancelled` is expected (the caller aborted); the rest mean "no model":
 * `missing` (not on disk), `refused` (download not allowed / declined), `download-failed`
 * (offline, HTTP error, checksum), `invalid` (files present but not the expected model).
 */
export type ModelErrorCode =
	| 'missing'
	| 'refused'
	| 'download-failed'
	| 'invalid'
	| 'load-failed'
	| 'not-loaded'
	| 'inference-failed'
	| 'cancelled'
	| 'worker-failed';

/** A failure as data (it crosses a thread boundary, so no Error instances). */
export interface ModelError {
	code: ModelErrorCode;
	message: string;
}

/** Result payloads per request type. */
export interface ResponsePayloads {
	load: LoadedModelInfo;
	embed: { vectors: Float32Array[] };
	rerank: { logits: number[] };
	validate: LoadedModelInfo;
	unload: { unloaded: boolean };
	stats: WorkerStats;
}

/** Memory of the process the worker runs in (the whole process for a thread; its own for a child). */
export interface WorkerStats {
	/** Process id (the caller's own for a thread). */
	pid: number;
	rssBytes: number;
	/** Peak resident set size since the process started. */
	maxRssBytes: number;
	/** CPU time (user + system, all threads) the process has used; deltas show cost independent of contention. */
	cpuMs: number;
	slots: string[];
}

/** One response, matched to its request by `id`. */
export type InferenceResponse =
	| { id: number; ok: true; value: ResponsePayloads[keyof ResponsePayloads] }
	| { id: number; ok: false; error: ModelError };

/** Type guard for messages arriving at the main side. */
export function isInferenceResponse(m: unknown): m is InferenceResponse {
	if (typeof m !== 'object' || m === null) return false;
	const r = m as Record<string, unknown>;
	return typeof r.id === 'number' && typeof r.ok === 'boolean' && (r.ok ? 'value' in r : typeof r.error === 'object');
}

const REQUEST_TYPES = new Set(['load', 'embed', 'rerank', 'validate', 'unload', 'stats', 'cancel']);

/** Type guard for messages arriving at the worker (shape of the envelope only). */
export function isInferenceRequest(m: unknown): m is InferenceRequest {
	if (typeof m !== 'object' || m === null) return false;
	const r = m as Record<string, unknown>;
	return typeof r.id === 'number' && typeof r.type === 'string' && REQUEST_TYPES.has(r.type);
}
