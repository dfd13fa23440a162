/**
 * Syntax highlighting for fenced code blocks: highlight.js core with a few common languages
 * registered (bundled, nothing fetched at run time). Its output is escaped text wrapped in
 * `<span class="hljs-…">`, which then goes through the same DOMPurify pass as the rest of the reply;
 * colours come from VS Code theme variables in media/main.css.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
	bash,
	c,
	cpp,
	csharp,
	css,
	diff,
	go,
	java,
	javascript,
	json,
	python,
	rust,
	sql,
	typescript,
	xml,
	yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Fence names highlight.js does not alias itself (it knows ts, js, py, sh, rs, cs, html, yml…).
hljs.registerAliases(['tsx', 'mts', 'cts'], { languageName: 'typescript' });
hljs.registerAliases(['jsx', 'mjs', 'cjs'], { languageName: 'javascript' });

/** Code longer than this is shown plain: highlighting it would stall the panel for little gain. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

/** The registered language for a fence's info string ("ts", "Python {.x}"), or null. */
export function highlightLanguage(info: string): string | null {
	const name = info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
	return name && hljs.getLanguage(name) ? name : null;
}

/**
 * Highlighted HTML for a code block, or '' to let markdown-it escape it plainly (unknown language,
 * too long, or a grammar error). Never guesses a language: auto-detection is slow and often wrong.
 */
export function highlightCode(code: string, info: string): string {
	const language = highlightLanguage(info);
	if (!language || code.length > MAX_HIGHLIGHT_CHARS) return '';
	try {
		return hljs.highlight(code, { language, ignoreIllegals: true }).value;
	} catch {
		return '';
	}
}
