/**
 * Citation links: a cited workspace-relative path becomes a `file:` URI inside the workspace
 * folder it came from (the first folder that holds the file), or null when none does — a path
 * from stored text never points outside the open folders, neither through `..` nor through a
 * symlink (the file's real path must lie inside a folder's real path: workspaceContainment.ts).
 * No `vscode` import.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { realContainmentSync } from '../indexing/workspaceContainment';

/** Maps a relative path to a `file:` URI under one of `folders()`, or null. */
export function citationUri(folders: () => readonly string[]): (path: string) => string | null {
	return (path) => {
		if (!path || isAbsolute(path)) return null;
		for (const folder of folders()) {
			const abs = resolve(folder, path);
			const rel = relative(folder, abs);
			if (rel.startsWith('..') || isAbsolute(rel)) continue;
			if (realContainmentSync(abs, [folder]).ok) return pathToFileURL(abs).href;
		}
		return null;
	};
}
