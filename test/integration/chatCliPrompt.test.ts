/**
 * `gmem chat`'s two other ways in: the interactive prompt (stdin is a terminal: plain lines, `/new`)
 * through runCli, and the bundled CLI (dist/cli.js, as `gmem` is installed) spawned with a
 * conversation on stdin, on a real PGlite store with the built-in models.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli } from '../../src/cli/main';
import { EXIT_OK } from '../../src/cli/cliTypes';
import { stopOwner } from '../../src/store/ownerClient';
import { captureIo } from '../fixtures/captureIo';
import { tempStoreDir } from '../fixtures/store_engines';

const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');

describe('gmem chat: interactive prompt and the bundled CLI (pglite)', function () {
	this.timeout(120_000);
	const db = tempStoreDir('gmem-chatprompt-db-');
	const ws = tempStoreDir('gmem-chatprompt-ws-');
	before(() => {
		mkdirSync(join(ws, 'src'), { recursive: true });
		writeFileSync(
			join(ws, 'src', 'money.ts'),
			'export function formatEuro(cents: number): string {\n\treturn `€${(cents / 100).toFixed(2)}`;\n}\n',
		);
	});
	after(async () => {
		await stopOwner(db);
		rmSync(db, { recursive: true, force: true });
		rmSync(ws, { recursive: true, force: true });
	});

	it('a terminal gets a prompt: each plain line is a turn, /new a new conversation, replies in the human form', async () => {
		const { io, out, err } = captureIo(ws, { ...process.env, GMEM_DB: '' });
		io.stdinIsTTY = true;
		io.readStdin = async function* () {
			yield 'How does formatEuro in src/money.ts format cents?';
			yield '/new';
			yield 'thanks';
		};
		const code = await runCli(['chat', '--db', db, '--index', '.'], io);
		assert.equal(code, EXIT_OK, err());
		assert.match(err(), /type a message, \/new for a new conversation/);
		assert.equal((err().match(/> /g) ?? []).length, 4, 'a prompt before each line and after the last');
		assert.match(out(), /sources:\n {2}\[1\] src\/money\.ts:1-3 \(formatEuro\)/);
		assert.match(out(), /decision: \S+ · trigger ack · path direct · no lookup/);
	});

	it('the bundle (dist/cli.js) reads a conversation on stdin and prints one JSON object per turn', async function () {
		if (!existsSync(CLI)) {
			process.stdout.write('\n  [cli bundle] dist/cli.js is not built (npm run build): SKIPPED\n');
			this.skip();
		}
		const child = spawn(process.execPath, [CLI, 'chat', '--db', db, '--workspace', ws, '--json'], {
			env: { ...process.env, GMEM_DB: '', GMEM_EMBEDDER: '' },
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		child.stdin.end(
			`${JSON.stringify({ role: 'user', content: 'How does formatEuro in src/money.ts format cents?' })}\n`,
		);
		const code = await new Promise<number | null>((r) => child.on('close', r));
		assert.equal(code, 0, stderr);
		const [turn] = stdout
			.trim()
			.split('\n')
			.map(
				(l) =>
					JSON.parse(l) as {
						turn: string;
						citations: { label: string }[];
						trace: { steps: { kind: string; message?: string }[] };
					},
			);
		assert.equal(turn.turn, 'cli-1');
		assert.equal(turn.citations[0]?.label, 'src/money.ts:1-3 (formatEuro)');
		assert.ok(
			turn.trace.steps.some((s) => s.kind === 'note' && /vector arm: gmem-static/.test(s.message ?? '')),
			'the built-in model resolves beside the bundle',
		);
	});
});
