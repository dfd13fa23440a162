/**
 * The one evidence item a turn quotes, whatever found it: a workspace chunk, a research memory, a
 * profile fact, or an item of the editor's live state (open editors, selection, problems). Every
 * layer passes this shape — retrieval returns it, the chat pipeline gathers it, prompt assembly
 * quotes it and citations point at it — so there is one name for it, defined here, low in the stack.
 */

/** Where an item came from: a stored tier (`workspace`, `research`, `profile`) or the live editor state. */
export type EvidenceSource = 'workspace' | 'research' | 'profile' | 'live';

export const EVIDENCE_SOURCES: readonly EvidenceSource[] = ['workspace', 'research', 'profile', 'live'];

/** One piece of evidence, in the retrieval pipeline's final order when it reaches the prompt. */
export interface EvidenceItem {
	source: EvidenceSource;
	/** Workspace-relative path with `/` separators (a cited file); null for memories and profile facts. */
	path: string | null;
	startLine: number | null;
	endLine: number | null;
	symbol: string | null;
	/** The quoted text: untrusted data, never instructions. */
	text: string;
	/**
	 * The citation label shown for `[n]` ("research memory · 2026-11-30 · Q&A", "Problems: src/a.ts:2");
	 * absent: computed from path, lines and symbol (`src/a.ts:10-24 (parseConfig)`).
	 */
	citation?: string;
}
