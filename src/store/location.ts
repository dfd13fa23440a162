/**
 * Where a store lives (CONTRACT.md "Stores"): `--db PATH|URL`, else `$GMEM_DB`, else
 * `~/.gated-memory/db`; and how a workspace folder becomes the workspace id every row carries.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** An embedded store folder, or a PostgreSQL server URL. */
export type StoreLocation = { kind: 'folder'; dir: string } | { kind: 'url'; url: string };

/** True for `postgres://` / `postgresql://` URLs. */
export function isPostgresUrl(s: string): boolean {
	return /^postgres(ql)?:\/\//i.test(s);
}

/** Resolves the store location from an explicit `--db` value and the environment. */
export function resolveStoreLocation(db: string | undefined, env: NodeJS.ProcessEnv, cwd: string): StoreLocation {
	const chosen = db ?? (env.GMEM_DB || undefined);
	if (chosen && isPostgresUrl(chosen)) return { kind: 'url', url: chosen };
	if (chosen) return { kind: 'folder', dir: resolve(cwd, chosen) };
	return { kind: 'folder', dir: join(homedir(), '.gated-memory', 'db') };
}

/** The workspace id: a short SHA-256 of the folder's absolute path, so rows never hold the path. */
export function workspaceId(folder: string): string {
	return createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 16);
}
