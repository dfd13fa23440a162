// Citation targets against real symlinks in a temp dir: the containment test runs on real paths,
// so a link inside the workspace that points outside it is refused (a lexical test accepts it).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { citationUri } from '../../src/extension/chat/citationUris';
import {
	realContainment,
	realContainmentSync,
	type Containment,
} from '../../src/extension/indexing/workspaceContainment';

describe('workspace containment on real paths (symlinks resolved)', () => {
	let root: string;
	let ws: string;
	let outside: string;

	before(() => {
		// root/ws              the workspace folder
		// root/outside/secret.txt, root/outside/dir/key.txt   not in the workspace
		root = mkdtempSync(join(tmpdir(), 'gmem-contain-'));
		ws = join(root, 'ws');
		outside = join(root, 'outside');
		mkdirSync(join(ws, 'src'), { recursive: true });
		mkdirSync(join(outside, 'dir'), { recursive: true });
		writeFileSync(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
		writeFileSync(join(outside, 'secret.txt'), 'secret\n');
		writeFileSync(join(outside, 'dir', 'key.txt'), 'key\n');
		symlinkSync(join(outside, 'secret.txt'), join(ws, 'secret-link.txt'));
		symlinkSync(join(outside, 'dir'), join(ws, 'linked-dir'));
		symlinkSync(join(ws, 'src', 'a.ts'), join(ws, 'inside-link.ts'));
		symlinkSync(join(ws, 'src'), join(ws, 'src-link'));
		symlinkSync(join(root, 'gone.txt'), join(ws, 'dangling.txt'));
		symlinkSync(ws, join(root, 'ws-link'));
	});

	after(() => rmSync(root, { recursive: true, force: true }));

	/** Both variants agree; returns the async one's verdict. */
	async function check(file: string, folders: string[]): Promise<Containment> {
		const a = await realContainment(file, folders);
		const s = realContainmentSync(file, folders);
		assert.deepEqual(s, a, `sync and async disagree on ${file}`);
		return a;
	}

	it('accepts a plain file inside the folder', async () => {
		const r = await check(join(ws, 'src', 'a.ts'), [ws]);
		assert.ok(r.ok, JSON.stringify(r));
	});

	it('refuses a symlink inside the folder that points to a file outside it', async () => {
		const r = await check(join(ws, 'secret-link.txt'), [ws]);
		assert.equal(r.ok, false);
		assert.match(!r.ok ? r.reason : '', /outside every workspace folder/);
		assert.match(!r.ok ? r.reason : '', /secret\.txt/, 'the reason names the real path');
	});

	it('refuses a file reached through a symlinked folder that points outside (no .. in the path)', async () => {
		const r = await check(join(ws, 'linked-dir', 'key.txt'), [ws]);
		assert.equal(r.ok, false, JSON.stringify(r));
	});

	it('accepts links that stay inside the folder (to a file and through a folder)', async () => {
		const file = await check(join(ws, 'inside-link.ts'), [ws]);
		assert.ok(file.ok && file.realPath.endsWith(join('ws', 'src', 'a.ts')), JSON.stringify(file));
		const viaDir = await check(join(ws, 'src-link', 'a.ts'), [ws]);
		assert.ok(viaDir.ok, JSON.stringify(viaDir));
	});

	it('refuses a dangling link and a missing file, saying so', async () => {
		for (const p of [join(ws, 'dangling.txt'), join(ws, 'src', 'nope.ts')]) {
			const r = await check(p, [ws]);
			assert.equal(r.ok, false, p);
			assert.match(!r.ok ? r.reason : '', /does not exist/, p);
		}
	});

	it('accepts files of a workspace folder opened through a symlink', async () => {
		const link = join(root, 'ws-link');
		const r = await check(join(link, 'src', 'a.ts'), [link]);
		assert.ok(r.ok, JSON.stringify(r));
		assert.equal((await check(join(link, 'secret-link.txt'), [link])).ok, false, 'its outward link is still refused');
	});

	it('checks every folder, and a folder that no longer exists holds nothing', async () => {
		assert.ok((await check(join(outside, 'secret.txt'), [join(root, 'missing-folder'), outside])).ok);
		assert.equal((await check(join(outside, 'secret.txt'), [join(root, 'missing-folder')])).ok, false);
		assert.equal((await check(join(outside, 'secret.txt'), [])).ok, false);
	});

	it('builds citation links only for files really inside the folder', () => {
		const toUri = citationUri(() => [ws]);
		assert.equal(toUri('src/a.ts'), pathToFileURL(join(ws, 'src', 'a.ts')).href);
		assert.equal(toUri('inside-link.ts'), pathToFileURL(join(ws, 'inside-link.ts')).href);
		assert.equal(toUri('secret-link.txt'), null, 'a link to a file outside');
		assert.equal(toUri('linked-dir/key.txt'), null, 'through a linked folder outside');
		assert.equal(toUri('dangling.txt'), null);
		assert.equal(toUri('../outside/secret.txt'), null);
		assert.equal(
			citationUri(() => [join(root, 'ws-link')])('src/a.ts'),
			pathToFileURL(join(root, 'ws-link', 'src', 'a.ts')).href,
		);
	});
});
