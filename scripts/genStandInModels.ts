/**
 * Writes stand-ins for the downloadable model pair into a local model folder laid out as
 * `gatedMemory.models.localPath` expects (`<dir>/<repo>/`): the real MiniLM-L6 architecture,
 * dynamic int8 like the shipped exports, random weights, BERT-base vocabulary. They pass the
 * manifests' checks (inputs, outputs, dimension), so the extension loads and runs them exactly
 * as it would the real files — meaningless scores, real inference. Used by the e2e (no hub here).
 * Usage: tsx scripts/genStandInModels.ts DIR   (skips models already written)
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MINILM_EMBEDDER, MSMARCO_RERANKER } from '../src/models/manifests';
import { MINILM_L6 } from '../test/fixtures/models/bertOnnx';
import { bertBaseVocab, writeModelFolder } from '../test/fixtures/models/tokenizerJson';

const root = process.argv[2];
if (!root) {
	process.stderr.write('usage: genStandInModels DIR\n');
	process.exit(2);
}
for (const [m, head] of [
	[MINILM_EMBEDDER, 'embedder'],
	[MSMARCO_RERANKER, 'reranker'],
] as const) {
	const dir = join(root, ...m.repo.split('/'));
	if (existsSync(join(dir, m.files.onnx.path))) continue;
	mkdirSync(dir, { recursive: true });
	const t0 = performance.now();
	writeModelFolder(dir, {
		shape: { ...MINILM_L6, head, quantize: true },
		vocab: bertBaseVocab(),
		maxLength: m.maxTokens,
		onnxPath: m.files.onnx.path,
	});
	process.stdout.write(`stand-in ${m.name} → ${dir} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
}
