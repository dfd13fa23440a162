/**
 * Where a store's owner serves: a 0600 Unix socket in the folder, or on Windows a named pipe named
 * after the folder. Windows itself is untested here; the path choice and the pipe redirection of
 * pg's stream (exercised over a Unix socket, which `net` reaches the same way) are.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerEndpoint, pipeStream, SOCKET_NAME } from '../../src/store/ownerEndpoint';

describe('store owner endpoint', () => {
	it('is a socket file inside the store folder on Linux and macOS', () => {
		assert.deepEqual(ownerEndpoint('/home/u/.gated-memory/db', 'linux'), {
			kind: 'unix',
			path: `/home/u/.gated-memory/db/${SOCKET_NAME}`,
		});
		assert.equal(ownerEndpoint('/Users/u/db', 'darwin').kind, 'unix');
	});

	it('is a named pipe derived from the folder on Windows, one per folder whatever its case', () => {
		const a = ownerEndpoint('C:\\Users\\u\\.gated-memory\\db', 'win32');
		assert.equal(a.kind, 'pipe');
		assert.match(a.path, /^\\\\\.\\pipe\\gated-memory-[0-9a-f]{16}$/);
		assert.equal(ownerEndpoint('c:\\users\\U\\.gated-memory\\db\\', 'win32').path, a.path, 'same folder, same pipe');
		assert.notEqual(ownerEndpoint('C:\\Users\\u\\other-store', 'win32').path, a.path, 'another folder, another pipe');
	});

	it("redirects pg's connect(port, host) to the pipe path", async () => {
		const dir = mkdtempSync(join(tmpdir(), 'gmem-pipe-'));
		const path = join(dir, 'server.sock');
		const server = createServer((s) => s.end('hello'));
		await new Promise<void>((r) => server.listen(path, r));
		try {
			const socket = pipeStream(path)();
			socket.connect(5432, 'localhost'); // what pg calls for a non-socket host
			const got = await new Promise<string>((resolve, reject) => {
				let data = '';
				socket.on('data', (d) => (data += String(d)));
				socket.on('end', () => resolve(data));
				socket.on('error', reject);
			});
			assert.equal(got, 'hello');
		} finally {
			server.close();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
