/**
 * Owns onnxruntime sessions and runs embedding / reranking batches. Lives inside the inference
 * worker (never on the extension host's main thread); also usable in-process by tests and the
 * benchmark. onnxruntime-node is required lazily so importing this file costs nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { err, ok, type Result } from '../core/result';
import type { LoadedModelInfo, ModelError, ModelSpec, SessionSettings } from './inferenceProtocol';
import { clsPool, lengthSortedBatches, meanPool, padBatch, type PaddedBatch } from './tensorMath';
import { BertEncoder, type EncodedInput } from './tokenizer';

type OrtModule = typeof Ort;
let ortModule: OrtModule | undefined;

/** Loads onnxruntime-node on first use (50–65 ms cold, measured). */
function ort(): OrtModule {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	ortModule ??= require('onnxruntime-node') as OrtModule;
	return ortModule;
}

/** Returns true when the caller cancelled; checked between batches (a running batch cannot be interrupted). */
export type CancelCheck = () => boolean;

const fail = (code: ModelError['code'], message: string): Result<never, ModelError> => err({ code, message });

/** A loaded model: its session, tokenizer and the spec it was checked against. */
export class LoadedModel {
	private constructor(
		private readonly session: Ort.InferenceSession,
		private readonly encoder: BertEncoder,
		readonly spec: ModelSpec,
		private readonly settings: SessionSettings,
		readonly info: LoadedModelInfo,
	) {}

	/**
	 * Loads and checks a model: files present, tokenizer readable, ONNX parses, input and output
	 * names as the manifest says, and one probe run yields the expected dimension. Anything else
	 * is refused, so a truncated or wrong download never reaches a search.
	 */
	static async load(spec: ModelSpec, settings: SessionSettings): Promise<Result<LoadedModel, ModelError>> {
		const start = performance.now();
		const onnxFile = join(spec.dir, spec.onnxPath);
		if (!existsSync(onnxFile)) return fail('missing', `model file not found: ${onnxFile}`);
		const encoder = BertEncoder.fromFolder(spec.dir, spec.maxTokens);
		if (!encoder.ok) return fail('invalid', encoder.error);
		let runtime: OrtModule;
		try {
			runtime = ort();
		} catch (e) {
			// Not the model's fault: the native runtime is missing for this platform or failed to load.
			return fail('load-failed', `onnxruntime-node is not available: ${(e as Error).message}`);
		}
		let session: Ort.InferenceSession;
		try {
			session = await runtime.InferenceSession.create(onnxFile, {
				intraOpNumThreads: Math.max(1, settings.intraOpThreads),
				interOpNumThreads: 1,
				executionMode: 'sequential',
				graphOptimizationLevel: 'all',
				// Memory patterns cache one allocation plan per input shape; with a new sequence length
				// in nearly every batch they only grow. Off: peak RSS of the worker with both q8 models
				// fell from ~410 to ~315 MB with no measurable speed change (2 alternating runs each).
				enableMemPattern: false,
				// Idle intra-op threads spin by default, burning a core the editor needs. Off: with 2
				// threads the worker's CPU per text fell from ~9 to ~4.5 ms on the shared 2-vCPU machine
				// (2 alternating A/B runs); no effect with 1 thread (no pool).
				extra: { session: { intra_op: { allow_spinning: '0' } } },
				logSeverityLevel: 3,
			});
		} catch (e) {
			return fail('invalid', `not a loadable ONNX model (${onnxFile}): ${(e as Error).message}`);
		}
		const names = checkNames(session, spec);
		const info: LoadedModelInfo = { inputs: [...session.inputNames], outputs: [...session.outputNames], loadMs: 0 };
		const model = new LoadedModel(session, encoder.value, spec, settings, info);
		const probe = names.ok ? await model.probe() : names;
		if (!probe.ok) {
			await session.release();
			return probe;
		}
		info.loadMs = performance.now() - start;
		return ok(model);
	}

	/** One tiny run to prove the graph executes and has the promised output width. */
	private async probe(): Promise<Result<true, ModelError>> {
		const sample =
			this.spec.kind === 'embedder' ? this.encoder.encode('probe') : this.encoder.encodePair('probe', 'probe');
		const out = await this.runBatch([sample]);
		if (!out.ok) return out;
		const dims = out.value.dims;
		const width = dims[dims.length - 1];
		const rank = this.spec.kind === 'embedder' ? 3 : 2;
		if (dims.length !== rank || width !== this.spec.dim) {
			return fail(
				'invalid',
				`output "${this.spec.output}" has shape [${dims.join(',')}], expected rank ${rank} with last dimension ${this.spec.dim}`,
			);
		}
		return ok(true);
	}

	private async runBatch(
		items: EncodedInput[],
	): Promise<Result<{ data: Float32Array; dims: readonly number[]; padded: PaddedBatch }, ModelError>> {
		const o = ort();
		const padded = padBatch(items, this.encoder.padId);
		const shape = [padded.batch, padded.seq];
		const feeds: Record<string, Ort.Tensor> = {
			input_ids: new o.Tensor('int64', padded.inputIds, shape),
			attention_mask: new o.Tensor('int64', padded.attentionMask, shape),
		};
		if (this.info.inputs.includes('token_type_ids'))
			feeds.token_type_ids = new o.Tensor('int64', padded.tokenTypeIds, shape);
		try {
			const result = await this.session.run(feeds, [this.spec.output]);
			const t = result[this.spec.output];
			// Copy out of the runtime's buffer: what crosses the thread boundary must be a plain JS
			// allocation (Electron forbids external ArrayBuffers handed out by native addons).
			const data = Float32Array.from(t.data as Float32Array);
			t.dispose();
			return ok({ data, dims: t.dims, padded });
		} catch (e) {
			return fail('inference-failed', (e as Error).message);
		}
	}

	/** Embeds texts in length-sorted batches; output order = input order. Empty texts give zeros. */
	async embed(texts: readonly string[], cancelled: CancelCheck): Promise<Result<Float32Array[], ModelError>> {
		const out: Float32Array[] = texts.map(() => new Float32Array(this.spec.dim));
		const live = texts.map((_, i) => i).filter((i) => texts[i].trim().length > 0);
		const encoded = live.map((i) => this.encoder.encode(texts[i]));
		for (const batch of lengthSortedBatches(
			encoded.map((e) => e.ids.length),
			this.settings.batchSize,
		)) {
			if (cancelled()) return fail('cancelled', 'embedding cancelled');
			const run = await this.runBatch(batch.map((j) => encoded[j]));
			if (!run.ok) return run;
			const { data, padded } = run.value;
			const vectors =
				this.spec.pooling === 'cls'
					? clsPool(data, padded.batch, padded.seq, this.spec.dim, this.spec.normalize)
					: meanPool(data, padded.batch, padded.seq, this.spec.dim, padded.attentionMask, this.spec.normalize);
			batch.forEach((j, r) => (out[live[j]] = vectors[r]));
		}
		return ok(out);
	}

	/** Cross-encoder logits for (query, passage) pairs; output order = input order. */
	async rerank(
		query: string,
		passages: readonly string[],
		cancelled: CancelCheck,
	): Promise<Result<number[], ModelError>> {
		const encoded = passages.map((p) => this.encoder.encodePair(query, p));
		const logits = new Array<number>(passages.length).fill(0);
		for (const batch of lengthSortedBatches(
			encoded.map((e) => e.ids.length),
			this.settings.batchSize,
		)) {
			if (cancelled()) return fail('cancelled', 'reranking cancelled');
			const run = await this.runBatch(batch.map((j) => encoded[j]));
			if (!run.ok) return run;
			// logits [B, 1]: one relevance logit per pair (column 0 if a head has more).
			const width = run.value.dims[run.value.dims.length - 1];
			batch.forEach((j, r) => (logits[j] = run.value.data[r * width]));
		}
		return ok(logits);
	}

	/** Frees the native session. */
	async release(): Promise<void> {
		await this.session.release();
	}
}

function checkNames(session: Ort.InferenceSession, spec: ModelSpec): Result<true, ModelError> {
	const inputs = session.inputNames;
	const missing = spec.requiredInputs.filter((n) => !inputs.includes(n));
	const unknown = inputs.filter((n) => !spec.requiredInputs.includes(n) && !spec.optionalInputs.includes(n));
	if (missing.length || unknown.length) {
		return fail(
			'invalid',
			`unexpected ONNX inputs [${inputs.join(', ')}]: missing [${missing.join(', ')}], unknown [${unknown.join(', ')}]`,
		);
	}
	if (!session.outputNames.includes(spec.output)) {
		return fail('invalid', `ONNX output "${spec.output}" not found (outputs: ${session.outputNames.join(', ')})`);
	}
	return ok(true);
}
