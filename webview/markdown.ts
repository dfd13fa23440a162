/**
 * Reply Markdown → DOM, safely. Replies (and, later, model output and retrieved evidence) are
 * untrusted, so two independent layers stand between them and the page: markdown-it with raw
 * HTML disabled (tags become text, `javascript:` links are refused), then DOMPurify with a short
 * allow-list. The result is a DocumentFragment; no HTML string is ever assigned to innerHTML here.
 * Where DOMPurify cannot run (no DOM), the Markdown source is shown as plain text.
 */
import DOMPurify, { type Config } from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlightCode } from './highlight';

// `highlight` returns escaped text in hljs spans (or '' for markdown-it's plain escaping).
const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false, highlight: highlightCode });

/** Tags a reply may contain after sanitising; no images (tracking pixels), forms or media. */
export const ALLOWED_TAGS = [
	'p',
	'br',
	'hr',
	'strong',
	'em',
	's',
	'code',
	'pre',
	'blockquote',
	'ul',
	'ol',
	'li',
	'a',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'table',
	'thead',
	'tbody',
	'tr',
	'th',
	'td',
	'sub',
	'sup',
	'span',
];

/** The DOMPurify configuration; exported so tests can assert on it. */
export const SANITIZE_CONFIG: Config = {
	ALLOWED_TAGS,
	ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
	// Only web and mail links; markdown-it already refuses javascript:, vbscript:, file: and most data:.
	ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
	ALLOW_DATA_ATTR: false,
};

/** Markdown → HTML string through markdown-it alone (raw HTML escaped). Pure; used by tests. */
export function markdownToHtml(source: string): string {
	return md.render(source);
}

let hooked = false;
function ensureHooks(): void {
	if (hooked) return;
	hooked = true;
	// Links open outside the webview; never give the opened page a handle back to this one.
	DOMPurify.addHook('afterSanitizeAttributes', (node) => {
		if (node.tagName === 'A') node.setAttribute('rel', 'noopener noreferrer');
	});
}

/** Renders Markdown into a sanitised fragment (or plain text when sanitising is unavailable). */
export function renderMarkdown(source: string): DocumentFragment {
	if (!DOMPurify.isSupported) {
		const fragment = document.createDocumentFragment();
		fragment.append(document.createTextNode(source));
		return fragment;
	}
	ensureHooks();
	return DOMPurify.sanitize(markdownToHtml(source), { ...SANITIZE_CONFIG, RETURN_DOM_FRAGMENT: true });
}
