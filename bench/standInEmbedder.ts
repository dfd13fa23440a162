/**
 * The stand-in embedder for benchmarks: the real MiniLM-L6 architecture (6 layers, hidden 384)
 * with random weights and dynamic int8 quantisation, run through the real inference child process
 * — the same cost per text as the shipped model, meaningless vectors. Built once into the temp
 * folder bench:models uses.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok } from '../src/core/result';
import type { Embedder } from '../src/models/embedder';
import { InferenceClient } from '../src/models/inferenceClient';
import { MINILM_EMBEDDER } from '../src/models/manifests';
import { OnnxEmbedder } from '../src/models/onnxModels';
import { MINILM_L6 } from '../test/fixtures/models/bertOnnx';
import { bertBaseVocab, writeModelFolder } from '../test/fixtures/models/tokenizerJson';

/** A q8 stand-in MiniLM-L6 embedder in a child process, and how to stop it. */
export async function standInEmbedder(threads = 2): Promise<{ embedder: Embedder; dispose: () => Promise<void> }> {
	const dir = join(tmpdir(), 'gmem-bench-models', 'q8', 'embedder');
	if (!existsSync(join(dir, MINILM_EMBEDDER.files.onnx.path))) {
		mkdirSync(dir, { recursive: true });
		writeModelFolder(dir, {
			shape: { ...MINILM_L6, head: 'embedder', quantize: true },
			vocab: bertBaseVocab(),
			maxLength: 512,
			onnxPath: MINILM_EMBEDDER.files.onnx.path,
		});
	}
	const client = new InferenceClient({ mode: 'child' });
	const embedder = new OnnxEmbedder(client, MINILM_EMBEDDER, async () => ok(dir), { threads, batchSize: 32 });
	return { embedder, dispose: () => client.dispose() };
}
