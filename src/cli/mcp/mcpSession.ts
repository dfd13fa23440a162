/**
 * What every `gmem mcp` tool call shares: the store (opened on the first call that needs it, and
 * opened again after a failure, so an unreachable store is an error per call — never a dead
 * server), the product's models (the CLI's defaults: built-in embedder and reranker), the
 * thresholds and the one workspace the server serves.
 */
import { basename, resolve } from 'node:path';
import type { Thresholds } from '../../core/thresholds';
import { redactSecrets } from '../../indexing/secretScan';
import type { Embedder } from '../../models/embedder';
import type { Reranker } from '../../models/reranker';
import type { RetrievalConfig } from '../../retrieval/retrievalPlan';
import type { Store } from '../../store/openStore';
import type { CliIo } from '../cliTypes';
import { cliRetrievalConfig, openCliReranker } from '../cliModels';
import { openCliEmbedder, openCliStore, workspaceOf } from '../storeCli';

export interface McpSessionOptions {
	db?: string;
	scope?: string;
	/** The workspace folder (default: the current directory, where agents start their servers). */
	workspace?: string;
	/** `--embedder`, else `$GMEM_EMBEDDER`, else the product's builtin. */
	embedder?: string;
	thresholds: Thresholds;
	allowWrites: boolean;
}

/** One server's store, models and workspace. */
export class McpSession {
	readonly workspaceId: string;
	/** The workspace folder's own name (traceback paths name it: retrieveWorkspace's folderNames). */
	readonly folderName: string;
	private store: Promise<Store> | null = null;
	private models: Promise<{
		embedder: Embedder | null;
		reranker: Reranker | null;
		dispose: () => Promise<void>;
	}> | null = null;

	constructor(
		readonly options: McpSessionOptions,
		/** Logs only: stdout belongs to the MCP protocol. */
		private readonly io: CliIo,
	) {
		this.workspaceId = workspaceOf(options.workspace, io);
		this.folderName = basename(resolve(io.cwd, options.workspace ?? '.'));
	}

	get thresholds(): Thresholds {
		return this.options.thresholds;
	}

	/** The open store; a failed open is forgotten so the next call tries again. */
	openStore(): Promise<Store> {
		this.store ??= openCliStore({ db: this.options.db, scope: this.options.scope }, this.io);
		this.store.catch(() => (this.store = null));
		return this.store;
	}

	/** The embedder and reranker `gmem search` runs with no flags (loaded once). */
	async modelsFor(): Promise<{ embedder: Embedder | null; reranker: Reranker | null }> {
		this.models ??= (async () => {
			const e = await openCliEmbedder(this.options.embedder, this.io);
			const r = openCliReranker(this.searchConfig(1).reranker, this.io);
			return {
				embedder: e.embedder,
				reranker: r.reranker,
				dispose: async () => void (await Promise.all([e.dispose(), r.dispose()])),
			};
		})();
		return this.models;
	}

	/** What `gmem search --k K` runs with (the chat path's models, pool sizes and floor). */
	searchConfig(k: number): RetrievalConfig {
		return cliRetrievalConfig({ embedder: this.options.embedder, k }, this.io.env, this.thresholds);
	}

	async close(): Promise<void> {
		const store = this.store;
		const models = this.models;
		this.store = this.models = null;
		await Promise.allSettled([store?.then((s) => s.close()), models?.then((m) => m.dispose())]);
	}
}

/** Every string in a tool's result with recognisable secrets redacted (the indexer's scanner): what reaches an agent never carries one. */
export function redactDeep<T>(value: T): T {
	if (typeof value === 'string') return redactSecrets(value, '').text as T;
	if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
	return value;
}
