/**
 * The message input: Enter sends, Shift+Enter inserts a newline, ArrowUp in an empty input
 * recalls the last message sent. IME composition is left alone (Enter there confirms a word).
 */
import type { VscodeTextarea } from '@vscode-elements/elements/dist/vscode-textarea/vscode-textarea.js';

/** What the composer reports and asks for. */
export interface ComposerEvents {
	send(text: string): void;
	lastSent(): string;
	draftChanged(text: string): void;
}

/** Wires the textarea, the Send button and the form. */
export class Composer {
	constructor(
		form: HTMLFormElement,
		private readonly input: VscodeTextarea,
		button: HTMLElement,
		private readonly events: ComposerEvents,
	) {
		// `label` is a property only (no attribute); it becomes the inner <textarea>'s aria-label.
		input.label = input.getAttribute('aria-label') ?? 'Message';
		form.addEventListener('submit', (e) => {
			e.preventDefault();
			this.submit();
		});
		button.addEventListener('click', (e) => {
			e.preventDefault();
			this.submit();
		});
		// keydown from the inner <textarea> is composed, so it reaches the host element.
		input.addEventListener('keydown', (e) => this.onKeyDown(e));
		input.addEventListener('input', () => this.events.draftChanged(this.input.value));
	}

	/** Sets the text (restoring a draft). */
	setText(text: string): void {
		this.input.value = text;
	}

	/** Puts the cursor in the input. */
	focus(): void {
		this.input.focus();
	}

	private onKeyDown(e: KeyboardEvent): void {
		if (e.isComposing) return;
		if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
			e.preventDefault();
			this.submit();
		} else if (e.key === 'ArrowUp' && this.input.value === '') {
			const last = this.events.lastSent();
			if (last) {
				e.preventDefault();
				this.input.value = last;
				this.events.draftChanged(last);
			}
		}
	}

	private submit(): void {
		const text = this.input.value.trim();
		if (!text) return;
		this.input.value = '';
		this.events.draftChanged('');
		this.events.send(text);
	}
}
