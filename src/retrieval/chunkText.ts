/**
 * Splits one ingested document into chunks by lines, so a long file or note is searched (and
 * cited) by line range. Boundaries prefer a blank line or a top-level definition near the limit.
 */

/** One piece of a document with its 1-based inclusive line range. */
export interface TextChunk {
	startLine: number;
	endLine: number;
	content: string;
	symbol: string | null;
}

export const MAX_CHUNK_LINES = 60;
export const MAX_CHUNK_CHARS = 2400;

const DEFINITION =
	/^\s*(?:export\s+)?(?:async\s+)?(?:def|class|function|fn|func|interface|type|struct|impl|public|private|protected)\s+([A-Za-z_$][\w$]*)/;

/** The first definition name in a chunk (def/class/function …), for the hit's `symbol`. */
export function firstSymbol(lines: readonly string[]): string | null {
	for (const l of lines) {
		const m = DEFINITION.exec(l);
		if (m) return m[1];
	}
	return null;
}

/** Chunks `text`; a short text is one chunk. */
export function chunkText(text: string): TextChunk[] {
	const lines = text.split(/\r?\n/);
	const chunks: TextChunk[] = [];
	let start = 0;
	while (start < lines.length) {
		const end = chunkEnd(lines, start);
		const slice = lines.slice(start, end);
		if (slice.some((l) => l.trim() !== '')) {
			chunks.push({ startLine: start + 1, endLine: end, content: slice.join('\n'), symbol: firstSymbol(slice) });
		}
		start = end;
	}
	return chunks.length ? chunks : [{ startLine: 1, endLine: 1, content: text, symbol: null }];
}

// The exclusive end of the chunk starting at `start`: at the size limit, backed off to the last
// blank line or top-level definition in the second half of the window, when there is one.
function chunkEnd(lines: readonly string[], start: number): number {
	let chars = 0;
	let end = start;
	while (
		end < lines.length &&
		end - start < MAX_CHUNK_LINES &&
		(chars === 0 || chars + lines[end].length <= MAX_CHUNK_CHARS)
	) {
		chars += lines[end].length + 1;
		end++;
	}
	if (end >= lines.length) return lines.length;
	for (let i = end - 1; i > start + (end - start) / 2; i--) {
		if (lines[i].trim() === '' || (/^\S/.test(lines[i]) && DEFINITION.test(lines[i]))) return i === start ? end : i;
	}
	return end;
}

const LANGUAGES: Record<string, string> = {
	py: 'python',
	ts: 'typescript',
	tsx: 'typescript',
	js: 'javascript',
	jsx: 'javascript',
	mjs: 'javascript',
	cjs: 'javascript',
	java: 'java',
	go: 'go',
	rs: 'rust',
	c: 'c',
	h: 'c',
	cpp: 'cpp',
	cc: 'cpp',
	hpp: 'cpp',
	cs: 'csharp',
	rb: 'ruby',
	php: 'php',
	md: 'markdown',
	json: 'json',
	yml: 'yaml',
	yaml: 'yaml',
	sh: 'shell',
	sql: 'sql',
	kt: 'kotlin',
	swift: 'swift',
};

/** The language of a path by extension, or null. */
export function languageOf(path: string | null): string | null {
	const ext = path?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
	return ext ? (LANGUAGES[ext] ?? null) : null;
}
