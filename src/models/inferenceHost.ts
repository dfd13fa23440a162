/**
 * The request handler of the inference worker: owns the loaded models (one per slot) and answers
 * protocol requests. Requests run one at a time (the sessions share the CPU anyway); `cancel` is
 * handled between batches of the running request.
 */
import type { InferenceRequest, InferenceResponse, ModelError, WorkerStats } from './inferenceProtocol';
import { isInferenceRequest } from './inferenceProtocol';
import { LoadedModel } from './onnxRuntime';

/** Memory and CPU of the process the host runs in. */
function workerStats(slots: string[]): WorkerStats {
	const cpu = process.cpuUsage();
	return {
		pid: process.pid,
		rssBytes: process.memoryUsage().rss,
		maxRssBytes: process.resourceUsage().maxRSS * 1024,
		cpuMs: (cpu.user + cpu.system) / 1000,
		slots,
	};
}

/** How the host answers: postMessage on a port, or process.send. */
export type Send = (msg: InferenceResponse, transfer?: ArrayBuffer[]) => void;

/** Handles requests for one worker; exported so tests can drive it without a thread. */
export class InferenceHost {
	private readonly models = new Map<string, LoadedModel>();
	private readonly cancelled = new Set<number>();
	private queue: Promise<void> = Promise.resolve();

	constructor(private readonly send: Send) {}

	/** Accepts one incoming message; malformed messages are answered when they carry an id. */
	receive(msg: unknown): void {
		if (!isInferenceRequest(msg)) {
			const id =
				typeof msg === 'object' && msg !== null && typeof (msg as { id?: unknown }).id === 'number'
					? (msg as { id: number }).id
					: -1;
			this.send({ id, ok: false, error: { code: 'worker-failed', message: 'malformed request' } });
			return;
		}
		if (msg.type === 'cancel') {
			this.cancelled.add(msg.target);
			return;
		}
		this.queue = this.queue
			.then(() => this.handle(msg))
			.catch((e: unknown) =>
				this.send({ id: msg.id, ok: false, error: { code: 'worker-failed', message: String(e) } }),
			);
	}

	private reply(id: number, error: ModelError): void {
		this.send({ id, ok: false, error });
	}

	private async handle(req: Exclude<InferenceRequest, { type: 'cancel' }>): Promise<void> {
		const isCancelled = () => this.cancelled.has(req.id);
		try {
			if (isCancelled()) return this.reply(req.id, { code: 'cancelled', message: 'cancelled before start' });
			switch (req.type) {
				case 'load':
				case 'validate':
					return await this.load(req);
				case 'stats':
					return this.send({ id: req.id, ok: true, value: workerStats([...this.models.keys()]) });
				case 'unload': {
					const m = this.models.get(req.slot);
					this.models.delete(req.slot);
					if (m) await m.release();
					return this.send({ id: req.id, ok: true, value: { unloaded: m !== undefined } });
				}
				case 'embed': {
					const m = this.models.get(req.slot);
					if (!m) return this.reply(req.id, { code: 'not-loaded', message: `no model loaded in slot ${req.slot}` });
					const r = await m.embed(req.texts, isCancelled);
					if (!r.ok) return this.reply(req.id, r.error);
					return this.send(
						{ id: req.id, ok: true, value: { vectors: r.value } },
						r.value.map((v) => v.buffer as ArrayBuffer),
					);
				}
				case 'rerank': {
					const m = this.models.get(req.slot);
					if (!m) return this.reply(req.id, { code: 'not-loaded', message: `no model loaded in slot ${req.slot}` });
					const r = await m.rerank(req.query, req.passages, isCancelled);
					return r.ok ? this.send({ id: req.id, ok: true, value: { logits: r.value } }) : this.reply(req.id, r.error);
				}
			}
		} finally {
			this.cancelled.delete(req.id);
		}
	}

	private async load(req: Extract<InferenceRequest, { type: 'load' | 'validate' }>): Promise<void> {
		const settings = req.type === 'load' ? req.settings : { intraOpThreads: 1, batchSize: 1 };
		const r = await LoadedModel.load(req.spec, settings);
		if (!r.ok) return this.reply(req.id, r.error);
		if (req.type === 'validate') {
			await r.value.release();
		} else {
			const old = this.models.get(req.slot);
			this.models.set(req.slot, r.value);
			if (old) await old.release();
		}
		this.send({ id: req.id, ok: true, value: r.value.info });
	}
}
