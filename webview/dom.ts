/**
 * A tiny element builder. Text always goes in through text nodes (`textContent` semantics), so
 * nothing built here can carry markup from a message, a trace or a file.
 */

/** Options for `el`: a class list, attributes, and plain text content. */
export interface ElOptions {
	className?: string;
	attrs?: Record<string, string>;
	text?: string;
}

/** Creates `<tag>` with the options applied and the children appended (strings as text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	options: ElOptions = {},
	...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (options.className) node.className = options.className;
	for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
	if (options.text !== undefined) node.textContent = options.text;
	for (const child of children) {
		if (child === null || child === undefined) continue;
		node.append(typeof child === 'string' ? document.createTextNode(child) : child);
	}
	return node;
}
