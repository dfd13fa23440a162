/**
 * One owner per store folder: an OS-level lock file `DIR/owner.lock` holding the owner's pid.
 * Created atomically (link(2) fails if it exists); a lock whose pid is dead on this host is stale
 * and is recovered. Two PGlite instances on one folder silently corrupt it, so nothing opens
 * PGlite on a folder without holding this lock.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { err, ok, type Result } from '../core/result';

/** What the lock file records about its holder. */
export interface LockInfo {
	pid: number;
	host: string;
	created: string;
}

/** A held lock; `release` removes the file only if it is still ours. */
export interface LockHandle {
	path: string;
	info: LockInfo;
	release(): void;
}

export const LOCK_FILE = 'owner.lock';

/** Reads the lock file, or null if there is none (or it is unreadable garbage). */
export function readLock(dir: string): LockInfo | null {
	let text: string;
	try {
		text = readFileSync(join(dir, LOCK_FILE), 'utf8');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw e;
	}
	return parseLock(text);
}

// A half-written or foreign file holds no live owner: it parses as a dead pid, i.e. stale.
function parseLock(text: string): LockInfo {
	const dead: LockInfo = { pid: -1, host: hostname(), created: '' };
	try {
		const v = JSON.parse(text) as Partial<LockInfo>;
		return typeof v.pid === 'number' && typeof v.host === 'string'
			? { pid: v.pid, host: v.host, created: String(v.created) }
			: dead;
	} catch (parseError) {
		if (parseError instanceof SyntaxError) return dead;
		throw parseError;
	}
}

/** True if the process is alive (EPERM means it exists under another user). Other hosts count as alive. */
export function holderAlive(info: LockInfo): boolean {
	if (info.host !== hostname()) return true;
	return pidAlive(info.pid);
}

/** True if a process with this pid exists on this host (EPERM: it exists under another user). */
export function pidAlive(pid: number): boolean {
	if (pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return (e as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Takes the lock for this process, recovering a stale one. Fails with the live holder's info when
 * another process owns the folder.
 */
export function acquireLock(dir: string): Result<LockHandle, LockInfo> {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const path = join(dir, LOCK_FILE);
	const info: LockInfo = { pid: process.pid, host: hostname(), created: new Date().toISOString() };
	const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
	writeFileSync(tmp, JSON.stringify(info), { mode: 0o600 });
	try {
		for (let attempt = 0; attempt < 5; attempt++) {
			try {
				linkSync(tmp, path);
				return ok(handle(path, info));
			} catch (e) {
				if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
			}
			const holder = readLock(dir);
			if (holder && holderAlive(holder)) return err(holder);
			removeStaleLock(path);
		}
		const holder = readLock(dir);
		return err(holder ?? { pid: -1, host: hostname(), created: '' });
	} finally {
		unlinkSync(tmp);
	}
}

// Rename first so that of two processes recovering the same stale lock only one removes it.
function removeStaleLock(path: string): void {
	const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
	try {
		renameSync(path, aside);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else recovered it
		throw e;
	}
	// Between our read and the rename another process may have recovered the lock and taken it:
	// if what we moved aside is live, put it back rather than delete a live owner's lock.
	const moved = parseLock(readFileSync(aside, 'utf8'));
	if (moved && holderAlive(moved)) {
		try {
			linkSync(aside, path);
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
		}
	}
	unlinkSync(aside);
}

function handle(path: string, info: LockInfo): LockHandle {
	return {
		path,
		info,
		release() {
			let current: string;
			try {
				current = readFileSync(path, 'utf8');
			} catch (e) {
				if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
				throw e;
			}
			if (current === JSON.stringify(info)) unlinkSync(path);
		},
	};
}
