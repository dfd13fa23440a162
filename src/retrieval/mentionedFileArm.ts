/**
 * The named-file list of files mode (issue 15, long bug reports): the files a report names by
 * module path or printed path (mentionedFiles.ts), looked up by file name in the store and matched
 * by path suffix, each with its first chunk as the hit the file ranking can show. Two statements,
 * only when the text names something path-like.
 */
import { firstChunks } from '../store/firstChunks';
import { pathsNamed } from '../store/frameChunks';
import type { Queryable } from '../store/queryable';
import type { SearchScope } from '../store/searchQueries';
import { toHit, type SearchHit } from './hybridSearch';
import { matchMentionedFiles, mentionProbeNames, pathMentions, type MentionedFile } from './mentionedFiles';

// Extensions a dotted module name may be written in (the ones its own path mentions are added).
const MODULE_EXTS = ['py', 'pyi', 'js', 'ts', 'go', 'rs', 'java', 'kt', 'rb'];

/** The files the text names, best first, at most `max`, each with its first chunk. */
export async function mentionedFileHits(
	db: Queryable,
	scope: SearchScope,
	text: string,
	max: number,
): Promise<{ files: MentionedFile[]; hits: SearchHit[] }> {
	if (max <= 0) return { files: [], hits: [] };
	const mentions = pathMentions(text, 4 * max);
	if (!mentions.length) return { files: [], hits: [] };
	const candidates = await pathsNamed(db, scope, mentionProbeNames(mentions, MODULE_EXTS, 40 * max));
	const files = matchMentionedFiles(mentions, candidates).slice(0, max);
	if (!files.length) return { files, hits: [] };
	const rows = await firstChunks(
		db,
		scope,
		files.map((f) => f.path),
	);
	const byPath = new Map(rows.map((r) => [r.path, r]));
	const hits = files.flatMap((f) => {
		const r = byPath.get(f.path);
		return r ? [toHit(r, 0, null, null)] : [];
	});
	return { files, hits };
}
