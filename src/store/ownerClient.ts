/**
 * Reaching a store folder from any process: connect to the live owner's socket, or start an owner
 * child process (ownerProcess.ts) and then connect. Nobody but the owner opens PGlite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError, messageOf } from './errors';
import { holderAlive, readLock } from './lockFile';
import type { OwnerMessage } from './ownerProcess';
import { ownerEndpoint } from './ownerEndpoint';
import { connectPg } from './pgQueryable';
import type { Queryable } from './queryable';

/** How long to wait for an owner (a new store's first open measured 4.5–10 s). */
const DEFAULT_TIMEOUT_MS = 90_000;

/** Node arguments that run the owner entry: the built bundle, or the TypeScript source under tsx. */
function ownerCommand(dir: string): string[] {
	const override = process.env.GMEM_OWNER_ENTRY;
	if (override) return [override, dir];
	if (__filename.endsWith('.ts')) return ['--import', 'tsx', join(__dirname, 'ownerProcess.ts'), dir];
	// Bundles live in dist/ (extension, CLI) or one level below it (dist/bench).
	const bundled = [join(__dirname, 'storeOwner.js'), join(__dirname, '..', 'storeOwner.js')].find((p) => existsSync(p));
	return [bundled ?? join(__dirname, 'storeOwner.js'), dir];
}

type Spawned = { child: ChildProcess; outcome: Promise<OwnerMessage | { type: 'exit'; code: number | null }> };

function spawnOwner(dir: string): Spawned {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const log = openSync(join(dir, 'owner.log'), 'a', 0o600);
	const child = spawn(process.execPath, ownerCommand(dir), {
		stdio: ['ignore', log, log, 'ipc'],
		env: { ...process.env, GMEM_OWNER_PARENT: String(process.pid) },
	});
	closeSync(log);
	// The owner outlives us by design (it lingers for the next client): never keep our loop alive.
	child.unref();
	child.channel?.unref();
	const outcome = new Promise<OwnerMessage | { type: 'exit'; code: number | null }>((resolve) => {
		child.once('message', (m) => resolve(m as OwnerMessage));
		child.once('exit', (code) => resolve({ type: 'exit', code }));
		child.once('error', (e) => resolve({ type: 'error', code: 'owner-failed', message: messageOf(e) }));
	});
	return { child, outcome };
}

/**
 * Returns a `pg` connection to the owner of `dir`, starting one when nobody owns it. Throws
 * StoreError with a clear message when the owner fails (corrupt folder) or never answers.
 */
export async function connectToOwner(dir: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Queryable> {
	const deadline = Date.now() + timeoutMs;
	let spawned: Spawned | null = null;
	let lastError = 'no owner answered';
	while (Date.now() < deadline) {
		const holder = readLock(dir);
		const live = holder !== null && holderAlive(holder);
		// A named pipe cannot be probed like a file: once the holder is live, try to connect.
		const endpoint = ownerEndpoint(dir);
		if (live && (endpoint.kind === 'pipe' || existsSync(endpoint.path))) {
			try {
				return await connectPg({ socketDir: dir });
			} catch (e) {
				lastError = messageOf(e); // the owner may still be starting: retry until the deadline
			}
		} else if (!live && !spawned) {
			spawned = spawnOwner(dir);
		}
		// A live holder without a socket is an owner still opening PGlite: wait, never spawn another.
		const done = spawned
			? await Promise.race([spawned.outcome, sleep(100).then(() => null)])
			: await sleep(100).then(() => null);
		if (done && spawned) {
			settleSpawn(done, spawned);
			spawned = null;
		}
	}
	throw new StoreError(
		'locked',
		`the store ${dir} is in use and its owner did not answer within ${timeoutMs} ms (${lastError})`,
	);
}

// 'ready', and 'locked' (another process won the race), both mean: go connect. Anything else is fatal.
function settleSpawn(msg: OwnerMessage | { type: 'exit'; code: number | null }, spawned: Spawned): void {
	if (msg.type === 'error' && msg.code !== 'locked') throw new StoreError(msg.code, msg.message);
	if (msg.type === 'exit' && msg.code !== 0) {
		throw new StoreError(
			'owner-failed',
			`the store owner exited with code ${msg.code}; see ${join(spawned.child.spawnargs.at(-1) ?? '', 'owner.log')}`,
		);
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/**
 * Asks the live owner of `dir` to shut down (SIGTERM: it stops serving, closes PGlite, releases
 * the lock) and waits until the lock is gone. Returns false if it did not stop in time.
 */
export async function stopOwner(dir: string, timeoutMs = 20_000): Promise<boolean> {
	const holder = readLock(dir);
	if (!holder || !holderAlive(holder)) return true;
	process.kill(holder.pid, 'SIGTERM');
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (!readLock(dir)) return true;
		await sleep(100);
	}
	return false;
}
