/**
 * Evidence-only mode: no model. The reply is the selected evidence quoted as stored, each chunk
 * under its `[n] path:start-end` citation in a fenced code block whose fence is longer than any
 * backtick run inside it (chunk text is untrusted and must not close its own block).
 */
import type { GenerationRequest, GenerationResult, Generator, GeneratorInfo, PromptEvidence } from './generator';
import { escapeMarkdown, fenceFor } from './markdownText';

const LANGUAGES: Record<string, string> = {
	ts: 'ts',
	tsx: 'tsx',
	mts: 'ts',
	cts: 'ts',
	js: 'js',
	jsx: 'jsx',
	mjs: 'js',
	cjs: 'js',
	py: 'python',
	go: 'go',
	rs: 'rust',
	java: 'java',
	kt: 'kotlin',
	swift: 'swift',
	c: 'c',
	h: 'c',
	cc: 'cpp',
	cpp: 'cpp',
	hpp: 'cpp',
	cs: 'csharp',
	rb: 'ruby',
	php: 'php',
	sh: 'bash',
	bash: 'bash',
	zsh: 'bash',
	ps1: 'powershell',
	sql: 'sql',
	md: 'markdown',
	json: 'json',
	yaml: 'yaml',
	yml: 'yaml',
	toml: 'toml',
	html: 'html',
	css: 'css',
	scss: 'scss',
	vue: 'vue',
	svelte: 'svelte',
	lua: 'lua',
	scala: 'scala',
	dart: 'dart',
	ex: 'elixir',
	exs: 'elixir',
	hs: 'haskell',
	ml: 'ocaml',
	r: 'r',
	xml: 'xml',
};

/** The fence language for a path's extension ('' when unknown or no path). */
export function languageFor(path: string | null): string {
	const m = path?.match(/\.([A-Za-z0-9]+)$/);
	return m ? (LANGUAGES[m[1].toLowerCase()] ?? '') : '';
}

/** A live diff is a `diff`; other live state (problems, status, terminal) is plain text; a chunk or a selection has its file's language. */
function fenceLanguage(e: PromptEvidence): string {
	if (e.tier === 'live' && /^git (diff|show)\b/.test(e.source)) return 'diff';
	if (e.tier === 'live' && !/^(Selection|Symbol|Definition|Editor)\b/.test(e.source)) return '';
	return languageFor(e.path);
}

/** The pieces of an evidence-only reply, in streaming order. */
export function evidenceOnlyPieces(evidence: readonly PromptEvidence[]): string[] {
	if (evidence.length === 0) {
		return [
			'**Nothing in the indexed workspace matched** — no evidence was selected for this turn. No model is set up, so Gated Memory can only quote evidence; choose a model in the Gated Memory settings for written answers.',
		];
	}
	const n = evidence.length;
	const live = evidence.filter((e) => e.tier === 'live').length;
	const pieces = [
		live === 0
			? `**Found in the indexed workspace** (${n} chunk${n === 1 ? '' : 's'}, quoted as stored; no model wrote this):`
			: live === n
				? `**Read from the editor just now** (${n} item${n === 1 ? '' : 's'} of live state, quoted as read; no model wrote this):`
				: `**Found** (${live} live item${live === 1 ? '' : 's'} read from the editor just now, ${n - live} chunk${n - live === 1 ? '' : 's'} from the indexed workspace; no model wrote this):`,
	];
	for (const e of evidence) {
		const body = e.text.replace(/\n+$/, '');
		const f = fenceFor(body);
		pieces.push(`\n\n[${e.n}] ${escapeMarkdown(e.source)}\n\n${f}${fenceLanguage(e)}\n${body}\n${f}`);
	}
	return pieces;
}

/** The generator used when no model is available: useful offline, never dead. */
export class EvidenceOnlyGenerator implements Generator {
	readonly info: GeneratorInfo = { kind: 'evidence', label: 'Evidence only (no model)' };

	async generate(request: GenerationRequest): Promise<GenerationResult> {
		const started = performance.now();
		let text = '';
		for (const piece of evidenceOnlyPieces(request.prompt.evidence)) {
			if (request.signal.aborted)
				return { text, finish: 'cancelled', model: 'evidence-only', ms: performance.now() - started };
			text += piece;
			request.onDelta(piece);
			// Yield between pieces so a Stop (or the host's other work) is seen between chunks.
			await new Promise((resolve) => setImmediate(resolve));
		}
		return { text, finish: 'stop', model: 'evidence-only', ms: performance.now() - started };
	}
}
