/**
 * The host's handle on the indexing worker thread: the Indexer's API (indexFolders, reindexFile,
 * removeFile) with progress and cancellation, run in a worker so the host's event loop never
 * waits on parsing or hashing. A crashed worker rejects what was pending, is reported through
 * `onCrash`, and is started again by the next call — it never takes the host down.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileOutcome } from './indexFile';
import type { FolderIndexResult, RunOptions } from './indexer';
import type { PathsIndexResult } from './reindexPaths';
import { isIndexReply, type IndexReply, type IndexRequest, type IndexWorkerConfig } from './indexWorkerProtocol';

/** Options of the client. */
export interface IndexWorkerClientOptions {
	config: IndexWorkerConfig;
	/** The worker script; default dist/indexWorker.js beside the bundle (or the .ts source under tsx). */
	script?: string;
	/** Called when the worker dies unexpectedly (the next call restarts it). */
	onCrash?: (message: string) => void;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: RunOptions['onProgress'] };

function defaultScript(): string {
	const bundled = [join(__dirname, 'indexWorker.js'), join(__dirname, '..', 'indexWorker.js')].find((p) =>
		existsSync(p),
	);
	return bundled ?? join(__dirname, 'indexWorker.ts');
}

// Worker threads ignore `--import` in execArgv: the TypeScript source (tests under tsx) is started
// through an eval'd bootstrap that registers tsx's require hook first (as the model worker does).
function startWorker(file: string, workerData: IndexWorkerConfig): Worker {
	if (!file.endsWith('.ts')) return new Worker(file, { workerData });
	return new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, workerData });
}

/** Runs indexing requests in a worker thread. */
export class IndexWorkerClient {
	private worker: Promise<Worker> | null = null;
	private readonly pending = new Map<number, Pending>();
	private nextId = 1;
	private disposed = false;

	constructor(private readonly options: IndexWorkerClientOptions) {}

	/** Indexer.indexFolders in the worker; aborting `signal` cancels it there. */
	indexFolders(folders: readonly string[], run: RunOptions = {}): Promise<FolderIndexResult[]> {
		return this.request((id) => ({ type: 'index', id, folders: [...folders] }), run) as Promise<FolderIndexResult[]>;
	}

	/** Indexer.reindexFile in the worker. */
	reindexFile(path: string, signal?: AbortSignal): Promise<FileOutcome> {
		return this.request((id) => ({ type: 'reindexFile', id, path }), { signal }) as Promise<FileOutcome>;
	}

	/** Indexer.reindexPaths in the worker: the whole batch is one request; `folders` = the workspace folders. */
	reindexPaths(paths: readonly string[], folders: readonly string[], signal?: AbortSignal): Promise<PathsIndexResult> {
		return this.request((id) => ({ type: 'reindexPaths', id, paths: [...paths], folders: [...folders] }), {
			signal,
		}) as Promise<PathsIndexResult>;
	}

	/** Indexer.removeFile in the worker; resolves to the chunks removed. */
	removeFile(path: string): Promise<number> {
		return this.request((id) => ({ type: 'removeFile', id, path }), {}) as Promise<number>;
	}

	/** Stops the worker; pending requests are rejected. */
	async dispose(): Promise<void> {
		this.disposed = true;
		const w = this.worker;
		this.worker = null;
		this.failAll('indexing worker disposed');
		if (w) await (await w).terminate();
	}

	private async request(make: (id: number) => IndexRequest, run: RunOptions): Promise<unknown> {
		if (this.disposed) throw new Error('indexing worker disposed');
		run.signal?.throwIfAborted();
		const worker = await (this.worker ??= this.start());
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject, onProgress: run.onProgress });
			run.signal?.addEventListener('abort', () => worker.postMessage({ type: 'cancel', id } satisfies IndexRequest), {
				once: true,
			});
			worker.postMessage(make(id));
		});
	}

	// Resolves once the worker has opened the store ('ready'); rejects on 'fatal' or an early exit.
	private start(): Promise<Worker> {
		const worker = startWorker(this.options.script ?? defaultScript(), this.options.config);
		return new Promise((resolve, reject) => {
			worker.on('message', (m: unknown) => {
				const msg = m as { type?: string; message?: string };
				if (msg.type === 'ready') resolve(worker);
				else if (msg.type === 'fatal') {
					reject(new Error(`indexing worker failed to start: ${msg.message}`));
					void worker.terminate();
				} else if (isIndexReply(m)) this.onReply(m);
			});
			const died = (why: string) => {
				reject(new Error(why));
				if (this.disposed) return;
				this.worker = null; // the next request starts a fresh worker
				this.failAll(why);
				this.options.onCrash?.(why);
			};
			worker.on('error', (e) => died(`indexing worker crashed: ${e.message}`));
			worker.on('exit', (code) => died(`indexing worker exited with code ${code}`));
		});
	}

	private onReply(m: IndexReply): void {
		const p = this.pending.get(m.id);
		if (!p) return;
		if (m.type === 'progress') return p.onProgress?.(m.progress);
		this.pending.delete(m.id);
		if (m.type === 'done') p.resolve(m.result);
		else p.reject(m.cancelled ? new DOMException(m.message, 'AbortError') : new Error(m.message));
	}

	private failAll(why: string): void {
		for (const p of this.pending.values()) p.reject(new Error(why));
		this.pending.clear();
	}
}
