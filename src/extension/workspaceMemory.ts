/**
 * The extension's handle on the workspace tier: where the store lives, indexing through the
 * IndexWorkerClient (a worker thread), and the retrieval half of a chat turn (hybrid search →
 * evidence stage → trace steps). No `vscode` import, so it is tested against a real store.
 * Nothing opens at construction: the store and the worker start on the first index or the first
 * retrieving turn.
 */
import { homedir } from 'node:os';
import type { Thresholds } from '../core/thresholds';
import type { EvidenceStep, RetrievalStep, TraceStep } from '../core/trace';
import type { GateResult, Tier } from '../core/types';
import type { Embedder } from '../models/embedder';
import { IndexWorkerClient } from '../indexing/indexWorkerClient';
import type { FolderIndexResult, RunOptions } from '../indexing/indexer';
import { runEvidenceStage } from '../retrieval/evidence/evidenceStage';
import type { SelectedEvidence } from '../retrieval/evidence/types';
import { hybridSearch } from '../retrieval/hybridSearch';
import { resolveStoreLocation, workspaceId, type StoreLocation } from '../store/location';
import { openStore, type Store } from '../store/openStore';
import { errorMessage, type Logger } from './logger';

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
}

/** One quoted chunk of evidence. */
export interface EvidenceChunk {
	tier: Tier;
	path: string | null;
	startLine: number | null;
	endLine: number | null;
	symbol: string | null;
	text: string;
}

/** The retrieval half of a turn: what to say and the trace steps to append. */
export type RetrievalReply =
	| { status: 'evidence'; chunks: EvidenceChunk[]; notes: string[]; steps: TraceStep[] }
	| { status: 'no_match'; notes: string[]; steps: TraceStep[] }
	| { status: 'not_indexed'; steps: TraceStep[] }
	| { status: 'error'; message: string; steps: TraceStep[] };

/** Lazily opened store + indexing worker for the window's workspace folders. */
export class WorkspaceMemory {
	private store: Promise<Store> | null = null;
	private client: IndexWorkerClient | null = null;
	private location: StoreLocation | null = null;
	private disposed = false;

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

	/** Indexes the folders in the worker thread (lexical-only: no embedder). */
	indexFolders(folders: readonly string[], run: RunOptions = {}): Promise<FolderIndexResult[]> {
		if (this.disposed) return Promise.reject(new Error('workspace memory disposed'));
		this.client ??= new IndexWorkerClient({
			config: { store: this.where(), embedder: 'none' },
			script: this.options.workerScript,
			onCrash: (m) => this.options.log.error(m),
		});
		return this.client.indexFolders(folders, run);
	}

	/**
	 * The embedder used for queries and memory writes, or null in lexical-only mode (the write
	 * path then stores rows without vectors).
	 */
	async embedder(): Promise<Embedder | null> {
		return null;
	}

	/** Searches the workspace tier for a turn whose decision retrieves it; never throws. */
	async retrieve(query: string, result: GateResult, thresholds: Thresholds): Promise<RetrievalReply> {
		const steps: TraceStep[] = [];
		try {
			const store = await this.openStore();
			const ids = this.options.folders().map((f) => workspaceId(f));
			if (!ids.length || !(await hasWorkspaceRows(store, ids))) return { status: 'not_indexed', steps };
			const k = result.policy.rag_k;
			const floor = result.policy.rag_min_similarity;
			const t0 = performance.now();
			// Lexical-only: the extension has no embedder yet, so the cosine floor cannot apply.
			const out = await hybridSearch(store.db, query, { tier: 'workspace', workspaceIds: ids, k, arm: 'hybrid', embedder: null, cosineFloor: null, thresholds });
			const retrieval: RetrievalStep = {
				kind: 'retrieval',
				tier: 'workspace',
				query,
				searched_query: out.searched_query,
				arm_mode: 'fts',
				k,
				floor: null,
				hits: out.hits.map(({ content: _content, ...hit }) => hit),
				ms: Math.round(performance.now() - t0),
			};
			steps.push(retrieval);
			for (const message of out.notes) steps.push({ kind: 'note', stage: 'retrieval', level: 'info', message });
			const stage = await runEvidenceStage({
				query,
				candidates: out.hits.map((hit) => ({ hit, tier: 'workspace' as const, text: hit.content })),
				reranker: null,
				embedder: null,
				cosineFloors: { workspace: floor },
				k,
				thresholds,
			});
			steps.push(stage.rerankStep);
			const evidence: EvidenceStep = stage.evidence.step;
			steps.push(evidence);
			const notes = [...out.notes, ...stage.evidence.notes];
			if (!stage.evidence.selected.length) return { status: 'no_match', notes, steps };
			return { status: 'evidence', chunks: byRank(stage.evidence.selected), notes, steps };
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
		await client?.dispose().catch(() => undefined);
		if (store) await store.then((s) => s.close(), () => undefined).catch(() => undefined);
	}
}

async function hasWorkspaceRows(store: Store, ids: readonly string[]): Promise<boolean> {
	const rows = await store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM documents WHERE tier = 'workspace' AND workspace_id = ANY($1::text[])", [ids]);
	return (rows[0]?.n ?? 0) > 0;
}

function byRank(selected: readonly SelectedEvidence[]): EvidenceChunk[] {
	return [...selected]
		.sort((a, b) => a.rank - b.rank)
		.map((s) => {
			const h = s.candidate.hit;
			return { tier: s.candidate.tier, path: h.path, startLine: h.start_line, endLine: h.end_line, symbol: h.symbol, text: s.candidate.text };
		});
}
