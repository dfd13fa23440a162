// One bundle per entry point (extension host, webview, CLI, workers, benchmarks).
// Native / wasm-locating packages stay external: PGlite finds its files through import.meta.url,
// which breaks when bundled into CommonJS, and onnxruntime-node ships a native addon.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const nodeExternal = [
	'vscode',
	'@electric-sql/pglite',
	'@electric-sql/pglite/*',
	'@electric-sql/pglite-pgvector',
	'@electric-sql/pglite-socket',
	'onnxruntime-node',
	'pg-native',
];

/** @type {esbuild.BuildOptions} */
const nodeCommon = {
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	sourcemap: !production,
	minify: production,
	external: nodeExternal,
	logLevel: 'info',
};

const nodeEntries = [
	{ in: 'src/extension/extension.ts', out: 'dist/extension.js' },
	{ in: 'src/cli/main.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node' },
	{ in: 'src/models/inferenceWorker.ts', out: 'dist/inferenceWorker.js' },
	{ in: 'src/store/ownerProcess.ts', out: 'dist/storeOwner.js' },
	{ in: 'src/indexing/indexWorker.ts', out: 'dist/indexWorker.js' },
	{ in: 'bench/benchGate.ts', out: 'dist/bench/benchGate.js' },
	{ in: 'bench/benchModels.ts', out: 'dist/bench/benchModels.js' },
	{ in: 'bench/benchStore.ts', out: 'dist/bench/benchStore.js' },
	{ in: 'bench/benchIndex.ts', out: 'dist/bench/benchIndex.js' },
	{ in: 'bench/benchLiveState.ts', out: 'dist/bench/benchLiveState.js' },
].filter((e) => existsSync(e.in));

const configs = [
	...nodeEntries.map((e) => ({
		...nodeCommon,
		entryPoints: [e.in],
		outfile: e.out,
		...(e.banner ? { banner: { js: e.banner } } : {}),
	})),
	...(existsSync('webview/main.ts')
		? [
				{
					bundle: true,
					platform: 'browser',
					format: 'iife',
					target: 'es2022',
					sourcemap: !production,
					minify: production,
					entryPoints: ['webview/main.ts'],
					outfile: 'dist/webview.js',
					loader: { '.css': 'text' },
					logLevel: 'info',
				},
			]
		: []),
	// The "Inspect Memory State" panel: its script, and (from the CSS it imports) dist/memoryPanel.css.
	...(existsSync('webview/memory/main.ts')
		? [
				{
					bundle: true,
					platform: 'browser',
					format: 'iife',
					target: 'es2022',
					sourcemap: !production,
					minify: production,
					entryPoints: ['webview/memory/main.ts'],
					outfile: 'dist/memoryPanel.js',
					logLevel: 'info',
				},
			]
		: []),
];

// esbuild does not copy .wasm files: the tree-sitter runtime and grammars go to dist/wasm/, where
// src/indexing/treeSitter.ts looks for them beside dist/cli.js and dist/extension.js.
function copyTreeSitterWasm() {
	const require = createRequire(import.meta.url);
	const vscodeWasm = dirname(require.resolve('@vscode/tree-sitter-wasm'));
	const grammars = ['typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'rust', 'cpp', 'c-sharp'];
	mkdirSync('dist/wasm', { recursive: true });
	copyFileSync(join(vscodeWasm, 'tree-sitter.wasm'), 'dist/wasm/tree-sitter.wasm');
	for (const g of grammars) copyFileSync(join(vscodeWasm, `tree-sitter-${g}.wasm`), `dist/wasm/tree-sitter-${g}.wasm`);
	copyFileSync(require.resolve('tree-sitter-c/tree-sitter-c.wasm'), 'dist/wasm/tree-sitter-c.wasm');
}
copyTreeSitterWasm();

// The built-in embedder's table and the built-in reranker's weights (training/, models/builtin/)
// ship beside the bundles, where src/models/builtinEmbedder.ts and linearReranker.ts look for them.
function copyBuiltinModel() {
	mkdirSync('dist/models/builtin', { recursive: true });
	for (const f of ['config.json', 'vocab.txt', 'table.bin', 'reranker.json'])
		if (existsSync(join('models/builtin', f))) copyFileSync(join('models/builtin', f), join('dist/models/builtin', f));
}
if (existsSync('models/builtin/config.json')) copyBuiltinModel();

if (watch) {
	const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
	await Promise.all(contexts.map((c) => c.watch()));
} else {
	await Promise.all(configs.map((c) => esbuild.build(c)));
}
