/**
 * The tree-sitter WebAssembly runtime and grammars, loaded once per process (or worker) and
 * cached per language. Nothing is downloaded: the .wasm files ship in `dist/wasm/` (copied there
 * by esbuild.mjs) and, when running from source, are read from the npm packages.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Language, Parser, Query } from '@vscode/tree-sitter-wasm';
import type { GrammarLanguage } from './languages';
import { SYMBOL_QUERIES } from './symbolQueries';

/** A ready parser with its symbol query. Parsers are not re-entrant: use one parse at a time. */
export interface LoadedGrammar {
	parser: Parser;
	query: Query;
}

/**
 * The folder holding tree-sitter.wasm and tree-sitter-<lang>.wasm: `$GMEM_WASM_DIR`, else
 * `wasm/` next to the running bundle (dist/cli.js, dist/extension.js), else null (from source).
 */
export function bundledWasmDir(): string | null {
	const override = process.env.GMEM_WASM_DIR;
	if (override) return override;
	const beside = join(__dirname, 'wasm');
	return existsSync(join(beside, 'tree-sitter.wasm')) ? beside : null;
}

/** Where one .wasm file is: the bundle's folder, else the npm package that provides it. */
export function wasmPath(file: string, dir: string | null = bundledWasmDir()): string {
	if (dir) return join(dir, file);
	// Running from TypeScript sources (tests, tsx): resolve inside node_modules.
	if (file === 'tree-sitter-c.wasm') return require.resolve('tree-sitter-c/tree-sitter-c.wasm');
	return join(dirname(require.resolve('@vscode/tree-sitter-wasm')), file);
}

let runtime: Promise<void> | undefined;
const grammars = new Map<GrammarLanguage, Promise<LoadedGrammar>>();

/** Loads (once) the runtime and the grammar of `language`; a failed load is retried next call. */
export function loadGrammar(language: GrammarLanguage): Promise<LoadedGrammar> {
	let loaded = grammars.get(language);
	if (!loaded) {
		loaded = (async () => {
			// locateFile: bundled, the runtime would look for tree-sitter.wasm beside dist/cli.js (recipe pitfall 1).
			runtime ??= Parser.init({ locateFile: (f: string) => wasmPath(f) });
			await runtime;
			// Bytes, not a path: Language.load(path) goes through URL logic that breaks when bundled.
			const language_ = await Language.load(await readFile(wasmPath(`tree-sitter-${language}.wasm`)));
			const parser = new Parser();
			parser.setLanguage(language_);
			return { parser, query: new Query(language_, SYMBOL_QUERIES[language]) };
		})();
		grammars.set(language, loaded);
		loaded.catch(() => grammars.delete(language));
	}
	return loaded;
}

/** Every grammar file dist/wasm must hold (esbuild.mjs copies them; a unit test checks each resolves). */
export const GRAMMAR_FILES: readonly string[] = (Object.keys(SYMBOL_QUERIES) as GrammarLanguage[]).map(
	(l) => `tree-sitter-${l}.wasm`,
);
