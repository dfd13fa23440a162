// The retry menu's keys (webview/menuKeys.ts); the DOM side runs in the real workbench:
// test/e2e/checks/10-panel.cjs.
import * as assert from 'node:assert/strict';
import { menuKeyEffect } from '../../webview/menuKeys';

describe('webview retry menu keys', () => {
	it('ArrowDown / ArrowUp move between the items and wrap at both ends', () => {
		assert.deepEqual(menuKeyEffect('ArrowDown', 0, 3), { kind: 'focus', index: 1 });
		assert.deepEqual(menuKeyEffect('ArrowDown', 2, 3), { kind: 'focus', index: 0 });
		assert.deepEqual(menuKeyEffect('ArrowUp', 1, 3), { kind: 'focus', index: 0 });
		assert.deepEqual(menuKeyEffect('ArrowUp', 0, 3), { kind: 'focus', index: 2 });
	});

	it('from the button, ArrowDown opens at the first item and ArrowUp at the last', () => {
		assert.deepEqual(menuKeyEffect('ArrowDown', -1, 3), { kind: 'focus', index: 0 });
		assert.deepEqual(menuKeyEffect('ArrowUp', -1, 3), { kind: 'focus', index: 2 });
	});

	it('Home and End go to the first and last item', () => {
		assert.deepEqual(menuKeyEffect('Home', 1, 3), { kind: 'focus', index: 0 });
		assert.deepEqual(menuKeyEffect('End', 0, 3), { kind: 'focus', index: 2 });
	});

	it('Escape closes back to the button, Tab closes and lets focus move on', () => {
		assert.deepEqual(menuKeyEffect('Escape', 1, 3), { kind: 'close' });
		assert.deepEqual(menuKeyEffect('Tab', 1, 3), { kind: 'leave' });
		assert.deepEqual(menuKeyEffect('Escape', -1, 0), { kind: 'close' }, 'also with no items');
	});

	it('leaves Enter, Space, letters and an empty menu alone', () => {
		for (const key of ['Enter', ' ', 'a', 'PageDown']) assert.equal(menuKeyEffect(key, 0, 3), null, key);
		assert.equal(menuKeyEffect('ArrowDown', -1, 0), null);
	});
});
