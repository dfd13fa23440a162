/**
 * A turn's pasted material — fenced code, logs, tracebacks (fenced or not) — is data for the refusal rules: it may
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

// An unfenced pasted log or trace: a quoted line ("> Task :app:packageRelease FAILED", "> com.…
// KeytoolException: …") after a colon or a sentence end, up to its sentence's end. The text is
// already normalised (line breaks are spaces), so the quote marker is what is left of the paste.
const QUOTED_LOG = /(?<=^|[.?!:]\s+)>\s(?:[^.?!]|[.?!](?!\s|$))*(?:[.?!]|$)/g;

function stripQuotedLogs(text: string): string {
	if (!text.includes('> ')) return text;
	return text.replace(QUOTED_LOG, (m) =>
		secretPositions(tokenize(m.slice(0, 400)).tokens).length ? 'pasted secret.' : 'pasted log.',
	);
}

export function withoutPastedData<T extends Pick<TextForms, 'text' | 'core'>>(t: T): T {
	if (!t.text.includes('```') && !t.text.includes('> ')) return t;
	return { ...t, text: stripQuotedLogs(stripFences(t.text)), core: stripQuotedLogs(stripFences(t.core)) };
}
