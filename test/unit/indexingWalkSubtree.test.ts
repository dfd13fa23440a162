/**
 * walkSubtree (a folder that arrived as one watcher event, the folder of a changed .gitignore)
 * must see exactly what the full walk sees below that folder: same files, same skips, with every
 * ancestor's ignore rules and the user's excludes applied.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkFolder, walkSubtree, type WalkEntry, type WalkOptions } from '../../src/indexing/walk';
import { copyWorkspace } from '../fixtures/indexing/workspace';

const OPTIONS: WalkOptions = { maxFileBytes: 1_000_000, excludes: ['**/*.tmp.ts'] };

async function collect(gen: AsyncGenerator<WalkEntry>): Promise<string[]> {
	const out: string[] = [];
	for await (const e of gen) out.push(e.kind === 'file' ? `file ${e.relPath}` : `skip ${e.relPath} ${e.reason}`);
	return out;
}

describe('indexing: walkSubtree', () => {
	let ws: ReturnType<typeof copyWorkspace>;
	beforeEach(() => {
		ws = copyWorkspace();
		mkdirSync(join(ws.root, 'src', 'sub', 'deeper'), { recursive: true });
		writeFileSync(join(ws.root, 'src', 'sub', 'deeper', 'a.ts'), 'export const a = 1;\n');
		writeFileSync(join(ws.root, 'src', 'sub', 'deeper', 'b.log'), 'ignored by the root *.log\n');
		writeFileSync(join(ws.root, 'src', 'sub', 'deeper', 'c.tmp.ts'), 'excluded by the user glob\n');
	});
	afterEach(() => ws.cleanup());

	it('yields, for each folder, what the full walk yields below it', async () => {
		const full = await collect(walkFolder(ws.root, OPTIONS));
		for (const dir of ['src', 'src/sub', 'src/sub/deeper', 'docs']) {
			const expected = full.filter((line) => line.split(' ')[1].startsWith(`${dir}/`));
			assert.ok(expected.length > 0, dir);
			assert.deepEqual(await collect(walkSubtree(ws.root, dir, OPTIONS)), expected, dir);
		}
		assert.ok(
			full.includes('skip src/sub/deeper/b.log ignored') && full.includes('skip src/sub/deeper/c.tmp.ts ignored'),
		);
	});

	it('a folder the full walk would not enter yields one skip; a missing folder or a file yields nothing', async () => {
		mkdirSync(join(ws.root, 'ignored_dir', 'inner'), { recursive: true });
		writeFileSync(join(ws.root, 'ignored_dir', 'inner', 'x.ts'), 'export const x = 1;\n');
		assert.deepEqual(await collect(walkSubtree(ws.root, 'ignored_dir/inner', OPTIONS)), ['skip ignored_dir ignored']);
		assert.deepEqual(await collect(walkSubtree(ws.root, 'node_modules/leftpad', OPTIONS)), [
			'skip node_modules excluded-folder',
		]);
		assert.deepEqual(await collect(walkSubtree(ws.root, 'nope', OPTIONS)), []);
		assert.deepEqual(await collect(walkSubtree(ws.root, 'config.py', OPTIONS)), []);
	});
});
