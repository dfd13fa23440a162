/**
 * Where a store lives (CONTRACT.md "Stores"): `--db PATH|URL`, else `$GMEM_DB`, else
 * `~/.gated-memory/db`; and how a workspace folder becomes the workspace id every row carries.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * An embedded store folder, or a PostgreSQL server URL; `scope` is the user/team whose rows this
 * opening reads and writes (absent = 'local'). It travels with the location so every process that
 * opens the store (CLI, extension, indexing worker) reads and writes the same scope.
 */
export type StoreLocation = ({ kind: 'folder'; dir: string } | { kind: 'url'; url: string }) & { scope?: string };

/** What a scope name may be: a short, printable identifier (a user or team name, an e-mail). */
const SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$/;

/** Checks a scope name; returns an error message, or null when it is fine. */
export function scopeNameError(scope: string): string | null {
	return SCOPE_NAME.test(scope)
		? null
		: `scope "${scope}" must be 1–100 letters, digits or . _ @ + - (starting with a letter or digit)`;
}

/** True for `postgres://` / `postgresql://` URLs. */
export function isPostgresUrl(s: string): boolean {
	return /^postgres(ql)?:\/\//i.test(s);
}

/** Resolves the store location from an explicit `--db` value and the environment. */
export function resolveStoreLocation(
	db: string | undefined,
	env: NodeJS.ProcessEnv,
	cwd: string,
	scope?: string,
): StoreLocation {
	const chosen = db ?? (env.GMEM_DB || undefined);
	const scoped = withScopeOf(scope ?? (env.GMEM_SCOPE || undefined));
	if (chosen && isPostgresUrl(chosen)) return { kind: 'url', url: chosen, ...scoped };
	if (chosen) return { kind: 'folder', dir: resolve(cwd, chosen), ...scoped };
	return { kind: 'folder', dir: join(homedir(), '.gated-memory', 'db'), ...scoped };
}

function withScopeOf(scope: string | undefined): { scope?: string } {
	return scope ? { scope } : {};
}

/** The workspace id: a short SHA-256 of the folder's absolute path, so rows never hold the path. */
export function workspaceId(folder: string): string {
	return createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 16);
}
