/**
 * The extension's model layer, without `vscode` (tested against real onnxruntime): which
 * embedder and reranker the settings ask for, whether their files are here, the query-side
 * embedder, the indexing worker's embedder spec, and downloads. Chat turns never download:
 * a model that is not here is reported (lexical-only / passthrough, with the reason) and the
 * host offers the download, which only `download()` performs, after the user's consent.
 */
import type { Agent } from 'node:http';
import { err, ok } from '../core/result';
import { builtinModule } from '../models/builtinLoader';
import type { Embedder } from '../models/embedder';
import { InferenceClient, type InferenceClientOptions } from '../models/inferenceClient';
import type { ModelError } from '../models/inferenceProtocol';
import { specFor, type ModelLocator } from '../models/lazyModel';
import { embedderId, MINILM_EMBEDDER, MSMARCO_RERANKER, type ModelManifest } from '../models/manifests';
import { DEFAULT_HUB, ModelManager, type ModelProgress } from '../models/modelManager';
import { workerValidator } from '../models/modelServices';
import { OnnxEmbedder, OnnxReranker } from '../models/onnxModels';
import { LinearReranker } from '../models/linearReranker';
import { fitToWidth } from '../models/paddedEmbedder';
import type { Reranker } from '../models/reranker';
import type { WorkerEmbedderSpec } from '../indexing/workerEmbedder';
import { EMBEDDING_DIM } from '../store/schema001';
import { errorMessage, type Logger } from './logger';

/** `gatedMemory.models.*`, already read and defaulted. */
export interface ModelSettings {
	embedder: 'builtin' | 'minilm' | 'none';
	reranker: 'builtin' | 'minilm' | 'none';
	hubEndpoint: string;
	/** A folder holding model files, used instead of downloading ('' = none). */
	localPath: string;
}

/** Defaults: the built-in embedder and the built-in linear reranker (both ship in the .vsix: no download). */
export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
	embedder: 'builtin',
	reranker: 'builtin',
	hubEndpoint: DEFAULT_HUB,
	localPath: '',
};

/** The embedder in force for this turn or this indexing run. */
export type ActiveEmbedder =
	| { status: 'ready'; id: string; label: string; embedder: Embedder; worker: WorkerEmbedderSpec }
	| { status: 'none'; reason: string; worker: { kind: 'none' } };

/** The reranker in force: a model, or none with the reason. */
export type ActiveReranker = { status: 'ready'; id: string; reranker: Reranker } | { status: 'none'; reason: string };

/** What the host supplies. */
export interface ModelsRuntimeOptions {
	log: Logger;
	/** Where downloads are cached (the extension's global storage). */
	cacheDir: string;
	settings: () => ModelSettings;
	/** Proxy-aware agent for downloads (from `http.proxy`). */
	agent?: () => Agent | undefined;
	/** Test seam: manifests of the ONNX pair (default: all-MiniLM-L6-v2, ms-marco-MiniLM-L-6-v2). */
	manifests?: { embedder: ModelManifest; reranker: ModelManifest };
	worker?: InferenceClientOptions;
	/** Folder of the built-in model (default: beside the bundle, the module's own default). */
	builtinDir?: string;
}

const MISSING_HINT = 'run "Gated Memory: Download Models" or set gatedMemory.models.localPath';

/** Lazily created model services for the current settings; `refresh()` after a settings change. */
export class ModelsRuntime {
	private client: InferenceClient | null = null;
	private manager: ModelManager | null = null;
	private embedderHandle: OnnxEmbedder | null = null;
	private rerankerHandle: OnnxReranker | null = null;
	private builtin: Promise<Embedder> | null = null;
	private linearReranker: LinearReranker | null = null;
	private key = '';
	private progressSink: ((p: ModelProgress) => void) | undefined;
	/** The last embedder state logged (logged on change only). */
	private lastSaid = '';

	constructor(private readonly options: ModelsRuntimeOptions) {}

	/** The ONNX manifests in use. */
	get manifests(): { embedder: ModelManifest; reranker: ModelManifest } {
		return this.options.manifests ?? { embedder: MINILM_EMBEDDER, reranker: MSMARCO_RERANKER };
	}

	/** The settings now in force. */
	settings(): ModelSettings {
		return this.options.settings();
	}

	/** ONNX models the settings ask for whose files are neither in the local folder nor the cache. */
	missing(): ModelManifest[] {
		const s = this.sync();
		const wanted = [
			s.embedder === 'minilm' ? this.manifests.embedder : null,
			s.reranker === 'minilm' ? this.manifests.reranker : null,
		];
		return wanted.filter((m): m is ModelManifest => !!m && this.mgr().status(m).where === 'absent');
	}

	/** The query-side embedder and the indexing worker's spec; never downloads, never throws. */
	async activeEmbedder(): Promise<ActiveEmbedder> {
		const active = await this.resolveEmbedder();
		const said =
			active.status === 'ready' ? `embedder: ${active.id} (${active.label})` : `no embedder: ${active.reason}`;
		if (said !== this.lastSaid) this.options.log.info((this.lastSaid = said));
		return active;
	}

	private async resolveEmbedder(): Promise<ActiveEmbedder> {
		const s = this.sync();
		try {
			if (s.embedder === 'none') return none('no embedder: gatedMemory.models.embedder is "none"');
			if (s.embedder === 'builtin') return await this.activeBuiltin();
			const m = this.manifests.embedder;
			const st = this.mgr().status(m);
			if (st.where === 'absent') return none(`${m.name} is not downloaded (${MISSING_HINT})`);
			this.embedderHandle ??= new OnnxEmbedder(this.inference(), m, this.presentOnly(m), { threads: 1, batchSize: 32 });
			return {
				status: 'ready',
				id: embedderId(m),
				label: `${m.name} (${st.where === 'local' ? 'local folder' : 'downloaded'})`,
				embedder: fitToWidth(this.embedderHandle, EMBEDDING_DIM),
				worker: {
					kind: 'onnx',
					id: embedderId(m),
					spec: specFor(m, st.dir),
					settings: { intraOpThreads: 1, batchSize: 32 },
				},
			};
		} catch (e) {
			return none(`embedder unavailable: ${errorMessage(e)}`);
		}
	}

	/**
	 * The reranker the settings ask for, if its files are here; never downloads. The built-in one
	 * reads its weights on first use; a missing or broken file is a passthrough with the reason.
	 */
	activeReranker(): ActiveReranker {
		const s = this.sync();
		if (s.reranker === 'none')
			return { status: 'none', reason: 'reranker off (gatedMemory.models.reranker is "none")' };
		if (s.reranker === 'builtin') {
			this.linearReranker ??= new LinearReranker({ dir: this.options.builtinDir });
			return { status: 'ready', id: this.linearReranker.id, reranker: this.linearReranker };
		}
		const m = this.manifests.reranker;
		if (this.mgr().status(m).where === 'absent')
			return { status: 'none', reason: `${m.name} is not downloaded (${MISSING_HINT})` };
		this.rerankerHandle ??= new OnnxReranker(this.inference(), m, this.presentOnly(m), { threads: 1, batchSize: 36 });
		return { status: 'ready', id: m.name, reranker: this.rerankerHandle };
	}

	/** Downloads one model (the caller has the user's consent); progress goes to `onProgress`. */
	async download(
		manifest: ModelManifest,
		signal: AbortSignal,
		onProgress?: (p: ModelProgress) => void,
	): Promise<{ ok: true; dir: string } | { ok: false; error: ModelError }> {
		this.sync();
		this.progressSink = onProgress;
		try {
			const r = await this.mgr().locate(manifest, signal);
			// A model that failed to load before may load now.
			this.embedderHandle?.reset();
			this.rerankerHandle?.reset();
			return r.ok ? { ok: true, dir: r.value } : { ok: false, error: r.error };
		} finally {
			this.progressSink = undefined;
		}
	}

	/** Forgets services built for old settings (the next call rebuilds them). */
	async refresh(): Promise<void> {
		this.key = '';
		this.linearReranker = null;
		this.sync(true);
	}

	/** Stops the inference worker. */
	async dispose(): Promise<void> {
		const client = this.client;
		this.client = null;
		this.manager = null;
		this.embedderHandle = null;
		this.rerankerHandle = null;
		this.builtin = null;
		this.linearReranker = null;
		await client
			?.dispose()
			.catch((e: unknown) => this.options.log.warn(`model worker did not stop cleanly on dispose: ${errorMessage(e)}`));
	}

	private async activeBuiltin(): Promise<ActiveEmbedder> {
		const m = builtinModule();
		if (!m)
			return none(
				'the built-in embedder is not in this build yet: lexical-only (set gatedMemory.models.embedder to "minilm" for a downloaded model)',
			);
		this.builtin ??= m.loadBuiltinEmbedder(this.options.builtinDir);
		this.builtin.catch(() => (this.builtin = null));
		const e = await this.builtin;
		return {
			status: 'ready',
			id: e.id,
			label: 'built-in',
			embedder: fitToWidth(e, EMBEDDING_DIM),
			worker: { kind: 'builtin', dir: this.options.builtinDir },
		};
	}

	/** Rebuilds the services when a setting they depend on changed. */
	private sync(force = false): ModelSettings {
		const s = this.options.settings();
		const key = JSON.stringify([s.hubEndpoint, s.localPath]);
		if (force || key !== this.key) {
			this.key = key;
			const old = this.client;
			this.client = null;
			this.manager = null;
			this.embedderHandle = null;
			this.rerankerHandle = null;
			if (old)
				void old
					.dispose()
					.catch((e: unknown) =>
						this.options.log.warn(`model worker (old settings) did not stop cleanly: ${errorMessage(e)}`),
					);
		}
		return s;
	}

	private inference(): InferenceClient {
		return (this.client ??= new InferenceClient(this.options.worker));
	}

	private mgr(): ModelManager {
		const s = this.options.settings();
		this.manager ??= new ModelManager({
			cacheDir: this.options.cacheDir,
			hubEndpoint: s.hubEndpoint || DEFAULT_HUB,
			localModelDir: s.localPath || undefined,
			// download() is only called after the user said yes; chat turns use presentOnly().
			allowDownload: true,
			agent: this.options.agent?.(),
			onProgress: (p) => this.progressSink?.(p),
			validate: workerValidator(this.inference()),
		});
		return this.manager;
	}

	/** A locator that never downloads: the folder if the model is here, else `missing`. */
	private presentOnly(m: ModelManifest): ModelLocator {
		return async () => {
			const st = this.mgr().status(m);
			return st.where === 'absent'
				? err({ code: 'missing', message: `${m.name} is not downloaded (${MISSING_HINT})` })
				: ok(st.dir);
		};
	}
}

function none(reason: string): ActiveEmbedder {
	return { status: 'none', reason, worker: { kind: 'none' } };
}
