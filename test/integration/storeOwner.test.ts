/**
 * One owner per store folder: two processes on one store lose nothing; a stale lock (crashed
 * owner) is recovered; a live lock that never answers, a corrupt data folder and a refused or
 * pgvector-less server each give a clear error and change nothing.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { readLock } from '../../src/store/lockFile';
import { openStore } from '../../src/store/openStore';
import { stopOwner } from '../../src/store/ownerClient';
import { mustOpen, serverUrl, tempStoreDir } from '../fixtures/store_engines';

const run = promisify(execFile);

function writer(dir: string, tag: string, n: number) {
	return run(process.execPath, ['--import', 'tsx', 'test/fixtures/store_writer.ts', dir, tag, String(n)], {
		timeout: 120_000,
	});
}

async function countDocs(dir: string): Promise<number> {
	const store = await mustOpen({ kind: 'folder', dir });
	try {
		const [{ n }] = await store.db.query<{ n: number }>(
			`SELECT count(*)::int AS n FROM documents WHERE workspace_id = 'shared-ws'`,
		);
		return n;
	} finally {
		await store.close();
	}
}

describe('store ownership (PGlite folder)', function () {
	this.timeout(180_000);
	const dirs: string[] = [];
	const scratch = () => {
		dirs.push(tempStoreDir());
		return dirs[dirs.length - 1];
	};
	after(async () => {
		for (const dir of dirs) {
			await stopOwner(dir);
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('two processes writing to one store lose nothing', async () => {
		const dir = scratch();
		const [a, b] = await Promise.all([writer(dir, 'a', 60), writer(dir, 'b', 60)]);
		assert.match(a.stdout, /a done/);
		assert.match(b.stdout, /b done/);
		assert.equal(await countDocs(dir), 120);
		const store = await mustOpen({ kind: 'folder', dir });
		const [{ n }] = await store.db.query<{ n: number }>(
			`SELECT count(*)::int AS n FROM chunks c WHERE c.tsv @@ to_tsquery('english', 'alpha')`,
		);
		await store.close();
		assert.equal(n, 120, 'every chunk is in the GIN index');
	});

	it('serves the socket with 0600 permissions and records the owner pid', async () => {
		const dir = scratch();
		const store = await mustOpen({ kind: 'folder', dir });
		try {
			assert.equal(statSync(join(dir, '.s.PGSQL.5432')).mode & 0o777, 0o600);
			const lock = readLock(dir);
			assert.ok(lock && lock.pid !== process.pid, 'the owner is a child process, not this one');
		} finally {
			await store.close();
		}
	});

	it('recovers the lock of a crashed owner and keeps the data', async () => {
		const dir = scratch();
		const first = await mustOpen({ kind: 'folder', dir });
		await first.db.query(`INSERT INTO profile_entries (workspace_id, key, value, kind) VALUES ('w', 'k', 'v', 'fact')`);
		const owner = readLock(dir)!;
		await first.close();
		process.kill(owner.pid, 'SIGKILL');
		await new Promise((r) => setTimeout(r, 300));
		assert.ok(existsSync(join(dir, 'owner.lock')), 'the crashed owner left its lock behind');
		const second = await mustOpen({ kind: 'folder', dir });
		try {
			const rows = await second.db.query(`SELECT value FROM profile_entries WHERE key = 'k'`);
			assert.equal(rows.length, 1);
			assert.notEqual(readLock(dir)!.pid, owner.pid);
		} finally {
			await second.close();
		}
	});

	it('two connections to one owner prepare the same statement without colliding, and survive a query error', async () => {
		// Every client shares the owner's one PGlite session: a statement name without a per-connection
		// tag would be "already exists" for the second connection.
		const dir = scratch();
		const a = await mustOpen({ kind: 'folder', dir });
		const b = await mustOpen({ kind: 'folder', dir });
		try {
			const sql = `SELECT $1::int + 1 AS n`;
			for (let i = 0; i < 3; i++) {
				const [ra, rb] = await Promise.all([
					a.db.query<{ n: number }>(sql, [i]),
					b.db.query<{ n: number }>(sql, [10 + i]),
				]);
				assert.equal(ra[0].n, i + 1);
				assert.equal(rb[0].n, 11 + i);
			}
			await assert.rejects(a.db.query(`SELECT $1::int / 0 AS n`, [1]), /division by zero/);
			const [after] = await a.db.query<{ n: number }>(sql, [41]);
			assert.equal(after.n, 42, 'the connection answers after a statement error');
			const prepared = await b.db.query<{ n: number }>(
				`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`,
				[sql],
			);
			assert.equal(prepared[0].n, 2, 'one prepared copy per connection, both in the shared session');
		} finally {
			await a.close();
			await b.close();
		}
	});

	it('reconnects to a new owner when its owner dies, data intact', async () => {
		const dir = scratch();
		const store = await mustOpen({ kind: 'folder', dir });
		try {
			await store.db.query(
				`INSERT INTO profile_entries (workspace_id, key, value, kind) VALUES ('w', 'editor', 'vim', 'preference')`,
			);
			const first = readLock(dir)!.pid;
			process.kill(first, 'SIGKILL');
			await new Promise((r) => setTimeout(r, 300));
			const rows = await store.db.query<{ value: string }>(`SELECT value FROM profile_entries WHERE key = 'editor'`);
			assert.deepEqual(
				rows.map((r) => r.value),
				['vim'],
			);
			assert.notEqual(readLock(dir)!.pid, first, 'a new owner serves the store');
		} finally {
			await store.close();
		}
	});

	it('reports a store locked by a live process that does not answer', async () => {
		const dir = scratch();
		const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
		try {
			writeFileSync(
				join(dir, 'owner.lock'),
				JSON.stringify({ pid: sleeper.pid, host: hostname(), created: new Date().toISOString() }),
			);
			const r = await openStore({ kind: 'folder', dir }, { ownerTimeoutMs: 1500 });
			assert.equal(r.ok, false);
			if (!r.ok) {
				assert.equal(r.error.code, 'locked');
				assert.match(r.error.message, /in use/);
			}
			assert.equal(readLock(dir)!.pid, sleeper.pid, 'the live lock is left alone');
		} finally {
			sleeper.kill();
		}
	});

	it('reports a corrupt data folder and leaves it untouched', async () => {
		const dir = scratch();
		mkdirSync(join(dir, 'pgdata'));
		writeFileSync(join(dir, 'pgdata', 'PG_VERSION'), 'not a postgres version\n');
		writeFileSync(join(dir, 'pgdata', 'precious.txt'), 'keep me');
		const r = await openStore({ kind: 'folder', dir }, { ownerTimeoutMs: 60_000 });
		assert.equal(r.ok, false);
		if (!r.ok) assert.match(r.error.message, /cannot open the embedded database|owner/);
		assert.equal(readFileSync(join(dir, 'pgdata', 'precious.txt'), 'utf8'), 'keep me');
		assert.equal(readFileSync(join(dir, 'pgdata', 'PG_VERSION'), 'utf8'), 'not a postgres version\n');
		assert.equal(readLock(dir), null, 'the failed owner released its lock');
	});
});

describe('server errors', function () {
	this.timeout(60_000);

	it('a URL that refuses the connection is a clear "unreachable" error', async () => {
		const r = await openStore({ kind: 'url', url: 'postgres://postgres@127.0.0.1:1/none' });
		assert.equal(r.ok, false);
		if (!r.ok) {
			assert.equal(r.error.code, 'unreachable');
			assert.match(r.error.message, /cannot connect to postgres:\/\/postgres@127\.0\.0\.1:1\/none/);
		}
	});

	const url = serverUrl();
	if (url) {
		it('a database where pgvector cannot be enabled is a clear "no-vector" error, nothing written', async () => {
			const admin = new pg.Client({ connectionString: url });
			await admin.connect();
			const name = `gmem_novec_${process.pid}`;
			await admin.query(`DROP DATABASE IF EXISTS ${name}`);
			await admin.query(`DROP ROLE IF EXISTS gmem_novec`);
			await admin.query(`CREATE ROLE gmem_novec LOGIN`);
			await admin.query(`CREATE DATABASE ${name} OWNER gmem_novec`);
			try {
				const u = new URL(url);
				u.username = 'gmem_novec';
				u.pathname = `/${name}`;
				const r = await openStore({ kind: 'url', url: u.toString() });
				assert.equal(r.ok, false);
				if (!r.ok) {
					assert.equal(r.error.code, 'no-vector');
					assert.match(r.error.message, /pgvector/);
				}
				const c = new pg.Client({ connectionString: u.toString() });
				await c.connect();
				const tables = await c.query(`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`);
				await c.end();
				assert.equal(tables.rows.length, 0, 'nothing was created');
			} finally {
				await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
				await admin.query(`DROP ROLE IF EXISTS gmem_novec`);
				await admin.end();
			}
		});
	}
});
