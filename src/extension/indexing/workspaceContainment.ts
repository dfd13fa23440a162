/**
 * Whether a file really lies inside a workspace folder: both the file and the folders go through
 * `realpath` before the containment test, so a symlink inside a folder that points outside it (to a
 * file or through a linked folder) is refused, while a folder opened through a symlink still holds
 * its own files. A path that does not resolve (missing, a dangling link, a link loop) is refused.
 * No `vscode` import, so it is unit-tested in Node on real links.
 */
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isInsideFolder } from '../chat/editorTargets';

/** The verdict on one path: its real path when inside, else why not (a phrase for a log line). */
export type Containment = { ok: true; realPath: string } | { ok: false; reason: string };

/** The real paths of `folders` that resolve (a folder that does not is left out). */
async function realFolders(folders: readonly string[]): Promise<string[]> {
	const out: string[] = [];
	for (const folder of folders) {
		try {
			out.push(await realpath(folder));
		} catch {
			// a workspace folder that is gone holds nothing
		}
	}
	return out;
}

function verdict(realPath: string, folders: readonly string[]): Containment {
	return folders.some((f) => isInsideFolder(realPath, f))
		? { ok: true, realPath }
		: { ok: false, reason: `its real path ${realPath} is outside every workspace folder` };
}

function unresolved(e: unknown): Containment {
	const code = (e as NodeJS.ErrnoException | null)?.code;
	return {
		ok: false,
		reason:
			code === 'ENOENT'
				? 'it does not exist (or is a dangling link)'
				: `its real path cannot be resolved (${code ?? String(e)})`,
	};
}

/** Resolves `file` (absolute) and `folders` with `fs.promises.realpath` and tests containment. */
export async function realContainment(file: string, folders: readonly string[]): Promise<Containment> {
	let real: string;
	try {
		real = await realpath(file);
	} catch (e) {
		return unresolved(e);
	}
	return verdict(real, await realFolders(folders));
}

/** `realContainment` for synchronous callers (citation links built while a reply settles). */
export function realContainmentSync(file: string, folders: readonly string[]): Containment {
	let real: string;
	try {
		real = realpathSync(file);
	} catch (e) {
		return unresolved(e);
	}
	const resolved: string[] = [];
	for (const folder of folders) {
		try {
			resolved.push(realpathSync(folder));
		} catch {
			// a workspace folder that is gone holds nothing
		}
	}
	return verdict(real, resolved);
}
