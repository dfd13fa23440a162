/** One `git diff` of many files → per-file pieces (the git source asks git once per turn). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitUnifiedDiff } from '../../../src/chat/liveState/splitDiff';

describe('live state: splitting a unified diff per file', () => {
	it('splits real git output into one piece per file, each starting at its header', () => {
		const root = mkdtempSync(join(tmpdir(), 'gmem-split-'));
		try {
			const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' });
			mkdirSync(join(root, 'src'));
			writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
			writeFileSync(join(root, 'b file.md'), '# b\n');
			git('init', '-q');
			git('add', '-A');
			git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'init');
			writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
			writeFileSync(join(root, 'b file.md'), '# b\nmore\n');
			const pieces = splitUnifiedDiff(git('diff'));
			assert.deepEqual(
				pieces.map((p) => p.path),
				['b file.md', 'src/a.ts'],
			);
			assert.match(
				pieces[1].text,
				/^diff --git a\/src\/a\.ts b\/src\/a\.ts\n[\s\S]*-export const a = 1;\n\+export const a = 2;$/,
			);
			assert.ok(!pieces[0].text.includes('src/a.ts'));
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it('an empty diff has no pieces', () => {
		assert.deepEqual(splitUnifiedDiff(''), []);
	});
});
