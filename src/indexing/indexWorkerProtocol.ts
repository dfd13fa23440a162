/**
 * Messages between the host (extension or CLI) and the indexing worker thread. Plain data only:
 * everything crosses a structured-clone boundary.
 */
import type { StoreLocation } from '../store/location';
import type { WorkerEmbedderSpec } from './workerEmbedder';
import type { FileOutcome } from './indexFile';
import type { FolderIndexResult, IndexProgress } from './indexer';
import type { PathsIndexResult } from './reindexPaths';

/** How the worker sets itself up (its `workerData`). */
export interface IndexWorkerConfig {
	store: StoreLocation;
	/** Which embedder (workerEmbedder.ts); the bare strings are shorthands for `{ kind }` ('hashing' is the TEST embedder). */
	embedder: WorkerEmbedderSpec | 'none' | 'hashing';
	thresholds?: Record<string, number>;
	excludes?: string[];
	followSymlinks?: boolean;
}

/** Host → worker. */
export type IndexRequest =
	| { type: 'index'; id: number; folders: string[] }
	| { type: 'reindexFile'; id: number; path: string }
	| { type: 'removeFile'; id: number; path: string }
	/** A debounced batch of changed/created/deleted paths: one request, one write transaction per folder. */
	| { type: 'reindexPaths'; id: number; paths: string[]; folders: string[] }
	| { type: 'cancel'; id: number };

/** Worker → host. */
export type IndexReply =
	| { type: 'progress'; id: number; progress: IndexProgress }
	| { type: 'done'; id: number; result: FolderIndexResult[] | FileOutcome | PathsIndexResult | number }
	| { type: 'error'; id: number; message: string; cancelled: boolean };

/** Type guard for replies (the host never trusts `event.data` blindly). */
export function isIndexReply(v: unknown): v is IndexReply {
	if (!v || typeof v !== 'object') return false;
	const r = v as { type?: unknown; id?: unknown };
	return typeof r.id === 'number' && (r.type === 'progress' || r.type === 'done' || r.type === 'error');
}
