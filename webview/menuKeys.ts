/**
 * Keyboard behaviour of the reply's retry menu (WAI-ARIA menu button pattern), as a pure function
 * so it is unit-tested in Node; actions.ts applies it to the DOM. Enter and Space are left to the
 * items themselves: they are native buttons, so either key clicks them.
 */

/**
 * What a key does: move focus to item `index`; `close` the menu and focus its button (the key is
 * consumed); `leave`: close it, focus the button and let the key's default run (Tab then moves on
 * from the button); or nothing.
 */
export type MenuKeyEffect = { kind: 'focus'; index: number } | { kind: 'close' } | { kind: 'leave' } | null;

/**
 * The effect of `key` pressed on item `index` of `count` items (index -1: on the menu button itself).
 * ArrowDown/ArrowUp wrap, Home/End go to the ends, Escape closes back to the button, Tab closes and
 * lets focus move on from the button.
 */
export function menuKeyEffect(key: string, index: number, count: number): MenuKeyEffect {
	if (key === 'Escape') return { kind: 'close' };
	if (key === 'Tab') return { kind: 'leave' };
	if (count <= 0) return null;
	switch (key) {
		case 'ArrowDown':
			return { kind: 'focus', index: index < 0 ? 0 : (index + 1) % count };
		case 'ArrowUp':
			return { kind: 'focus', index: index < 0 ? count - 1 : (index - 1 + count) % count };
		case 'Home':
			return { kind: 'focus', index: 0 };
		case 'End':
			return { kind: 'focus', index: count - 1 };
		default:
			return null;
	}
}
