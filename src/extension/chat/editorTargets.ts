/**
 * Pure helpers of the panel's editor actions (editorActions.ts): which VS Code language a code
 * fence names, and whether a cited file lies inside a workspace folder. No `vscode` import, so
 * they are unit-tested in Node.
 */
import * as path from 'node:path';

/** Fence names whose VS Code language id differs from the name itself. */
const FENCE_TO_LANGUAGE: Record<string, string> = {
	ts: 'typescript',
	mts: 'typescript',
	cts: 'typescript',
	tsx: 'typescriptreact',
	js: 'javascript',
	mjs: 'javascript',
	cjs: 'javascript',
	jsx: 'javascriptreact',
	node: 'javascript',
	py: 'python',
	python3: 'python',
	rb: 'ruby',
	rs: 'rust',
	golang: 'go',
	kt: 'kotlin',
	cs: 'csharp',
	'c#': 'csharp',
	'c++': 'cpp',
	cc: 'cpp',
	hpp: 'cpp',
	h: 'c',
	sh: 'shellscript',
	bash: 'shellscript',
	zsh: 'shellscript',
	shell: 'shellscript',
	console: 'shellscript',
	ps1: 'powershell',
	pwsh: 'powershell',
	yml: 'yaml',
	md: 'markdown',
	htm: 'html',
	svg: 'xml',
	jsonc: 'jsonc',
	json5: 'jsonc',
	dockerfile: 'dockerfile',
	docker: 'dockerfile',
	make: 'makefile',
	text: 'plaintext',
	txt: 'plaintext',
	plain: 'plaintext',
	diff: 'diff',
	patch: 'diff',
};

/**
 * The VS Code language id for a fence's language ("ts" → "typescript"); unknown names pass
 * through lower-cased when `known` has them, else 'plaintext'.
 */
export function languageIdForFence(fence: string | null, known: ReadonlySet<string> = new Set()): string {
	const name = (fence ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
	if (!name) return 'plaintext';
	const mapped = FENCE_TO_LANGUAGE[name] ?? name;
	return known.size === 0 || known.has(mapped) ? mapped : 'plaintext';
}

/** True when `file` (absolute) is `folder` or inside it, after resolving `..` segments. */
export function isInsideFolder(file: string, folder: string, sep: string = path.sep): boolean {
	const resolve = sep === '/' ? path.posix.resolve : path.win32.resolve;
	const f = resolve(file);
	const root = resolve(folder);
	const rootWithSep = root.endsWith(sep) ? root : root + sep;
	const fold = (s: string) => (sep === '\\' ? s.toLowerCase() : s);
	return fold(f) === fold(root) || fold(f).startsWith(fold(rootWithSep));
}

/** A cited line range clamped to the document (1-based in, 0-based out); whole first line when none. */
export function citedRange(
	startLine: number | null,
	endLine: number | null,
	lineCount: number,
): { start: number; end: number } {
	const last = Math.max(0, lineCount - 1);
	const clamp = (n: number) => Math.min(last, Math.max(0, Math.floor(n) - 1));
	if (startLine === null || !Number.isFinite(startLine)) return { start: 0, end: 0 };
	const start = clamp(startLine);
	const end = endLine === null || !Number.isFinite(endLine) ? start : Math.max(start, clamp(endLine));
	return { start, end };
}
