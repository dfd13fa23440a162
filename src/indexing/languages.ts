/**
 * Which chunker a file gets, by extension: a tree-sitter grammar (structure-aware), Markdown
 * (by headings), or plain overlapping line windows for everything else.
 */

/** Languages with a tree-sitter grammar shipped in dist/wasm. */
export type GrammarLanguage =
	'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java' | 'rust' | 'c' | 'cpp' | 'c-sharp';

const GRAMMAR_BY_EXT: Readonly<Record<string, GrammarLanguage>> = {
	ts: 'typescript',
	mts: 'typescript',
	cts: 'typescript',
	tsx: 'tsx',
	js: 'javascript',
	mjs: 'javascript',
	cjs: 'javascript',
	jsx: 'javascript',
	py: 'python',
	pyi: 'python',
	go: 'go',
	java: 'java',
	rs: 'rust',
	// .h is shared by C and C++; the C grammar parses C++ headers' declarations well enough for chunks.
	c: 'c',
	h: 'c',
	cc: 'cpp',
	cpp: 'cpp',
	cxx: 'cpp',
	hpp: 'cpp',
	hh: 'cpp',
	hxx: 'cpp',
	cs: 'c-sharp',
};

const MARKDOWN_EXTS = new Set(['md', 'markdown', 'mdx']);

// The label stored in chunks.language for files chunked by lines (display and filtering only).
const PLAIN_LANGUAGE: Readonly<Record<string, string>> = {
	json: 'json',
	yml: 'yaml',
	yaml: 'yaml',
	toml: 'toml',
	sh: 'shell',
	bash: 'shell',
	sql: 'sql',
	rb: 'ruby',
	php: 'php',
	kt: 'kotlin',
	swift: 'swift',
	scala: 'scala',
	html: 'html',
	css: 'css',
	scss: 'scss',
	xml: 'xml',
	txt: 'text',
	rst: 'rst',
	ini: 'ini',
	cfg: 'ini',
	lua: 'lua',
	r: 'r',
	pl: 'perl',
	vue: 'vue',
	svelte: 'svelte',
};

/** How a file is chunked. */
export type ChunkPlan =
	{ kind: 'code'; language: GrammarLanguage } | { kind: 'markdown' } | { kind: 'lines'; language: string | null };

function extOf(relPath: string): string {
	const base = relPath.slice(relPath.lastIndexOf('/') + 1);
	const dot = base.lastIndexOf('.');
	return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The chunking plan for a workspace-relative path. */
export function chunkPlanFor(relPath: string): ChunkPlan {
	const ext = extOf(relPath);
	const grammar = GRAMMAR_BY_EXT[ext];
	if (grammar) return { kind: 'code', language: grammar };
	if (MARKDOWN_EXTS.has(ext)) return { kind: 'markdown' };
	return { kind: 'lines', language: PLAIN_LANGUAGE[ext] ?? null };
}

/** The language label stored with a chunk (tsx is reported as typescript, c-sharp as csharp). */
export function languageLabel(plan: ChunkPlan): string | null {
	if (plan.kind === 'markdown') return 'markdown';
	if (plan.kind === 'lines') return plan.language;
	if (plan.language === 'tsx') return 'typescript';
	return plan.language === 'c-sharp' ? 'csharp' : plan.language;
}
