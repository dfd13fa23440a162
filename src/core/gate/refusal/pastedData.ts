/**
 * A turn's pasted material — fenced code, logs, tracebacks — is data for the refusal rules: it may
 * name a secret ("AuthenticationError: No API key provided"), it requests nothing. Only the prose
 * around it is read for a request; a fence that names a secret leaves "pasted secret" in its place,
 * so "commit this" after it still has its object.
 */
import type { TextForms } from '../../text/turnText';
import { secretPositions } from './secrets';
import { tokenize } from './vocabulary';

const FENCE = /```[\s\S]*?(?:```|$)/g;

function stripFences(text: string): string {
	if (!text.includes('```')) return text;
	return text.replace(FENCE, (block) =>
		secretPositions(tokenize(block.slice(3, 2000)).tokens).length ? ' pasted secret. ' : ' pasted code. ',
	);
}

export function withoutPastedData<T extends Pick<TextForms, 'text' | 'core'>>(t: T): T {
	if (!t.text.includes('```')) return t;
	return { ...t, text: stripFences(t.text), core: stripFences(t.core) };
}
