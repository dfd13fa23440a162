import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkFolder, type WalkEntry, type WalkOptions } from '../../src/indexing/walk';
import { expandBraces } from '../../src/indexing/walkIgnore';
import { copyWorkspace } from '../fixtures/indexing/workspace';

async function walk(root: string, options: Partial<WalkOptions> = {}): Promise<WalkEntry[]> {
	const out: WalkEntry[] = [];
	for await (const e of walkFolder(root, { maxFileBytes: 1_000_000, ...options })) out.push(e);
	return out;
}
const files = (es: WalkEntry[]) => es.filter((e) => e.kind === 'file').map((e) => e.relPath);
const skips = (es: WalkEntry[]) =>
	Object.fromEntries(es.filter((e) => e.kind === 'skip').map((e) => [e.relPath, e.kind === 'skip' ? e.reason : '']));

describe('indexing: walk', () => {
	let ws: ReturnType<typeof copyWorkspace>;
	beforeEach(() => (ws = copyWorkspace()));
	afterEach(() => ws.cleanup());

	it("yields the indexable files (a folder's files, then its sub-folders, by name) and every left-out entry with its reason", async () => {
		const es = await walk(ws.root);
		assert.deepEqual(files(es), [
			'.gitignore',
			'README.txt',
			'config.py',
			'assets/blob.dat',
			'assets/logo.png',
			'docs/guide.md',
			'legacy/notes.txt',
			'src/Billing.java',
			'src/Notifier.cs',
			'src/cart.ts',
			'src/checksum.c',
			'src/format.ts',
			'src/inventory.py',
			'src/main.go',
			'src/matrix.cpp',
			'src/shipping.rs',
			'src/tls.ts',
			'src/sub/.gitignore',
			'src/sub/keep.log',
		]);
		assert.deepEqual(skips(es), {
			'.env': 'secret',
			'keys/id_rsa': 'secret',
			node_modules: 'excluded-folder',
			'scratch.ts': 'ignored', // /scratch.ts in the root .gitignore
			'src/sub/generated.ts': 'ignored', // nested .gitignore
			'src/sub/other.log': 'ignored', // *.log from the root .gitignore still applies below
		});
	});

	it('applies user excludes (VS Code globs with braces) and .git/info/exclude', async () => {
		mkdirSync(join(ws.root, '.git', 'info'), { recursive: true });
		writeFileSync(join(ws.root, '.git', 'info', 'exclude'), 'legacy/\n');
		const es = await walk(ws.root, { excludes: ['**/*.{go,rs}', 'docs/**'] });
		const s = skips(es);
		assert.equal(s['src/main.go'], 'ignored');
		assert.equal(s['src/shipping.rs'], 'ignored');
		assert.equal(s['docs'] ?? s['docs/guide.md'], 'ignored');
		assert.equal(s['.git'], 'excluded-folder');
		assert.equal(s['legacy'], 'ignored');
		assert.ok(files(es).includes('src/cart.ts'));
	});

	it('reports files over the size cap as too_large without reading them', async () => {
		const es = await walk(ws.root, { maxFileBytes: 500 });
		const s = skips(es);
		assert.equal(s['src/cart.ts'], 'too_large'); // 1.3 kB
		assert.ok(files(es).includes('src/format.ts'));
	});

	it('never follows symlinks by default, and detects a loop when asked to follow them', async () => {
		symlinkSync(ws.root, join(ws.root, 'src', 'loop'));
		symlinkSync(join(ws.root, 'src', 'format.ts'), join(ws.root, 'fmt-link.ts'));
		const plain = skips(await walk(ws.root));
		assert.equal(plain['src/loop'], 'symlink');
		assert.equal(plain['fmt-link.ts'], 'symlink');
		const followed = await walk(ws.root, { followSymlinks: true });
		assert.equal(skips(followed)['src/loop'], 'symlink-loop');
		assert.ok(files(followed).includes('fmt-link.ts'));
	});

	it('stops when the signal is aborted', async () => {
		const ac = new AbortController();
		const seen: string[] = [];
		await assert.rejects(async () => {
			for await (const e of walkFolder(ws.root, { maxFileBytes: 1e6, signal: ac.signal })) {
				seen.push(e.relPath);
				if (seen.length === 3) ac.abort();
			}
		}, /abort/i);
		assert.equal(seen.length, 3);
	});

	it('expands {a,b} alternatives', () => {
		assert.deepEqual(expandBraces('**/*.{js,ts}'), ['**/*.js', '**/*.ts']);
		assert.deepEqual(expandBraces('{a,b}/{c,d}'), ['a/c', 'a/d', 'b/c', 'b/d']);
		assert.deepEqual(expandBraces('plain'), ['plain']);
	});
});
