/**
 * The extension's handle on the workspace tier: where the store lives, indexing through the
 * IndexWorkerClient (a worker thread), and the retrieval half of a chat turn (hybrid search →
 * evidence stage → trace steps). No `vscode` import, so it is tested against a real store.
 * Nothing opens at construction: the store and the worker start on the first index or the first
 * retrieving turn.
 */
import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { GateResult } from '../core/types';
import type { EvidenceItem } from '../core/evidence';
import type { Embedder } from '../models/embedder';
import type { ModelManifest } from '../models/manifests';
import { IndexWorkerClient } from '../indexing/indexWorkerClient';
import type { WorkerEmbedderSpec } from '../indexing/workerEmbedder';
import type { FolderIndexResult, RunOptions } from '../indexing/indexer';
import type { PathsIndexResult } from '../indexing/reindexPaths';
import type { SelectedEvidence } from '../retrieval/evidence/types';
import { retrieveWorkspace } from '../retrieval/workspaceRetrieval';
import { resolveStoreLocation, workspaceId, type StoreLocation } from '../store/location';
import { openStore, type Store } from '../store/openStore';
import { errorMessage, type Logger } from './logger';
import type { ActiveEmbedder, ActiveReranker, ModelsRuntime } from './modelsRuntime';

/**
 * The store location for the extension (CONTRACT.md "Stores"): the `gatedMemory.storage.path`
 * setting, else `$GMEM_DB`, else `~/.gated-memory/db` — the CLI's resolver (src/store/location.ts).
 */
export function extensionStoreLocation(settingPath: string | undefined, env: NodeJS.ProcessEnv): StoreLocation {
	const chosen = settingPath?.trim() ? settingPath.trim().replace(/^~(?=$|[/\\])/, homedir()) : undefined;
	return resolveStoreLocation(chosen, env, homedir());
}

/** What the host supplies. */
export interface WorkspaceMemoryOptions {
	log: Logger;
	/** Resolved when the store is first opened. */
	location: () => StoreLocation;
	/** The workspace folders (absolute paths) whose rows are searched. */
	folders: () => readonly string[];
	/** The indexing worker script (tests pass the .ts source); default: beside the bundle. */
	workerScript?: string;
	/** The embedder and reranker (absent: lexical-only, first-stage order). */
	models?: ModelsRuntime;
	/** Told once per missing model when a turn wanted it (the host offers the download). */
	onModelsMissing?: (missing: ModelManifest[]) => void;
	/** Told when a turn found chunks without the active embedder's vectors (the host re-embeds in the background). */
	onStaleVectors?: () => void;
	/** The indexing worker's excludes and threshold overrides from settings (read when a worker starts). */
	indexConfig?: () => { excludes: string[]; thresholds: Record<string, number> };
	/** Told when the indexing worker dies (the next request starts a new one). */
	onIndexCrash?: (message: string) => void;
}

/** The retrieval half of a turn: what to say and the trace steps to append. */
export type RetrievalReply =
	| { status: 'evidence'; chunks: EvidenceItem[]; notes: string[]; steps: TraceStep[]; models?: ModelsUsed }
	| { status: 'no_match'; notes: string[]; steps: TraceStep[]; models?: ModelsUsed }
	| { status: 'not_indexed'; steps: TraceStep[] }
	| { status: 'error'; message: string; steps: TraceStep[] };

/** Which models a retrieval used: the id of the vectors searched (null: lexical-only) and the reranker's status. */
export interface ModelsUsed {
	embedder: string | null;
	reranker: 'model' | 'passthrough';
	/** Workspace chunks with vectors of the active embedder, of all chunks searched. */
	embedded: number;
	chunks: number;
}

/** Lazily opened store + indexing worker for the window's workspace folders. */
export class WorkspaceMemory {
	private store: Promise<Store> | null = null;
	private client: IndexWorkerClient | null = null;
	/** The embedder spec the running worker was started with (its vectors' id). */
	private clientEmbedder = '';
	private location: StoreLocation | null = null;
	private disposed = false;
	private readonly offered = new Set<string>();
	/** The last chunk coverage count, reused between index writes (see cachedCoverage). */
	private coverageCache: { key: string; rows: string; at: number; value: Coverage } | null = null;

	constructor(private readonly options: WorkspaceMemoryOptions) {}

	/** True once the store has been asked for (tests check activation opens nothing). */
	get opened(): boolean {
		return this.store !== null;
	}

	private where(): StoreLocation {
		return (this.location ??= this.options.location());
	}

	/** Opens the store on first use; a failed open is retried by the next call. */
	openStore(): Promise<Store> {
		if (this.disposed) return Promise.reject(new Error('workspace memory disposed'));
		this.store ??= openStore(this.where()).then((r) => {
			if (r.ok) {
				this.options.log.info(`store opened: ${r.value.where} (${r.value.engine}, schema ${r.value.schemaVersion})`);
				return r.value;
			}
			throw new Error(`cannot open the memory store (${r.error.code}): ${r.error.message}`);
		});
		this.store.catch(() => (this.store = null));
		return this.store;
	}

	/**
	 * Indexes the folders in the worker thread with the active embedder. A worker started for
	 * another embedder is replaced first, so one run never writes vectors of two models; files
	 * whose vectors came from another embedder are re-embedded (their index key includes it).
	 */
	async indexFolders(folders: readonly string[], run: RunOptions = {}): Promise<FolderIndexResult[]> {
		if (this.disposed) throw new Error('workspace memory disposed');
		const client = await this.workerFor((await this.activeEmbedder()).worker);
		try {
			return await client.indexFolders(folders, run);
		} finally {
			this.indexChanged();
		}
	}

	/**
	 * Re-embeds the indexed folders when some chunks lack vectors of the active embedder (after
	 * the embedder changed or a model arrived). Null when there is nothing to do.
	 */
	async reembedIfNeeded(run: RunOptions = {}): Promise<FolderIndexResult[] | null> {
		const active = await this.activeEmbedder();
		if (active.status !== 'ready') return null;
		const folders = this.options.folders();
		const store = await this.openStore();
		const cov = await coverage(
			store,
			folders.map((f) => workspaceId(f)),
			active.id,
		);
		if (!cov.chunks || cov.embedded === cov.chunks) return null;
		this.options.log.info(`re-embedding ${cov.chunks - cov.embedded} of ${cov.chunks} chunks with ${active.id}`);
		return this.indexFolders(folders, run);
	}

	/** Call after any write to the workspace index outside indexFolders/reindexPaths (clear, forget). */
	indexChanged(): void {
		this.coverageCache = null;
	}

	/**
	 * How many chunks carry the active embedder's vectors, for the turn's trace note. The count
	 * scans every workspace chunk (≈ 80 ms at 47k chunks on PGlite), so a turn reuses the last one
	 * until this window writes the index or COVERAGE_TTL_MS passes (another window or `gmem index`
	 * writing the same store shows within that time).
	 */
	private async cachedCoverage(store: Store, ids: readonly string[], embedder: string): Promise<Coverage> {
		const key = JSON.stringify([store.scope, ids, embedder]);
		const now = Date.now();
		const hit = this.coverageCache;
		if (hit && hit.key === key && now - hit.at < COVERAGE_TTL_MS) return hit.value;
		const value = await coverage(store, ids, embedder);
		this.coverageCache = { key, rows: rowsKey(store, ids), at: now, value };
		return value;
	}

	/**
	 * Whether the folders have rows in the index. A fresh coverage count that found their chunks
	 * answers it without a statement (one round trip less per turn: ~1 ms on PGlite, bench:chat);
	 * it is as fresh as the count itself — dropped on this window's writes, COVERAGE_TTL_MS otherwise.
	 */
	private async indexed(store: Store, ids: readonly string[]): Promise<boolean> {
		const hit = this.coverageCache;
		if (hit && hit.rows === rowsKey(store, ids) && Date.now() - hit.at < COVERAGE_TTL_MS && hit.value.chunks > 0)
			return true;
		return hasWorkspaceRows(store, ids);
	}

	/**
	 * The embedder used for queries and memory writes, or null in lexical-only mode (the write
	 * path then stores rows without vectors).
	 */
	async embedder(): Promise<Embedder | null> {
		const active = await this.activeEmbedder();
		return active.status === 'ready' ? active.embedder : null;
	}

	/** The embedder the settings ask for, if it can run now (never downloads). */
	async activeEmbedder(): Promise<ActiveEmbedder> {
		if (!this.options.models) return { status: 'none', reason: 'no model layer configured', worker: { kind: 'none' } };
		return this.options.models.activeEmbedder();
	}

	private activeReranker(): ActiveReranker {
		return this.options.models?.activeReranker() ?? { status: 'none', reason: 'no model layer configured' };
	}

	/** The worker for this embedder spec, restarting one that was started for another. */
	private async workerFor(spec: WorkerEmbedderSpec): Promise<IndexWorkerClient> {
		const key = JSON.stringify(spec);
		if (this.client && this.clientEmbedder !== key) {
			const old = this.client;
			this.client = null;
			this.options.log.info('embedder changed: restarting the indexing worker');
			await old
				.dispose()
				.catch((e: unknown) =>
					this.options.log.warn(`indexing worker (old embedder) did not stop cleanly: ${errorMessage(e)}`),
				);
		}
		this.clientEmbedder = key;
		this.client ??= new IndexWorkerClient({
			config: { store: this.where(), embedder: spec, ...this.options.indexConfig?.() },
			script: this.options.workerScript,
			onCrash: (m) => {
				this.options.log.error(m);
				this.options.onIndexCrash?.(m);
			},
		});
		return this.client;
	}

	/** Re-indexes a batch of changed paths (the file watcher) as one worker request. */
	async reindexPaths(paths: readonly string[], signal?: AbortSignal): Promise<PathsIndexResult> {
		if (this.disposed) throw new Error('workspace memory disposed');
		const client = await this.workerFor((await this.activeEmbedder()).worker);
		try {
			return await client.reindexPaths(paths, this.options.folders(), signal);
		} finally {
			this.indexChanged();
		}
	}

	/** Stops the indexing worker, so the next request starts one with the current settings. */
	async restartIndexer(): Promise<void> {
		const old = this.client;
		this.client = null;
		await old
			?.dispose()
			.catch((e: unknown) =>
				this.options.log.warn(`indexing worker did not stop cleanly on restart: ${errorMessage(e)}`),
			);
	}

	/** Offers the download of models a turn wanted (once per model per session). */
	private offerMissing(): void {
		const missing = this.options.models?.missing().filter((m) => !this.offered.has(m.repo)) ?? [];
		if (!missing.length || !this.options.onModelsMissing) return;
		for (const m of missing) this.offered.add(m.repo);
		this.options.onModelsMissing(missing);
	}

	/**
	 * Searches the workspace tier for a turn whose decision retrieves it; never throws. The vector
	 * arm runs with the active embedder over the chunks that carry its vectors (never another
	 * model's); a missing, refused or failing model degrades to lexical-only / first-stage order,
	 * and the trace says which model produced the vectors and what the reranker did.
	 */
	async retrieve(query: string, result: GateResult, thresholds: Thresholds): Promise<RetrievalReply> {
		const steps: TraceStep[] = [];
		const note = (message: string, level: 'info' | 'warn' = 'info') =>
			steps.push({ kind: 'note', stage: 'retrieval', level, message });
		try {
			const store = await this.openStore();
			const ids = this.options.folders().map((f) => workspaceId(f));
			if (!ids.length || !(await this.indexed(store, ids))) return { status: 'not_indexed', steps };
			const k = result.policy.rag_k;
			const floor = result.policy.rag_min_similarity;
			const t0 = performance.now();
			const active = await this.activeEmbedder();
			const rerank = this.activeReranker();
			if (active.status === 'none' || rerank.status === 'none') this.offerMissing();
			const cov = await this.cachedCoverage(store, ids, active.status === 'ready' ? active.id : '');
			let embedder: Embedder | null = null;
			if (active.status === 'none') note(`lexical-only: ${active.reason}`);
			else if (cov.embedded === 0) {
				this.options.onStaleVectors?.();
				note(`lexical-only: no chunk has ${active.id} vectors yet (re-embedding runs in the background)`);
			} else {
				try {
					const [qv] = await active.embedder.embed([query]);
					embedder = precomputed(active.embedder, qv);
					note(`vector arm: ${active.id} (${active.label}), ${cov.embedded} of ${cov.chunks} chunks embedded`);
					if (cov.embedded < cov.chunks) this.options.onStaleVectors?.();
					if (cov.embedded < cov.chunks)
						note(
							`re-embedding with ${active.id} is not finished: ${cov.chunks - cov.embedded} chunks without its vectors are searched lexical-only`,
						);
				} catch (e) {
					note(`lexical-only: the query could not be embedded with ${active.id} (${errorMessage(e)})`, 'warn');
				}
			}
			// The one pipeline gmem search and gmem eval run too (src/retrieval/workspaceRetrieval.ts).
			const out = await retrieveWorkspace(store.db, {
				query,
				workspaceIds: ids,
				folderNames: this.options.folders().map((f) => basename(f)),
				k,
				embedder,
				reranker: rerank.status === 'ready' ? rerank.reranker : null,
				noRerankReason: rerank.status === 'ready' ? undefined : rerank.reason,
				// The trace names the model as the panel's model status does (as before the shared function).
				...(rerank.status === 'ready' ? { rerankerLabel: rerank.id } : {}),
				floor,
				thresholds,
				startedAt: t0,
			});
			steps.push(...out.steps);
			const notes = out.notes;
			const models: ModelsUsed = {
				embedder: embedder?.id ?? null,
				reranker: out.rerank.status,
				embedded: cov.embedded,
				chunks: cov.chunks,
			};
			if (!out.evidence.selected.length) return { status: 'no_match', notes, steps, models };
			return { status: 'evidence', chunks: byRank(out.evidence.selected), notes, steps, models };
		} catch (e) {
			const message = errorMessage(e);
			this.options.log.error(`retrieval failed: ${message}`);
			steps.push({ kind: 'note', stage: 'retrieval', level: 'error', message });
			return { status: 'error', message, steps };
		}
	}

	/** Stops the worker and closes the store (when they were started). */
	async dispose(): Promise<void> {
		this.disposed = true;
		const client = this.client;
		const store = this.store;
		this.client = null;
		this.store = null;
		await client
			?.dispose()
			.catch((e: unknown) =>
				this.options.log.warn(`indexing worker did not stop cleanly on dispose: ${errorMessage(e)}`),
			);
		// A store that never opened has nothing to close (its open error was reported to the turn that asked).
		if (store)
			await store
				.then(
					(s) => s.close(),
					() => undefined,
				)
				.catch((e: unknown) => this.options.log.warn(`store did not close cleanly: ${errorMessage(e)}`));
	}
}

/** Which folders of which scope a coverage count was of (whatever the embedder). */
const rowsKey = (store: Store, ids: readonly string[]) => JSON.stringify([store.scope, ids]);

async function hasWorkspaceRows(store: Store, ids: readonly string[]): Promise<boolean> {
	// EXISTS stops at the first row; a count would scan every document of the folders on each turn.
	const rows = await store.db.query<{ found: boolean }>(
		"SELECT EXISTS (SELECT 1 FROM documents WHERE scope = $2 AND tier = 'workspace' AND workspace_id = ANY($1::text[])) AS found",
		[ids, store.scope],
	);
	return rows[0]?.found === true;
}

/** Chunks of the folders, and how many carry the vectors of one embedder. */
interface Coverage {
	embedded: number;
	chunks: number;
}

/** How long a turn reuses the chunk coverage count when this window has not written the index. */
export const COVERAGE_TTL_MS = 30_000;

/** How many of the folders' workspace chunks carry vectors of `embedder` (the vector arm sees only those). */
async function coverage(store: Store, ids: readonly string[], embedder: string): Promise<Coverage> {
	const rows = await store.db.query<{ embedded: number; chunks: number }>(
		"SELECT count(*) FILTER (WHERE embedder = $2 AND embedding IS NOT NULL)::int AS embedded, count(*)::int AS chunks FROM chunks WHERE scope = $3 AND tier = 'workspace' AND workspace_id = ANY($1::text[])",
		[ids, embedder, store.scope],
	);
	return { embedded: rows[0]?.embedded ?? 0, chunks: rows[0]?.chunks ?? 0 };
}

/** An embedder that answers with the query vector already computed (the search embeds one text). */
function precomputed(embedder: Embedder, vector: Float32Array): Embedder {
	return { id: embedder.id, dim: embedder.dim, semantic: embedder.semantic, embed: async () => [vector] };
}

function byRank(selected: readonly SelectedEvidence[]): EvidenceItem[] {
	return [...selected]
		.sort((a, b) => a.rank - b.rank)
		.map((s) => {
			const h = s.candidate.hit;
			return {
				source: s.candidate.tier,
				path: h.path,
				startLine: h.start_line,
				endLine: h.end_line,
				symbol: h.symbol,
				text: s.candidate.text,
			};
		});
}
