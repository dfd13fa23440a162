/** The stub OpenAI server as the e2e runs it: a CLI that prints its URL and stops on SIGTERM. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

describe('generation: stub OpenAI server CLI', function () {
	this.timeout(20000);

	it('prints its URL, lists its models, and exits on SIGTERM', async () => {
		const child = spawn(process.execPath, ['test/stubs/openaiStub.cjs', '--port', '0'], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		try {
			const [line] = (await once(child.stdout, 'data')) as [Buffer];
			const url = line.toString().trim();
			assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
			const res = await fetch(`${url}/models`);
			const ids = ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
			assert.ok(ids.includes('stub-slow') && ids.includes('stub-429'));
			child.kill('SIGTERM');
			const [code] = (await once(child, 'exit')) as [number | null];
			assert.equal(code, 0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});

	it('stops itself after the idle time', async () => {
		const child = spawn(process.execPath, ['test/stubs/openaiStub.cjs', '--port', '0', '--idle-ms', '300'], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		try {
			await once(child.stdout, 'data');
			const [code] = (await once(child, 'exit')) as [number | null];
			assert.equal(code, 0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});
});
