/** Shapes shared by the chunkers. Lines are 1-based and inclusive, as stored and cited. */

/** One chunk of a file, ready to be hashed, embedded and stored. */
export interface FileChunk {
	startLine: number;
	endLine: number;
	/** The file's own text for these lines (secrets already redacted). */
	content: string;
	/** Enclosing symbol (`Class.method`, `function`, a Markdown heading path), or null. */
	symbol: string | null;
	/** function | method | class | block | section | lines. */
	kind: string;
	/** Language label (typescript, python, markdown …), or null when unknown. */
	language: string | null;
	/** Path plus enclosing symbol; indexed and embedded with the content, never shown as file text. */
	header: string;
	/** Definitions that start in this chunk (tree-sitter files only): the symbol table's rows. */
	definitions?: ChunkDefinition[];
}

/** One definition for the symbol table: qualified name (`Class.method`), kind, 1-based lines. */
export interface ChunkDefinition {
	name: string;
	kind: 'class' | 'function' | 'method';
	startLine: number;
	endLine: number;
}

/** Size limits (from the thresholds table, `index_chunk_*`). */
export interface ChunkLimits {
	maxLines: number;
	maxChars: number;
	overlapLines: number;
	minLines: number;
}

/**
 * A contiguous span of lines before it becomes a chunk: 0-based inclusive rows. `symbols` lists
 * the definitions it covers (several after merging tiny neighbours).
 */
export interface LineUnit {
	start: number;
	end: number;
	kind: string;
	symbols: string[];
	/** A window cut from a longer span: already full size, never merged with a neighbour. */
	atomic?: boolean;
}
