/**
 * Main-side handle on the inference worker. Starts it lazily on the first request, matches
 * responses to requests by id, turns an AbortSignal into a `cancel` message, and survives a
 * crashed worker (pending requests fail with `worker-failed`; the next request starts a new one).
 * The worker is unref'd while idle so a CLI process can exit without disposing it explicitly.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { err, ok, type Result } from '../core/result';
import {
	isInferenceResponse,
	type InferenceRequest,
	type ModelError,
	type ResponsePayloads,
} from './inferenceProtocol';

/** How to start the worker. */
export interface InferenceClientOptions {
	/**
	 * 'worker' (worker_threads, default) or 'child' (a forked Node process). A child process also
	 * sidesteps Electron's limits on native addons inside the extension host.
	 */
	mode?: 'worker' | 'child';
	/** The worker script; defaults to dist/inferenceWorker.js beside the bundle (or the .ts source under tsx). */
	workerPath?: string;
}

type Payload<T extends keyof ResponsePayloads> = ResponsePayloads[T];
type Request = Exclude<InferenceRequest, { type: 'cancel' }>;
/** A request without its id (the client assigns ids). */
export type OutgoingRequest = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

interface Pending {
	resolve: (r: Result<unknown, ModelError>) => void;
}

interface Channel {
	post(msg: InferenceRequest): void;
	ref(): void;
	unref(): void;
	kill(): Promise<void>;
}

/** Finds the worker script: the bundled .js next to this bundle, or the TypeScript source in dev/tests. */
export function defaultWorkerPath(): string {
	const candidates = [
		join(__dirname, 'inferenceWorker.js'),
		join(__dirname, '..', 'inferenceWorker.js'),
		join(__dirname, 'inferenceWorker.ts'),
	];
	return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

/** Typed request/response client for one inference worker. */
export class InferenceClient {
	private channel: Channel | undefined;
	private readonly pending = new Map<number, Pending>();
	private nextId = 1;
	private disposed = false;

	constructor(private readonly options: InferenceClientOptions = {}) {}

	/** Whether a worker is currently running. */
	get running(): boolean {
		return this.channel !== undefined;
	}

	/** Sends one request; resolves with its result (never rejects). Aborting resolves with `cancelled` at once. */
	request<T extends Request['type']>(
		req: Extract<OutgoingRequest, { type: T }>,
		signal?: AbortSignal,
	): Promise<Result<Payload<T>, ModelError>> {
		if (this.disposed) return Promise.resolve(err({ code: 'worker-failed', message: 'inference client disposed' }));
		if (signal?.aborted) return Promise.resolve(err({ code: 'cancelled', message: 'cancelled before start' }));
		const started = this.ensureChannel();
		if (!started.ok) return Promise.resolve(started);
		const channel = started.value;
		const id = this.nextId++;
		return new Promise((resolve) => {
			const onAbort = () => {
				this.settle(id, err({ code: 'cancelled', message: 'cancelled' }));
				channel.post({ type: 'cancel', id: this.nextId++, target: id });
			};
			this.pending.set(id, {
				resolve: (r) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(r as Result<Payload<T>, ModelError>);
				},
			});
			signal?.addEventListener('abort', onAbort, { once: true });
			channel.ref();
			channel.post({ ...req, id } as InferenceRequest);
		});
	}

	/** Stops the worker; pending requests resolve with `worker-failed`. */
	async dispose(): Promise<void> {
		this.disposed = true;
		const ch = this.channel;
		this.channel = undefined;
		this.failAll('inference client disposed');
		if (ch) await ch.kill();
	}

	private settle(id: number, r: Result<unknown, ModelError>): void {
		const p = this.pending.get(id);
		if (!p) return;
		this.pending.delete(id);
		if (this.pending.size === 0) this.channel?.unref();
		p.resolve(r);
	}

	private failAll(message: string): void {
		for (const id of [...this.pending.keys()]) this.settle(id, err({ code: 'worker-failed', message }));
	}

	private onMessage(m: unknown): void {
		if (!isInferenceResponse(m)) return;
		this.settle(m.id, m.ok ? ok(m.value) : err(m.error));
	}

	private onExit(from: Channel, why: string): void {
		if (this.channel !== from) return;
		this.channel = undefined;
		this.failAll(`inference worker stopped: ${why}`);
	}

	private ensureChannel(): Result<Channel, ModelError> {
		if (this.channel) return ok(this.channel);
		const path = this.options.workerPath ?? defaultWorkerPath();
		if (!existsSync(path)) return err({ code: 'worker-failed', message: `inference worker script not found: ${path}` });
		// Under tsx (tests) the worker is TypeScript and needs the same loader.
		const execArgv = path.endsWith('.ts') ? ['--import', 'tsx'] : [];
		try {
			this.channel = this.options.mode === 'child' ? this.startChild(path, execArgv) : this.startWorker(path, execArgv);
		} catch (e) {
			return err({ code: 'worker-failed', message: `cannot start inference worker: ${(e as Error).message}` });
		}
		return ok(this.channel);
	}

	private startWorker(path: string, execArgv: readonly string[]): Channel {
		// Worker threads ignore `--import` in execArgv: a TypeScript worker (tests under tsx) is
		// started through a tiny eval'd bootstrap that registers tsx's require hook first.
		const w = execArgv.length
			? new Worker(`require('tsx/cjs'); require(${JSON.stringify(path)});`, { eval: true })
			: new Worker(path);
		const channel: Channel = {
			post: (msg) => w.postMessage(msg),
			ref: () => w.ref(),
			unref: () => w.unref(),
			kill: async () => {
				// Keep the event loop alive until the worker is gone (it is unref'd while idle).
				w.ref();
				await w.terminate();
			},
		};
		w.on('message', (m: unknown) => this.onMessage(m));
		w.on('error', (e) => this.onExit(channel, e.message));
		w.on('exit', (code) => this.onExit(channel, `exit code ${code}`));
		return channel;
	}

	private startChild(path: string, execArgv: string[]): Channel {
		const child: ChildProcess = fork(path, [], {
			execArgv,
			serialization: 'advanced',
			stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
		});
		const channel: Channel = {
			post: (msg) => child.send(msg),
			ref: () => {
				child.ref();
				child.channel?.ref();
			},
			unref: () => {
				child.unref();
				child.channel?.unref();
			},
			kill: () =>
				new Promise<void>((resolve) => {
					if (child.exitCode !== null || child.signalCode !== null) return resolve();
					// An idle child is unref'd: without this, awaiting its exit could let the process end first.
					child.ref();
					child.once('exit', () => resolve());
					child.kill();
				}),
		};
		child.on('message', (m: unknown) => this.onMessage(m));
		child.on('error', (e) => this.onExit(channel, e.message));
		// Keep the tail of the child's stderr: a native crash explains itself there.
		let tail = '';
		child.stderr?.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-500)));
		child.on('exit', (code, sig) => this.onExit(channel, `exit ${code ?? sig}${tail ? `: ${tail.trim()}` : ''}`));
		return channel;
	}
}
