/**
 * The chunker: one file's text → chunks with line ranges, symbol, kind, language and header.
 * A plain async function with no store or editor dependency, so it runs the same in the CLI, a
 * worker thread or the store owner. Never throws for a file's content: a grammar that fails to
 * load or parse falls back to line windows, and says so in `structure`.
 */
import { definitionUnits, extractDefinitions, flattenDefinitions } from './chunkCode';
import type { ChunkDefinition, ChunkLimits, FileChunk, LineUnit } from './chunkTypes';
import { lineWindows, sizeUnits, toLines, trimBlank, type Lines } from './chunkUnits';
import { markdownUnits } from './chunkMarkdown';
import { chunkPlanFor, languageLabel, type GrammarLanguage } from './languages';
import { loadGrammar } from './treeSitter';

/** What chunkFile produced and how. */
export interface ChunkedFile {
	chunks: FileChunk[];
	structure: 'tree-sitter' | 'markdown' | 'lines';
	/** Why a grammar file fell back to line windows. */
	fallbackReason?: string;
}

const MAX_SYMBOLS_IN_NAME = 3;

/** Chunks one file. `relPath` is workspace-relative with `/` separators. */
export async function chunkFile(relPath: string, text: string, limits: ChunkLimits): Promise<ChunkedFile> {
	const plan = chunkPlanFor(relPath);
	const language = languageLabel(plan);
	const lines = toLines(text);
	const make = (units: LineUnit[]) => materialise(relPath, lines, units, language, limits);
	if (plan.kind === 'markdown')
		return { chunks: make(sizeUnits(lines, markdownUnits(lines), limits)), structure: 'markdown' };
	if (plan.kind === 'code') {
		try {
			const { units, definitions } = await codeUnits(plan.language, text, lines, limits);
			return { chunks: attachDefinitions(make(units), definitions), structure: 'tree-sitter' };
		} catch (e) {
			const fallbackReason = e instanceof Error ? e.message : String(e);
			return { chunks: make(lineWindows(lines, limits)), structure: 'lines', fallbackReason };
		}
	}
	return { chunks: make(lineWindows(lines, limits)), structure: 'lines' };
}

async function codeUnits(
	grammar: GrammarLanguage,
	text: string,
	lines: Lines,
	limits: ChunkLimits,
): Promise<{ units: LineUnit[]; definitions: ChunkDefinition[] }> {
	const { parser, query } = await loadGrammar(grammar);
	// No await between parse and delete: the parser is shared per language within this thread.
	const tree = parser.parse(text);
	if (!tree) throw new Error(`tree-sitter returned no tree for ${grammar}`);
	try {
		const defs = extractDefinitions(tree, query);
		const units = sizeUnits(lines, definitionUnits(lines, defs, 0, lines.text.length - 1, limits), limits);
		return { units, definitions: flattenDefinitions(defs) };
	} finally {
		tree.delete(); // frees the WASM heap now rather than at garbage collection
	}
}

/**
 * Gives each definition to the first chunk holding its first line (overlapping windows would
 * otherwise list it twice), so the symbol table points at the chunk where the definition starts.
 */
export function attachDefinitions(chunks: FileChunk[], definitions: readonly ChunkDefinition[]): FileChunk[] {
	for (const d of definitions) {
		const owner =
			chunks.find((c) => c.startLine <= d.startLine && d.startLine <= c.endLine) ??
			chunks.find((c) => c.startLine >= d.startLine);
		if (owner) (owner.definitions ??= []).push(d);
	}
	return chunks;
}

/** The header indexed and embedded with a chunk: path, then kind and enclosing symbol. */
export function chunkHeader(relPath: string, kind: string, symbol: string | null): string {
	return symbol ? `${relPath} · ${kind} ${symbol}` : relPath;
}

function materialise(
	relPath: string,
	lines: Lines,
	units: readonly LineUnit[],
	language: string | null,
	limits: ChunkLimits,
): FileChunk[] {
	const out: FileChunk[] = [];
	for (const raw of units) {
		const u = trimBlank(lines, raw);
		const symbol = u.symbols.length
			? u.symbols.slice(0, MAX_SYMBOLS_IN_NAME).join(', ') + (u.symbols.length > MAX_SYMBOLS_IN_NAME ? ', …' : '')
			: null;
		const header = chunkHeader(relPath, u.kind, symbol);
		const content = lines.text.slice(u.start, u.end + 1).join('\n');
		// Only a single line wider than maxChars can exceed it (minified code): cut it in pieces.
		for (let at = 0; at < Math.max(content.length, 1); at += limits.maxChars) {
			out.push({
				startLine: u.start + 1,
				endLine: u.end + 1,
				content: content.slice(at, at + limits.maxChars),
				symbol,
				kind: u.kind,
				language,
				header,
			});
		}
	}
	return out;
}
