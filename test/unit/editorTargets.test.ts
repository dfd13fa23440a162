import * as assert from 'node:assert/strict';
import { citedRange, isInsideFolder, languageIdForFence } from '../../src/extension/chat/editorTargets';

describe('editor targets of the panel actions', () => {
	it('maps fence names to VS Code language ids', () => {
		const known = new Set(['typescript', 'typescriptreact', 'python', 'shellscript', 'plaintext', 'rust']);
		assert.equal(languageIdForFence('ts', known), 'typescript');
		assert.equal(languageIdForFence('TSX', known), 'typescriptreact');
		assert.equal(languageIdForFence('sh', known), 'shellscript');
		assert.equal(languageIdForFence('rust {.x}', known), 'rust');
		assert.equal(languageIdForFence('cobol', known), 'plaintext', 'a language VS Code does not know');
		assert.equal(languageIdForFence(null, known), 'plaintext');
		assert.equal(languageIdForFence('py'), 'python', 'without the known list, the mapping alone');
	});

	it('accepts files inside a folder and refuses ones outside, .. included', () => {
		assert.ok(isInsideFolder('/w/proj/src/a.ts', '/w/proj', '/'));
		assert.ok(isInsideFolder('/w/proj', '/w/proj/', '/'));
		assert.ok(!isInsideFolder('/w/proj/../secret/a.ts', '/w/proj', '/'));
		assert.ok(!isInsideFolder('/w/project2/a.ts', '/w/proj', '/'), 'a sibling with the folder name as prefix');
		assert.ok(!isInsideFolder('/etc/passwd', '/w/proj', '/'));
		assert.ok(isInsideFolder('C:\\W\\Proj\\a.ts', 'c:\\w\\proj', '\\'), 'Windows paths compare case-insensitively');
		assert.ok(!isInsideFolder('c:\\w\\proj\\..\\x.ts', 'c:\\w\\proj', '\\'));
	});

	it('clamps cited lines to the document (1-based in, 0-based out)', () => {
		assert.deepEqual(citedRange(10, 24, 100), { start: 9, end: 23 });
		assert.deepEqual(citedRange(10, null, 100), { start: 9, end: 9 });
		assert.deepEqual(citedRange(90, 200, 50), { start: 49, end: 49 });
		assert.deepEqual(citedRange(5, 2, 50), { start: 4, end: 4 }, 'an end before the start');
		assert.deepEqual(citedRange(null, null, 50), { start: 0, end: 0 });
		assert.deepEqual(citedRange(3, 4, 0), { start: 0, end: 0 }, 'an empty document');
	});
});
