/**
 * CPU time a batch of retrievals cost, on both sides of the connection: this process
 * (process.cpuUsage) and the store's (the PGlite owner process, or the server backends of the
 * benchmark database, read from /proc — the server runs on this machine). On a shared machine wall
 * time grows with everyone else's load; CPU time per query barely does, so it is the figure that
 * tells whether a change made the work smaller. Linux only (null elsewhere).
 */
import { readFileSync } from 'node:fs';
import { readLock } from '../../src/store/lockFile';
import type { Store } from '../../src/store/openStore';

const TICK_MS = 10; // USER_HZ 100 on Linux

function procCpuMs(pid: number): number | null {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
		return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
	} catch {
		return null;
	}
}

/** The processes that answer this store's queries. */
async function storePids(store: Store): Promise<number[]> {
	if (store.folder) {
		const lock = readLock(store.folder);
		return lock ? [lock.pid] : [];
	}
	const rows = await store.db.query<{ pid: number }>(
		// Client backends only (the pool's, this statement's own included): autovacuum workers, busy for a while
		// after a bulk load, are not a query's cost.
		"SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'",
	);
	return rows.map((r) => r.pid);
}

/** Starts a measurement; `stop(n)` gives CPU ms per retrieval for the n retrievals since. */
export async function cpuMeter(
	store: Store,
): Promise<{ stop(n: number): Promise<{ client_ms: number; store_ms: number | null }> }> {
	const pids = await storePids(store);
	const before = new Map(pids.map((p) => [p, procCpuMs(p)]));
	const client = process.cpuUsage();
	return {
		async stop(n: number) {
			const used = process.cpuUsage(client);
			// Backends opened during the batch (a pool growing) started from 0.
			const now = await storePids(store);
			let store_ms: number | null = 0;
			for (const p of new Set([...pids, ...now])) {
				const end = procCpuMs(p);
				const start = before.get(p) ?? 0;
				if (end === null || start === null) store_ms = null;
				else if (store_ms !== null) store_ms += end - start;
			}
			const r = (x: number) => Math.round((x / n) * 100) / 100;
			return { client_ms: r((used.user + used.system) / 1000), store_ms: store_ms === null ? null : r(store_ms) };
		},
	};
}
