/**
 * The store owner: the one process that opens PGlite on a store folder. It holds the lock file,
 * serves the database on a Unix socket `DIR/.s.PGSQL.5432` (mode 0600, never TCP; on Windows a
 * named pipe, see ownerEndpoint.ts) and stays up
 * while its parent lives or any client is connected, then lingers briefly so the next `gmem`
 * call reuses it instead of paying PGlite's start-up again.
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { StoreError } from './errors';
import { acquireLock, pidAlive, type LockHandle } from './lockFile';
import { ownerEndpoint } from './ownerEndpoint';
import { openPglite } from './pgliteQueryable';

export { SOCKET_NAME } from './ownerEndpoint';
/** PGlite's own data folder inside the store folder (lock, socket and log stay outside it). */
export const DATA_SUBDIR = 'pgdata';

/** A running owner. */
export interface OwnerHandle {
	db: PGlite;
	socketPath: string;
	activeConnections(): number;
	/** Stops serving, closes PGlite and releases the lock (idempotent). */
	shutdown(): Promise<void>;
}

/**
 * Becomes the owner of `dir`: lock, open, serve. Throws StoreError 'locked' when a live process
 * already owns it, 'corrupt' when PGlite cannot open the data folder (the lock is released and
 * the folder left as it was).
 */
export async function startOwner(dir: string): Promise<OwnerHandle> {
	const lock = acquireLock(dir);
	if (!lock.ok) {
		throw new StoreError('locked', `the store ${dir} is owned by process ${lock.error.pid} on ${lock.error.host}`);
	}
	let db: PGlite;
	try {
		db = await openPglite(join(dir, DATA_SUBDIR));
	} catch (e) {
		lock.value.release();
		throw e;
	}
	const endpoint = ownerEndpoint(dir);
	const socketPath = endpoint.path;
	// A socket file left by a crashed owner: we hold the lock, so nobody is listening on it.
	// (A named pipe disappears with the process that served it.)
	if (endpoint.kind === 'unix' && existsSync(socketPath)) unlinkSync(socketPath);
	const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 64 });
	await server.start();
	if (endpoint.kind === 'unix') chmodSync(socketPath, 0o600);
	return ownerHandle(db, server, socketPath, lock.value, endpoint.kind === 'unix');
}

function ownerHandle(
	db: PGlite,
	server: PGLiteSocketServer,
	socketPath: string,
	lock: LockHandle,
	socketFile: boolean,
): OwnerHandle {
	let done: Promise<void> | null = null;
	return {
		db,
		socketPath,
		activeConnections: () => server.getStats().activeConnections,
		shutdown() {
			done ??= (async () => {
				await server.stop();
				await db.close();
				if (socketFile && existsSync(socketPath)) unlinkSync(socketPath);
				lock.release();
			})();
			return done;
		},
	};
}

/**
 * Resolves once the owner should exit: its parent is gone (or was never given) and no client has
 * been connected for `lingerMs`.
 */
export function waitUntilIdle(owner: OwnerHandle, parentPid: number | null, lingerMs: number): Promise<void> {
	return new Promise((resolve) => {
		let idleSince = Date.now();
		const timer = setInterval(() => {
			const busy = owner.activeConnections() > 0 || (parentPid !== null && pidAlive(parentPid));
			if (busy) idleSince = Date.now();
			else if (Date.now() - idleSince >= lingerMs) {
				clearInterval(timer);
				resolve();
			}
		}, 200);
	});
}
