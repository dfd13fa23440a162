/**
 * Splits one unified diff (`git diff`, many files) into per-file pieces, so git is asked once
 * for the whole working tree (one process) and each file is still quoted and cited on its own.
 */

export interface FileDiff {
	/** The file's path as git prints it (relative to the repository root, `/`-separated). */
	path: string;
	text: string;
}

const HEADER = /^diff --git a\/(.+?) b\/(.+)$/;

export function splitUnifiedDiff(diff: string): FileDiff[] {
	const out: FileDiff[] = [];
	let current: { path: string; lines: string[] } | null = null;
	for (const line of diff.split('\n')) {
		const m = HEADER.exec(line);
		if (m) {
			if (current) out.push({ path: current.path, text: current.lines.join('\n') });
			current = { path: unquote(m[2]), lines: [line] };
		} else if (current) {
			current.lines.push(line);
		}
	}
	if (current) out.push({ path: current.path, text: current.lines.join('\n').replace(/\n$/, '') });
	return out;
}

function unquote(path: string): string {
	return path.startsWith('"') && path.endsWith('"') ? path.slice(1, -1) : path;
}
