/**
 * `gmem index` end to end through the CLI entry (a PGlite store folder with its owner process):
 * the CONTRACT.md JSON, progress on stderr only, and planted secrets absent from every output of
 * `gmem index` and from `gmem search` hits on both arms.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { CliIo } from '../../src/cli/cliTypes';
import { runCli } from '../../src/cli/main';
import { stopOwner } from '../../src/store/ownerClient';
import { copyWorkspace, PLANTED_SECRETS } from '../fixtures/indexing/workspace';
import { tempStoreDir } from '../fixtures/store_engines';

async function gmem(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
	const out: string[] = [];
	const err: string[] = [];
	const io: CliIo = {
		stdout: (t) => void out.push(t),
		stderr: (t) => void err.push(t),
		readStdin: async function* () {},
		env: {},
		cwd,
	};
	const code = await runCli(args, io);
	return { code, out: out.join(''), err: err.join('') };
}

describe('gmem index (CLI, PGlite store folder)', function () {
	this.timeout(120_000);
	let ws: ReturnType<typeof copyWorkspace>;
	const db = tempStoreDir('gmem-idx-cli-');
	before(() => (ws = copyWorkspace()));
	after(async () => {
		ws.cleanup();
		await stopOwner(db);
		rmSync(db, { recursive: true, force: true });
	});

	it('prints exactly the contract object, progress on stderr, and no secret anywhere', async () => {
		const r = await gmem(['index', ws.root, '--db', db, '--json'], ws.root);
		assert.equal(r.code, 0, r.err);
		const json = JSON.parse(r.out) as Record<string, unknown>;
		assert.deepEqual(Object.keys(json), [
			'root',
			'files_indexed',
			'files_unchanged',
			'files_removed',
			'chunks',
			'skipped',
			'ms',
		]);
		assert.equal(json.root, ws.root);
		assert.equal(json.files_indexed, 17);
		assert.deepEqual(json.skipped, { secret: 2, 'excluded-folder': 1, ignored: 3, binary: 1, encoding: 1 });
		assert.match(r.err, /gmem index: done 19\/19 files/);
		for (const s of PLANTED_SECRETS) assert.ok(!r.out.includes(s) && !r.err.includes(s), s);
		const again = JSON.parse((await gmem(['index', '.', '--db', db, '--json'], ws.root)).out) as Record<
			string,
			unknown
		>;
		assert.deepEqual([again.files_indexed, again.files_unchanged, again.chunks], [0, 17, 0]);
	});

	it('gmem search finds code by symbol but no planted secret on either arm', async () => {
		const found = JSON.parse(
			(await gmem(['search', 'applyDiscount', '--db', db, '--workspace', ws.root, '--arm', 'fts', '--json'], ws.root))
				.out,
		) as { hits: Array<{ path: string; symbol: string }> };
		assert.equal(found.hits[0].path, 'src/cart.ts');
		for (const secret of PLANTED_SECRETS) {
			for (const arm of ['fts', 'vector']) {
				const r = await gmem(['search', secret, '--db', db, '--workspace', ws.root, '--arm', arm, '--json'], ws.root);
				assert.equal(r.code, 0, r.err);
				const hits = (JSON.parse(r.out) as { hits: Array<{ path: string }> }).hits;
				assert.ok(!JSON.stringify(hits).includes(secret), `${arm}: ${secret}`);
				assert.ok(
					!hits.some((h) => h.path === '.env' || h.path === 'keys/id_rsa'),
					`${arm}: a secret file was indexed`,
				);
			}
		}
	});

	it('exits 1 on a usage error', async () => {
		assert.equal((await gmem(['index', '--db', db], ws.root)).code, 1);
		assert.equal((await gmem(['index', ws.root, '--bogus'], ws.root)).code, 1);
	});
});
