/**
 * The instruction files other agents already read, as standing instructions of the workspace:
 * AGENTS.md, CLAUDE.md and .github/copilot-instructions.md (split at their headings, one section
 * each), .cursor/rules/*.mdc and .continue/rules/*.md|.mdc (one rule per file, with the front
 * matter's description / globs / alwaysApply). Only read, never written. Secrets are redacted
 * with the indexer's scanner before any text leaves this module; a file or section over its cap
 * is cut with a note that says so.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from './secretScan';

/** One section or rule of an instruction file. */
export interface InstructionSection {
	/** Workspace-relative path of the file (`/` separators). */
	source: string;
	/** The heading (markdown files), the rule's file name or front-matter name (rule files). */
	title: string;
	text: string;
	/** Front-matter globs: applied when a file in play matches (empty: none). */
	globs: string[];
	/** Front-matter alwaysApply: true → on every turn (the user's explicit choice). */
	alwaysApply: boolean;
	description: string;
}

/** One parsed file: its sections and what was cut or redacted. */
export interface ParsedInstructionFile {
	source: string;
	sections: InstructionSection[];
	notes: string[];
}

export interface InstructionLimits {
	maxBytes: number;
	maxSectionChars: number;
}

/** The single files at fixed places in a workspace folder. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const;
/** The rule folders, one rule per file. */
export const RULE_FOLDERS = [
	{ dir: '.cursor/rules', ext: /\.mdc$/i },
	{ dir: '.continue/rules', ext: /\.(md|mdc)$/i },
] as const;

/** True when a workspace-relative path (`/` separators) is one of the instruction files read here. */
export function isInstructionFile(rel: string): boolean {
	if ((INSTRUCTION_FILES as readonly string[]).includes(rel)) return true;
	return RULE_FOLDERS.some(
		(f) => rel.startsWith(`${f.dir}/`) && !rel.slice(f.dir.length + 1).includes('/') && f.ext.test(rel),
	);
}

/** Lists the instruction files present in a folder (workspace-relative paths, sorted). */
export async function listInstructionFiles(root: string): Promise<string[]> {
	const out: string[] = [];
	for (const rel of INSTRUCTION_FILES) if (await isFile(join(root, rel))) out.push(rel);
	for (const f of RULE_FOLDERS) {
		const names = await readdir(join(root, f.dir)).catch(() => [] as string[]);
		for (const name of names.sort())
			if (f.ext.test(name) && (await isFile(join(root, f.dir, name)))) out.push(`${f.dir}/${name}`);
	}
	return out;
}

/** Reads and parses one file (at most `maxBytes` of it). A missing file yields null. */
export async function readInstructionFile(
	root: string,
	rel: string,
	limits: InstructionLimits,
): Promise<ParsedInstructionFile | null> {
	let buf: Buffer;
	try {
		buf = await readFile(join(root, rel));
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
		throw e;
	}
	return parseInstructionFile(rel, buf, limits);
}

/** Parses a file's bytes: cap, redaction, then sections (markdown) or one rule (rule folders). */
export function parseInstructionFile(rel: string, bytes: Uint8Array, limits: InstructionLimits): ParsedInstructionFile {
	const notes: string[] = [];
	let raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let capNote: string | null = null;
	if (raw.length > limits.maxBytes) {
		// Cut at the last line end inside the cap, so no line (or UTF-8 character) is half read.
		const cut = raw.subarray(0, limits.maxBytes).lastIndexOf(0x0a);
		raw = raw.subarray(0, cut > 0 ? cut : limits.maxBytes);
		capNote = `[… ${rel} is ${kb(bytes.byteLength)}; only its first ${kb(limits.maxBytes)} are read (instruction_file_max_bytes)]`;
		notes.push(capNote);
	}
	const redaction = redactSecrets(
		raw
			.toString('utf8')
			.replace(/^\uFEFF/, '')
			.replace(/\r\n?/g, '\n'),
		rel,
	);
	const secrets = Object.values(redaction.found).reduce((a, b) => a + b, 0);
	if (secrets) notes.push(`${rel}: ${secrets} secret${secrets === 1 ? '' : 's'} redacted`);
	const isRule = !(INSTRUCTION_FILES as readonly string[]).includes(rel);
	let sections = isRule ? ruleSections(rel, redaction.text) : markdownSections(rel, redaction.text);
	sections = sections.map((s) => capSection(s, limits.maxSectionChars, notes));
	const last = sections[sections.length - 1];
	if (capNote && last) last.text = `${last.text}\n${capNote}`;
	return { source: rel, sections, notes };
}

/** Markdown split at headings of level 1–3 outside code fences; text before the first is the file's preamble. */
export function markdownSections(rel: string, text: string): InstructionSection[] {
	const out: InstructionSection[] = [];
	let title = rel;
	let lines: string[] = [];
	let fence: string | null = null;
	const flush = () => {
		const body = lines.join('\n').trim();
		if (body) out.push({ source: rel, title, text: body, globs: [], alwaysApply: false, description: '' });
		lines = [];
	};
	for (const line of text.split('\n')) {
		const f = /^\s{0,3}(```|~~~)/.exec(line);
		if (f) fence = fence === null ? f[1]! : fence === f[1] ? null : fence;
		const h = fence === null && !f ? /^\s{0,3}(#{1,3})\s+(.+?)\s*#*\s*$/.exec(line) : null;
		if (h) {
			flush();
			title = h[2]!;
			continue;
		}
		lines.push(line);
	}
	flush();
	return out;
}

/** One rule file: front matter (description, globs, alwaysApply, name) and its body as one rule. */
export function ruleSections(rel: string, text: string): InstructionSection[] {
	const { meta, body } = frontMatter(text);
	const trimmed = body.trim();
	if (!trimmed) return [];
	const base = rel.slice(rel.lastIndexOf('/') + 1).replace(/\.(md|mdc)$/i, '');
	return [
		{
			source: rel,
			title: typeof meta.name === 'string' && meta.name ? meta.name : base,
			text: trimmed,
			globs: globList(meta.globs),
			alwaysApply: meta.alwaysApply === true || meta.alwaysApply === 'true',
			description: typeof meta.description === 'string' ? meta.description : '',
		},
	];
}

type MetaValue = string | boolean | string[];

/**
 * The `---` front matter of a rule file. Only the flat subset rule files use: `key: value`,
 * `key: [a, b]` and `key:` followed by `- item` lines; quotes are stripped. Anything else is
 * left out (the body still counts).
 */
export function frontMatter(text: string): { meta: Record<string, MetaValue>; body: string } {
	const m = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
	if (!m) return { meta: {}, body: text };
	const meta: Record<string, MetaValue> = {};
	let listKey: string | null = null;
	for (const line of m[1]!.split('\n')) {
		const item = /^\s+-\s*(.*)$/.exec(line);
		if (item && listKey) {
			const cur = meta[listKey];
			meta[listKey] = [...(Array.isArray(cur) ? cur : []), unquote(item[1]!)];
			continue;
		}
		const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
		if (!kv) continue;
		const [, key, value] = kv as unknown as [string, string, string];
		listKey = value.trim() === '' ? key : null;
		const v = value.trim();
		if (/^\[.*\]$/.test(v)) meta[key] = v.slice(1, -1).split(',').map(unquote).filter(Boolean);
		else if (v === 'true' || v === 'false') meta[key] = v === 'true';
		else if (v !== '') meta[key] = unquote(v);
	}
	return { meta, body: text.slice(m[0].length) };
}

/** Front-matter globs: a list, or one string of comma-separated globs (Cursor writes both). */
export function globList(v: MetaValue | undefined): string[] {
	if (Array.isArray(v)) return v.map((g) => g.trim()).filter(Boolean);
	if (typeof v === 'string')
		return v
			.split(',')
			.map((g) => unquote(g.trim()))
			.filter(Boolean);
	return [];
}

/**
 * A glob → RegExp over workspace-relative paths: `**` any folders, `*` and `?` within one
 * name, `{a,b}` alternatives. A glob without `/` matches the file name at any depth
 * (`*.ts` = every TypeScript file), as the rule files' own examples mean it.
 */
export function globRegExp(glob: string): RegExp {
	let g = glob.trim().replace(/^\.\//, '');
	if (!g.includes('/')) g = `**/${g}`;
	let re = '';
	for (let i = 0; i < g.length; i++) {
		const c = g[i]!;
		if (c === '*' && g[i + 1] === '*') {
			const slash = g[i + 2] === '/';
			re += slash ? '(?:.*/)?' : '.*';
			i += slash ? 2 : 1;
		} else if (c === '*') re += '[^/]*';
		else if (c === '?') re += '[^/]';
		else if (c === '{') {
			const end = g.indexOf('}', i);
			if (end < 0) re += '\\{';
			else {
				re += `(?:${g
					.slice(i + 1, end)
					.split(',')
					.map(escapeRe)
					.join('|')})`;
				i = end;
			}
		} else re += escapeRe(c);
	}
	return new RegExp(`^${re}$`);
}

/** The globs that match one of `paths` (workspace-relative), in glob order. */
export function matchingGlobs(globs: readonly string[], paths: readonly string[]): { glob: string; path: string }[] {
	const out: { glob: string; path: string }[] = [];
	for (const glob of globs) {
		const re = globRegExp(glob);
		const path = paths.find((p) => re.test(p));
		if (path !== undefined) out.push({ glob, path });
	}
	return out;
}

function capSection(s: InstructionSection, max: number, notes: string[]): InstructionSection {
	if (s.text.length <= max) return s;
	const note = `[… section cut at ${max} of ${s.text.length} characters (instruction_section_max_chars)]`;
	notes.push(`${s.source} § ${s.title}: cut at ${max} of ${s.text.length} characters`);
	return { ...s, text: `${s.text.slice(0, max).trimEnd()}\n${note}` };
}

function unquote(s: string): string {
	const t = s.trim();
	return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
}

function escapeRe(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function kb(n: number): string {
	return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
}

async function isFile(p: string): Promise<boolean> {
	return stat(p).then(
		(s) => s.isFile(),
		() => false,
	);
}
